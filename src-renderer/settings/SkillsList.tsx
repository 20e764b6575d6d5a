// Skills (plugins/skills): every SKILL.md the window's workspace offers, with where it was found and
// who may invoke it, then the files that were skipped (file and field) and the name clashes. Read
// through `commands/list` (skills are slash commands of kind `skill`) each time the page opens.
import { useHostQuery } from '../app/use-host-query'

export function SkillsList() {
  const { data, error } = useHostQuery('commands/list')
  if (data === null) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>
  const skills = data.commands.filter((command) => command.source === 'plugin' && command.kind === 'skill')
  const problems = data.problems.filter((problem) => problem.source === 'plugin')
  const clashes = data.notices.filter((notice) => notice.startsWith('skill "') || notice.includes(' the skill '))
  return (
    <div className="skills-list">
      {skills.length === 0 ? (
        <p className="muted">No skills found. A skill is a folder with a SKILL.md in ~/.claude/skills, .claude/skills, ~/.agents/skills, .agents/skills, ~/.codex/skills or an installed plugin.</p>
      ) : (
        <ul aria-label="Skills">
          {skills.map((skill) => (
            <li key={skill.name} className="skill-row">
              <span className="slash-name">/{skill.name}</span>
              {skill.argumentHint && <span className="slash-hint"> {skill.argumentHint}</span>}
              <span className="slash-source"> ({skill.origin}{skill.userInvocable === false ? ', model only' : skill.modelInvocable === false ? ', user only' : ''})</span>
              <div className="muted small">{skill.description}</div>
              {skill.file && <div className="muted small mono">{skill.file}</div>}
            </li>
          ))}
        </ul>
      )}
      {problems.map((problem) => (
        <p key={problem.file} className="form-error small">
          Skipped {problem.name}: {problem.file}: {problem.message}
        </p>
      ))}
      {clashes.map((notice) => (
        <p key={notice} className="muted small">{notice}</p>
      ))}
    </div>
  )
}
