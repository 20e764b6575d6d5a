// Shown above the chat when the workspace declares hook commands that do not run: all of them
// while it is not trusted, or those new or changed since the user approved them. The dialog
// lists the exact commands (for a changed one, the old and the new text) before approving.
import { useState } from 'react'
import { useAppStore } from '../app/app-store'
import { Modal } from '../app/Modal'
import { TrustCommands } from './TrustCommands'
import { useTrustPreview } from './trust-preview'

export function TrustBanner() {
  const trusted = useAppStore((state) => state.status?.workspaceTrusted ?? true)
  const changes = useAppStore((state) => state.status?.trustChanges ?? 0)
  if (trusted && changes === 0) return null
  return trusted ? <ChangedBanner /> : <UntrustedBanner />
}

function UntrustedBanner() {
  const { preview, error, setTrusted } = useTrustPreview()
  const [open, setOpen] = useState(false)
  const [dismissed, setDismissed] = useState(false)
  if (!preview || preview.trusted || preview.items.length === 0 || dismissed) return null
  return (
    <div className="banner warn" role="region" aria-label="Workspace trust">
      <span>{bannerText(preview.items)}</span>
      <button type="button" onClick={() => setOpen(true)}>Review…</button>
      <button type="button" className="link" onClick={() => setDismissed(true)}>Not now</button>
      {open && (
        <Modal label="Trust this workspace?" onCancel={() => setOpen(false)} focusFirst className="wide">
          <p>Trusting <code className="path">{preview.workspace}</code> lets these commands run on your machine as you{preview.items.some((item) => item.source === SETTINGS_SOURCE) ? ' and applies these settings' : ''}:</p>
          <TrustCommands items={preview.items} />
          <p className="muted">Trust covers exactly these commands: one added or changed later does not run until you approve it.</p>
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="modal-actions">
            <button type="button" onClick={() => setOpen(false)}>Cancel</button>
            <button type="button" className="primary" onClick={() => void setTrusted(true, preview.items).then(() => setOpen(false))}>Trust</button>
          </div>
        </Modal>
      )}
    </div>
  )
}

function ChangedBanner() {
  const { preview, error, setTrusted } = useTrustPreview()
  const [open, setOpen] = useState(false)
  const pending = preview?.items.filter((item) => item.status !== 'approved') ?? []
  if (!preview || pending.length === 0) return null
  return (
    <div className="banner warn" role="region" aria-label="Workspace trust">
      <span>
        {pending.length} hook command{pending.length === 1 ? ' or setting is' : 's or settings are'} new or changed since you trusted this workspace and will not run or apply until you approve {pending.length === 1 ? 'it' : 'them'}.
      </span>
      <button type="button" onClick={() => setOpen(true)}>Review changes…</button>
      {open && (
        <Modal label="Approve changed hook commands?" onCancel={() => setOpen(false)} focusFirst className="wide">
          <p>These commands in <code className="path">{preview.workspace}</code> differ from what you approved:</p>
          <TrustCommands items={pending} showStatus />
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="modal-actions">
            <button type="button" onClick={() => setOpen(false)}>Not now</button>
            <button type="button" className="primary" onClick={() => void setTrusted(true, pending).then(() => setOpen(false))}>Approve</button>
          </div>
        </Modal>
      )}
    </div>
  )
}

/** The trust items the claude-settings plugin contributes (permission rules, mode, folders, env names) are settings, not commands. */
const SETTINGS_SOURCE = 'Claude Code settings'

function bannerText(items: ReadonlyArray<{ source: string }>): string {
  const settings = items.filter((item) => item.source === SETTINGS_SOURCE).length
  const commands = items.length - settings
  const parts: string[] = []
  if (commands > 0) parts.push(`${commands} hook command${commands === 1 ? '' : 's'} that will not run`)
  if (settings > 0) parts.push(`${settings} Claude Code permission or env setting${settings === 1 ? '' : 's'} that will not apply`)
  return `This workspace declares ${parts.join(' and ')} until you trust it.`
}
