// Shown above the chat when the workspace declares hook commands and is not trusted: a dialog
// lists the exact commands before the user trusts it.
import { useState } from 'react'
import { useAppStore } from '../app/app-store'
import { Modal } from '../app/Modal'
import { TrustCommands } from './TrustCommands'
import { useTrustPreview } from './trust-preview'

export function TrustBanner() {
  const trusted = useAppStore((state) => state.status?.workspaceTrusted ?? true)
  if (trusted) return null
  return <UntrustedBanner />
}

function UntrustedBanner() {
  const { preview, error, setTrusted } = useTrustPreview()
  const [open, setOpen] = useState(false)
  const [dismissed, setDismissed] = useState(false)
  if (!preview || preview.trusted || preview.items.length === 0 || dismissed) return null
  return (
    <div className="banner warn" role="region" aria-label="Workspace trust">
      <span>
        This workspace declares {preview.items.length} hook command{preview.items.length === 1 ? '' : 's'} that will not run until you trust it.
      </span>
      <button type="button" onClick={() => setOpen(true)}>Review…</button>
      <button type="button" className="link" onClick={() => setDismissed(true)}>Not now</button>
      {open && (
        <Modal label="Trust this workspace?" onCancel={() => setOpen(false)} focusFirst className="wide">
          <p>Trusting <code className="path">{preview.workspace}</code> lets these commands run on your machine as you:</p>
          <TrustCommands items={preview.items} />
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="modal-actions">
            <button type="button" onClick={() => setOpen(false)}>Cancel</button>
            <button type="button" className="primary" onClick={() => void setTrusted(true).then(() => setOpen(false))}>Trust</button>
          </div>
        </Modal>
      )}
    </div>
  )
}
