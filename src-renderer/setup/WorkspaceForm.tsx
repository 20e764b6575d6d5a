// Choose the workspace folder: the native picker on the desktop; where there is none (web mode,
// the host answers UNSUPPORTED) the host's folder browser (FolderPicker). A typed path works in
// both ("Type a path instead"; `~/x` is the user's home), the host validating it.
import { useState, type FormEvent } from 'react'
import { useAppStore } from '../app/app-store'
import { errorCode, errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { EmptyState } from '../app/EmptyState'
import { FolderOpen } from '../app/icons'
import { FolderPicker } from './FolderPicker'

export function WorkspaceForm() {
  const host = useHost()
  const workspace = useAppStore((state) => state.status?.workspace ?? null)
  const [typing, setTyping] = useState(false)
  const [browsing, setBrowsing] = useState(false)
  const [path, setPath] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const use = async (chosen: string) => {
    setBusy(true)
    setError(null)
    try {
      await host.invoke('workspace/set', { path: chosen })
      setPath('')
      setTyping(false)
      setBrowsing(false)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  // From the folder browser: a refusal shows in the dialog, which stays open.
  const chooseBrowsed = async (chosen: string) => {
    await host.invoke('workspace/set', { path: chosen })
    setBrowsing(false)
  }

  const choose = async () => {
    setError(null)
    try {
      const { path: chosen } = await host.invoke('workspace/choose', {})
      if (chosen) await use(chosen)
    } catch (e) {
      // No native picker here (web mode): the host's folder browser.
      if (errorCode(e) === 'UNSUPPORTED') setBrowsing(true)
      else setError(errorText(e))
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (path.trim()) void use(path.trim())
  }

  const actions = (
    <>
      <button type="button" className={workspace ? undefined : 'primary'} onClick={() => void choose()} disabled={busy}>Choose folder…</button>
      {!typing && (
        <button type="button" className="link" onClick={() => setTyping(true)}>Type a path instead</button>
      )}
    </>
  )

  return (
    <div className="workspace-form">
      {workspace ? (
        <>
          <p>
            <span className="field-label">Workspace: </span>
            <code className="path">{workspace}</code>
          </p>
          <div className="row">{actions}</div>
        </>
      ) : (
        // No folder yet: say what the workspace is for and offer the way to pick one.
        <EmptyState icon={FolderOpen} title="No workspace folder chosen." label="No workspace" action={actions}>
          The agent reads, runs and changes files only inside the folder you pick. Choose the project folder to work in; you can switch later in Settings.
        </EmptyState>
      )}
      {typing && (
        <form className="row" onSubmit={submit}>
          <label className="field grow">
            <span className="field-label">Workspace folder</span>
            <input type="text" autoFocus value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/project" spellCheck={false} />
          </label>
          <button type="submit" className="primary" disabled={busy || !path.trim()}>Use this folder</button>
        </form>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      {browsing && <FolderPicker onChoose={chooseBrowsed} onCancel={() => setBrowsing(false)} />}
    </div>
  )
}
