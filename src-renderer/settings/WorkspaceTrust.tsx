// Workspace trust on the settings page: the commands it would run, Trust / Untrust.
import { useAppStore } from '../app/app-store'
import { TrustCommands } from './TrustCommands'
import { useTrustPreview } from './trust-preview'

export function WorkspaceTrust() {
  const { preview, error, setTrusted } = useTrustPreview()
  const trustNeeded = useAppStore((state) => state.status?.trustNeeded ?? 0)
  if (!preview) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>
  if (!preview.workspace) return <p className="muted">No workspace chosen.</p>
  // Nothing here runs on trust: no verdict to show, nothing to decide.
  if (!preview.trusted && trustNeeded === 0 && preview.items.length === 0) {
    return <p className="muted">Nothing in this workspace needs trust: it declares no hooks, Claude Code settings, MCP servers or patch file.</p>
  }
  return (
    <div className="workspace-trust">
      <p>
        This workspace is <strong>{preview.trusted ? 'trusted' : 'not trusted'}</strong>.{' '}
        {preview.trusted ? 'Its hooks and patch file are active.' : 'Its hooks and .seam/cordis.patch.yml do not run until you trust it.'}
      </p>
      <TrustCommands items={preview.items} showStatus={preview.trusted} />
      <div className="row">
        <button type="button" disabled={preview.trusted} onClick={() => void setTrusted(true, preview.items)}>Trust</button>
        {preview.trusted && preview.items.some((item) => item.status !== 'approved') && (
          <button type="button" onClick={() => void setTrusted(true, preview.items.filter((item) => item.status !== 'approved'))}>Approve changes</button>
        )}
        <button type="button" disabled={!preview.trusted} onClick={() => void setTrusted(false)}>Untrust</button>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
