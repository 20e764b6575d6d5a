// Settings, "Subagents" (plugins/subagents): every agent type the window's workspace offers, in
// the order a name clash is decided (project first, built-ins last), with its description, where
// it came from, its file and its tools; then the agent files that were skipped, naming the file and
// the field at fault. Read through `subagents/list` each time the page opens (files are re-read).
import { useHostQuery } from '../app/use-host-query'
import { useAppStore } from '../app/app-store'

const SOURCE_TEXT: Record<string, string> = {
  builtin: 'built-in',
  project: 'project (.claude/agents)',
  user: 'user (~/.claude/agents)',
  'codex-project': 'Codex, project (.codex/agents)',
  'codex-user': 'Codex, user (~/.codex/agents)'
}

export function sourceText(source: string): string {
  if (source.startsWith('plugin:')) return `plugin ${source.slice('plugin:'.length)}`
  return SOURCE_TEXT[source] ?? source
}

export function AgentsList() {
  const workspace = useAppStore((state) => state.status?.workspace)
  const trusted = useAppStore((state) => state.status?.workspaceTrusted)
  const { data, error } = useHostQuery('subagents/list', [workspace, trusted])
  if (data === null) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>
  if (!data.running) return <p className="muted">The subagents plugin is not running: the Agent tool and agent files are off.</p>
  return (
    <div className="agents-list">
      <ul aria-label="Agents found">
        {data.agents.map((agent) => (
          <li key={agent.name} className="skill-row" aria-label={`Agent ${agent.name}`}>
            <span className="slash-name">{agent.name}</span>
            <span className="slash-source"> ({sourceText(agent.source)})</span>
            <div className="muted small">{agent.description}</div>
            {agent.file && <div className="muted small mono">{agent.file}</div>}
            <div className="muted small">
              Tools: {agent.tools ? agent.tools.join(', ') : 'all'}
              {agent.disallowedTools && agent.disallowedTools.length > 0 ? `; not: ${agent.disallowedTools.join(', ')}` : ''}
            </div>
          </li>
        ))}
      </ul>
      {data.skipped.length > 0 && (
        <>
          <h3 className="small">Skipped agent files</h3>
          <ul aria-label="Skipped agent files">
            {data.skipped.map((skipped) => (
              <li key={skipped.file} className="form-error small">
                <span className="mono">{skipped.file}</span>: {skipped.field}: {skipped.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
