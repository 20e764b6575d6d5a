// Install from a file: the path is inspected first, then a dialog lists what the bundle declares
// and warns that its host part runs as trusted code in the main process. Reinstalling the same
// name and version with different content is refused by the host; the dialog then shows both
// hashes and asks before replacing (install with force).
import { useState, type FormEvent } from 'react'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { errorCode, errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { Modal } from '../app/Modal'
import { pluginsActions } from './plugins-store'

type Declaration = MethodOutput<'plugins/inspect'>

export function InstallBundle() {
  const host = useHost()
  const [path, setPath] = useState('')
  const [declaration, setDeclaration] = useState<Declaration | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  /** The host's refusal to replace a same-version bundle with different content: confirm first. */
  const [changed, setChanged] = useState<string | null>(null)

  const inspect = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setMessage(null)
    setChanged(null)
    try {
      setDeclaration(await host.invoke('plugins/inspect', { path: path.trim() }))
    } catch (e) {
      setError(errorText(e))
    }
  }

  const install = async (force = false) => {
    setBusy(true)
    setError(null)
    try {
      const installed = await host.invoke('plugins/install', force ? { path: path.trim(), force: true } : { path: path.trim() })
      setDeclaration(null)
      setChanged(null)
      setPath('')
      setMessage(installed.status === 'installed' || installed.status === 'upgraded' ? `Installed ${installed.name} ${installed.version}.` : installed.message)
      await pluginsActions.refresh(host)
    } catch (e) {
      if (!force && errorCode(e) === 'BUNDLE_CHANGED') setChanged(errorText(e))
      else setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="install-bundle row" onSubmit={(e) => void inspect(e)}>
      <label className="field grow">
        <span className="field-label">Bundle path</span>
        <input type="text" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/bundle or bundle-1.0.0.tgz" spellCheck={false} />
      </label>
      <button type="submit" disabled={!path.trim()}>Install from file…</button>
      {message && <p className="muted" role="status">{message}</p>}
      {error && !declaration && <p className="form-error" role="alert">{error}</p>}
      {declaration && (
        <Modal label="Install plugin bundle" onCancel={() => setDeclaration(null)} focusFirst>
          <dl className="declaration">
            <dt>Name</dt><dd aria-label="Bundle name">{declaration.name}</dd>
            <dt>Version</dt><dd aria-label="Bundle version">{declaration.version}</dd>
            <dt>Seam versions</dt><dd aria-label="Seam versions"><code>{declaration.engines}</code></dd>
            <dt>Host part</dt><dd aria-label="Host part">{declaration.host ? <code>{declaration.host}</code> : 'none'}</dd>
            <dt>Client part</dt><dd aria-label="Client part">{declaration.client ? <code>{declaration.client}</code> : 'none'}</dd>
          </dl>
          <p className="banner warn" role="note">{declaration.warning}</p>
          {error && <p className="form-error" role="alert">{error}</p>}
          {changed && <p className="banner warn" role="alert" aria-label="Replacement">{changed}</p>}
          <div className="modal-actions">
            <button type="button" onClick={() => { setDeclaration(null); setChanged(null) }}>Cancel</button>
            {changed ? (
              <button type="button" className="primary" disabled={busy} onClick={() => void install(true)}>Replace installed copy</button>
            ) : (
              <button type="button" className="primary" disabled={busy} onClick={() => void install()}>Install</button>
            )}
          </div>
        </Modal>
      )}
    </form>
  )
}
