// `seam skills`: the skills the workspace's sessions get (plugins/skills, through the slash
// command providers), with where each was found, whether the model and the user may invoke it,
// then the SKILL.md files that were skipped (file and field) and the name clashes.
import type { HostRuntime } from '../app/runtime'
import { sessionCommands } from '../commands/dispatch'

export function skillsCommand(runtime: HostRuntime, json: boolean, io: { stdout: NodeJS.WritableStream }): number {
  const set = sessionCommands(runtime, runtime.workspace(), runtime.kernel)
  const skills = [...set.plugin.values()].map((entry) => entry.command).filter((command) => command.kind === 'skill')
  const problems = set.problems.filter((problem) => problem.source === 'plugin')
  if (json) {
    for (const skill of skills) io.stdout.write(JSON.stringify({ type: 'skill', ...skill }) + '\n')
    for (const problem of problems) io.stdout.write(JSON.stringify({ type: 'problem', name: problem.name, file: problem.file, ...(problem.field ? { field: problem.field } : {}), message: problem.message }) + '\n')
    for (const notice of set.notices) io.stdout.write(JSON.stringify({ type: 'notice', text: notice }) + '\n')
    return 0
  }
  if (skills.length === 0) io.stdout.write('No skills found (~/.claude/skills, .claude/skills, ~/.agents/skills, .agents/skills, ~/.codex/skills, installed plugins).\n')
  for (const skill of skills) {
    const who = skill.userInvocable === false ? '  (model only)' : skill.modelInvocable === false ? '  (user only)' : ''
    io.stdout.write(`/${skill.name}${skill.argumentHint ? ` ${skill.argumentHint}` : ''}  ${skill.origin}${who}\n  ${skill.description}\n  ${skill.file ?? ''}\n`)
  }
  for (const problem of problems) io.stdout.write(`skipped: ${problem.name}: ${problem.file}: ${problem.message}\n`)
  for (const notice of set.notices) io.stdout.write(`note: ${notice}\n`)
  return 0
}
