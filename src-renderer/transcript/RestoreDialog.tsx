// Confirms a revert or a rewind: which files go back, and for each one that changed since the
// turn (by the user or a later turn) what changed, as a diff from what the turn left to what is
// there now. Nothing is changed on disk until the user confirms.
import type { RestoreOutcome } from '../../src-shared/contract/checkpoints'
import { ConfirmDialog } from '../app/ConfirmDialog'
import { diffable, noDiffReason, shortPath } from './file-text'
import { FileDiff } from './ToolDiff'

export interface RestoreDialogProps {
  mode: 'revert' | 'rewind'
  outcome: RestoreOutcome
  workspace?: string
  onConfirm: () => Promise<void>
  onClose: () => void
}

export function RestoreDialog({ mode, outcome, workspace, onConfirm, onClose }: RestoreDialogProps) {
  const conflicts = outcome.files.filter((file) => file.conflict)
  const label = mode === 'rewind' ? 'Rewind the conversation' : 'Revert changes'
  const confirm = mode === 'rewind' ? (conflicts.length > 0 ? 'Rewind anyway' : 'Rewind') : conflicts.length > 0 ? 'Revert anyway' : 'Revert'
  return (
    <ConfirmDialog label={label} confirm={confirm} danger={conflicts.length > 0} className="restore-dialog" onConfirm={onConfirm} onClose={onClose}>
      {mode === 'rewind' && (
        <p>
          The conversation goes back to before this message: it and everything after it leave the model's history (they stay here,
          greyed out), and its text goes back into the composer.
        </p>
      )}
      {outcome.files.length > 0 ? (
        <>
          <p>{mode === 'rewind' ? 'These files are put back as they were before the message:' : 'These files are put back as they were before the turn:'}</p>
          <ul className="restore-files" aria-label="Files to put back">
            {outcome.files.map((file) => (
              <li key={file.path}>
                <code title={file.path}>{shortPath(file.path, workspace)}</code>
                {file.to.kind === 'absent' && <span className="muted"> (removed: it did not exist)</span>}
                {file.conflict && <span className="badge warn">changed since</span>}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>No files to put back.</p>
      )}
      {conflicts.length > 0 && (
        <div className="restore-conflicts" role="group" aria-label="Changed since">
          <p className="form-warning">
            {conflicts.length === 1 ? 'This file was' : 'These files were'} changed after the turn (by you or a later turn). Those changes are
            lost if you go on:
          </p>
          {conflicts.map((file) => {
            const before = diffable(file.expected)
            const after = diffable(file.current)
            return before !== null && after !== null ? (
              <FileDiff key={file.path} filePath={file.path} before={before} after={after} label={`Changed since: ${file.path}`} />
            ) : (
              <p key={file.path} className="muted">
                <code>{file.path}</code>: {noDiffReason(file.expected, file.current) ?? 'changed'}
              </p>
            )
          })}
        </div>
      )}
      {outcome.skipped.length > 0 && (
        <ul className="restore-skipped" aria-label="Not put back">
          {outcome.skipped.map((skip) => (
            <li key={skip.path}>
              <code title={skip.path}>{shortPath(skip.path, workspace)}</code> is not put back: {skip.reason}.
            </li>
          ))}
        </ul>
      )}
    </ConfirmDialog>
  )
}
