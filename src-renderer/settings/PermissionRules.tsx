// The permission rules and approval mode in force (`permissions/list`), each with where it came
// from: the permission-policy config or a Claude Code settings file (`permissions.allow[2]`).
import type { PermissionsInForce } from '../../src-shared/contract/ipc'
import { useHostQuery } from '../app/use-host-query'

const SOURCE_LABELS: Record<string, string> = {
  seam: 'Seam (permission-policy config)',
  user: 'Claude Code user settings',
  project: 'Claude Code project settings',
  local: 'Claude Code local settings',
  'command line': 'the command line (--approve)'
}

export function PermissionRules({ deps = [] }: { deps?: readonly unknown[] }) {
  const { data, error, reload } = useHostQuery('permissions/list', deps)
  return (
    <div className="permission-rules">
      {error && <p className="form-error" role="alert">{error}</p>}
      {data && <InForce data={data} />}
      <button type="button" className="link" onClick={() => void reload()}>Refresh</button>
    </div>
  )
}

function InForce({ data }: { data: PermissionsInForce }) {
  if (!data.running) return <p className="form-error" role="alert">The permission-policy plugin is not running: no rule or mode applies.</p>
  return (
    <>
      {data.mode && (
        <p aria-label="Mode in force">
          Mode in force: <code>{data.mode.mode}</code>
          {data.mode.claudeMode !== undefined
            ? <> (from <code>defaultMode: {data.mode.claudeMode}</code> in <span className="path">{data.mode.file}</span>)</>
            : data.mode.source === 'command line' ? ' (from the command line)' : ' (from the choice above)'}
        </p>
      )}
      {data.rules.length === 0 ? (
        <p className="muted">No permission rules: the mode decides every call.</p>
      ) : (
        <table className="trust-commands" aria-label="Permission rules in force">
          <thead>
            <tr><th>Effect</th><th>Rule</th><th>From</th><th>File</th></tr>
          </thead>
          <tbody>
            {data.rules.map((rule) => (
              <tr key={`${rule.file}#${rule.behavior}#${rule.index}`}>
                <td>{rule.behavior}</td>
                <td><code>{rule.rule}</code></td>
                <td>{SOURCE_LABELS[rule.source] ?? rule.source}</td>
                <td className="path">{rule.source === 'seam' ? `${rule.behavior}[${rule.index}]` : `${rule.file} (permissions.${rule.behavior}[${rule.index}])`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data.additionalDirectories.length > 0 && (
        <ul className="grant-list" aria-label="Additional directories">
          {data.additionalDirectories.map((dir) => (
            <li key={`${dir.file}#${dir.index}`}><span className="path">{dir.resolved}</span> <span className="muted">({dir.file})</span></li>
          ))}
        </ul>
      )}
      {data.warnings.length > 0 && (
        <ul aria-label="Ignored permission settings">
          {data.warnings.map((warning) => <li key={warning} className="form-error">{warning}</li>)}
        </ul>
      )}
      <p className="muted">Deny wins over ask, ask over allow, whatever file a rule comes from.</p>
    </>
  )
}
