// Install from a file or by name: a path is inspected first; a package NAME[@RANGE] is resolved
// in the npm registry (the version whose engines.seam fits, nothing downloaded yet). Either way a
// dialog lists what will be installed and warns that a host part runs as trusted code in the main
// process. Reinstalling the same name and version with different content is refused by the host;
// the dialog then shows both hashes and asks before replacing (install with force). Below, a
// search of the registry whose Install buttons start the same by-name flow.
import { useState, type FormEvent } from 'react'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { errorCode, errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { Modal } from '../app/Modal'
import { pluginsActions } from './plugins-store'
import { RegistrySearch } from './RegistrySearch'

type Declaration = MethodOutput<'plugins/inspect'>
type Resolution = MethodOutput<'plugins/registry-resolve'>

type Pending = { kind: 'file'; path: string; declaration: Declaration } | { kind: 'registry'; spec: string; resolution: Resolution }

const REGISTRY_WARNING = 'A bundle\'s host part runs inside Seam\'s main process as trusted code, with your permissions: install only bundles you trust.'

/** What the user typed is a path (installs from disk) rather than a package name. */
export function looksLikePath(text: string): boolean {
  return /^([/\\~.]|[a-zA-Z]:)/.test(text) || /\.(tgz|tar\.gz)$/i.test(text) || (text.includes('/') && !text.startsWith('@')) || text.includes('\\')
}

export function InstallBundle() {
  const host = useHost()
  const [text, setText] = useState('')
  const [pending, setPending] = useState<Pending | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  /** The host's refusal to replace a same-version bundle with different content: confirm first. */
  const [changed, setChanged] = useState<string | null>(null)

  const reset = () => {
    setError(null)
    setMessage(null)
    setChanged(null)
  }

  const resolve = async (spec: string) => {
    reset()
    setBusy(true)
    try {
      setPending({ kind: 'registry', spec, resolution: await host.invoke('plugins/registry-resolve', { spec }) })
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const inspect = async (event: FormEvent) => {
    event.preventDefault()
    const value = text.trim()
    if (!looksLikePath(value)) return resolve(value)
    reset()
    try {
      setPending({ kind: 'file', path: value, declaration: await host.invoke('plugins/inspect', { path: value }) })
    } catch (e) {
      setError(errorText(e))
    }
  }

  const install = async (force = false) => {
    if (!pending) return
    setBusy(true)
    setError(null)
    try {
      const options = force ? { force: true } : {}
      let installed: MethodOutput<'plugins/install'>
      let from = ''
      let notes = ''
      if (pending.kind === 'file') installed = await host.invoke('plugins/install', { path: pending.path, ...options })
      else {
        const fromRegistry = await host.invoke('plugins/registry-install', { spec: pending.spec, ...options })
        installed = fromRegistry
        from = ` from ${fromRegistry.registry}`
        notes = fromRegistry.notes.map((note) => ` ${note}`).join('')
      }
      setPending(null)
      setChanged(null)
      setText('')
      setMessage((installed.status === 'installed' || installed.status === 'upgraded' ? `Installed ${installed.name} ${installed.version}${from}.` : installed.message) + notes)
      await pluginsActions.refresh(host)
    } catch (e) {
      if (!force && errorCode(e) === 'BUNDLE_CHANGED') setChanged(errorText(e))
      else setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const name = pending ? (pending.kind === 'file' ? pending.declaration.name : pending.resolution.name) : ''
  const value = text.trim()
  return (
    <>
      <form className="install-bundle row" onSubmit={(e) => void inspect(e)}>
        <label className="field grow">
          <span className="field-label">Bundle path or package name</span>
          <input type="text" value={text} onChange={(e) => setText(e.target.value)} placeholder="/path/to/bundle-1.0.0.tgz, a folder, or name@range" spellCheck={false} />
        </label>
        <button type="submit" disabled={!value || busy}>{value && !looksLikePath(value) ? 'Install from registry…' : 'Install from file…'}</button>
        {message && <p className="muted" role="status">{message}</p>}
        {error && !pending && <p className="form-error" role="alert">{error}</p>}
      </form>
      <RegistrySearch busy={busy} onInstall={(spec) => void resolve(spec)} />
      {pending && (
        <Modal label="Install plugin bundle" onCancel={() => setPending(null)} focusFirst>
          {pending.kind === 'file' ? (
            <dl className="declaration">
              <dt>Name</dt><dd aria-label="Bundle name">{name}</dd>
              <dt>Version</dt><dd aria-label="Bundle version">{pending.declaration.version}</dd>
              <dt>Seam versions</dt><dd aria-label="Seam versions"><code>{pending.declaration.engines}</code></dd>
              <dt>Host part</dt><dd aria-label="Host part">{pending.declaration.host ? <code>{pending.declaration.host}</code> : 'none'}</dd>
              <dt>Client part</dt><dd aria-label="Client part">{pending.declaration.client ? <code>{pending.declaration.client}</code> : 'none'}</dd>
            </dl>
          ) : (
            <dl className="declaration">
              <dt>Name</dt><dd aria-label="Bundle name">{name}</dd>
              <dt>Version</dt><dd aria-label="Bundle version">{pending.resolution.version}</dd>
              <dt>Seam versions</dt><dd aria-label="Seam versions"><code>{pending.resolution.engines}</code></dd>
              <dt>Registry</dt><dd aria-label="Registry">{pending.resolution.registry}</dd>
              <dt>Updates within</dt><dd aria-label="Update range"><code>{pending.resolution.range}</code></dd>
              {pending.resolution.description && <><dt>Description</dt><dd aria-label="Description">{pending.resolution.description}</dd></>}
            </dl>
          )}
          <p className="banner warn" role="note">{pending.kind === 'file' ? pending.declaration.warning : REGISTRY_WARNING}</p>
          {error && <p className="form-error" role="alert">{error}</p>}
          {changed && <p className="banner warn" role="alert" aria-label="Replacement">{changed}</p>}
          <div className="modal-actions">
            <button type="button" onClick={() => { setPending(null); setChanged(null) }}>Cancel</button>
            {changed ? (
              <button type="button" className="primary" disabled={busy} onClick={() => void install(true)}>Replace installed copy</button>
            ) : (
              <button type="button" className="primary" disabled={busy} onClick={() => void install()}>Install</button>
            )}
          </div>
        </Modal>
      )}
    </>
  )
}
