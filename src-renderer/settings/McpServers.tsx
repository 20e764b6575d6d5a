// MCP servers: each with its transport, exact command or URL, state (and why it failed), its
// tools, its stderr, and enable / disable / restart. Refreshed on every `mcp/changed` push.
import { useEffect, useState } from 'react'
import type { McpServerStatusPublic } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useHostQuery } from '../app/use-host-query'

const STATE_CLASS: Record<McpServerStatusPublic['state'], string> = {
  connected: 'plugin-active',
  starting: 'plugin-waiting',
  stopped: '',
  failed: 'plugin-failed',
  disabled: '',
  untrusted: 'warn'
}

export function McpServers() {
  const host = useHost()
  const { data, error, setError, reload } = useHostQuery('mcp/list')
  useEffect(() => host.on('mcp/changed', () => void reload()), [host, reload])

  if (data === null) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run()
      await reload()
    } catch (e) {
      setError(errorText(e))
    }
  }
  return (
    <div className="mcp-servers">
      {data.servers.length === 0 ? (
        <p className="muted">No MCP servers are configured. Declare them in the workspace's .mcp.json, in "mcpServers" of Seam's settings.json, or in Codex's config.toml.</p>
      ) : (
        <ul className="mcp-server-list" aria-label="MCP servers">
          {data.servers.map((server) => (
            <McpServerRow
              key={server.name}
              server={server}
              onToggle={() => act(() => host.invoke('mcp/set-enabled', { name: server.name, enabled: !server.enabled }))}
              onRestart={() => act(() => host.invoke('mcp/restart', { name: server.name }))}
            />
          ))}
        </ul>
      )}
      {data.warnings.map((warning) => (
        <p key={warning} className="muted">{warning}</p>
      ))}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}

function McpServerRow({ server, onToggle, onRestart }: { server: McpServerStatusPublic; onToggle(): void; onRestart(): void }) {
  const [busy, setBusy] = useState(false)
  const run = (action: () => void | Promise<void>) => async () => {
    setBusy(true)
    try {
      await action()
    } finally {
      setBusy(false)
    }
  }
  return (
    <li className="mcp-server" aria-label={`MCP server ${server.name}`}>
      <div className="mcp-server-head">
        <strong>{server.name}</strong> <span className="badge">{server.transport}</span>{' '}
        <span className={`badge ${STATE_CLASS[server.state]}`} data-testid="mcp-state">{server.state}</span>
        <span className="muted"> from {server.file}</span>
        <span className="mcp-actions">
          <button type="button" disabled={busy || server.state === 'untrusted'} onClick={run(onToggle)}>
            {server.enabled ? `Disable ${server.name}` : `Enable ${server.name}`}
          </button>
          <button type="button" disabled={busy || !server.enabled || server.state === 'untrusted'} onClick={run(onRestart)}>
            {server.state === 'stopped' ? `Start ${server.name}` : `Restart ${server.name}`}
          </button>
        </span>
      </div>
      <code className="mcp-target">{server.target}</code>
      {server.reason && <p className={server.state === 'failed' ? 'form-error' : 'muted'}>{server.reason}</p>}
      {server.tools.length > 0 && (
        <details>
          <summary>{server.tools.length} tools</summary>
          <ul className="mcp-tools" aria-label={`Tools of ${server.name}`}>
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <span className="tool-name">{tool.name}</span> <span className="muted">{tool.description}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {server.problems.length > 0 && (
        <ul className="mcp-problems" aria-label={`Problems of ${server.name}`}>
          {server.problems.map((problem) => (
            <li key={problem} className="form-error">{problem}</li>
          ))}
        </ul>
      )}
      {server.stderr.length > 0 && (
        <details>
          <summary>stderr ({server.stderr.length} lines)</summary>
          <pre className="mcp-stderr" aria-label={`stderr of ${server.name}`}>{server.stderr.join('\n')}</pre>
        </details>
      )}
    </li>
  )
}
