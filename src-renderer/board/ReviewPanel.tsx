// Review and land one worktree session: its diff against the base (the approvals' diff viewer),
// a commit with a generated message the user edits, merge into the base (fast-forward, merge or
// squash) with conflicts listed, a pull request through gh, and Discard after a confirmation.
import { useCallback, useEffect, useState } from 'react'
import type { BoardRow } from '../../src-shared/contract/worktrees'
import type { WorktreeDiff } from '../../src-shared/host/worktrees'
import { useHost } from '../app/host-context'
import { ConfirmDialog } from '../app/ConfirmDialog'
import { errorText } from '../app/errors'
import { PatchDiff } from '../transcript/ToolDiff'

type Mode = 'fast-forward' | 'merge' | 'squash'

export function ReviewPanel({ row, onChanged, onClose }: { row: BoardRow; onChanged: () => Promise<void> | void; onClose: () => void }) {
  const host = useHost()
  const worktree = row.worktree!
  const [diff, setDiff] = useState<WorktreeDiff | null>(null)
  const [message, setMessage] = useState('')
  const [mode, setMode] = useState<Mode>('merge')
  const [outcome, setOutcome] = useState<{ error: boolean; text: string; conflicts?: string[] } | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirmDiscard, setConfirmDiscard] = useState(false)

  const load = useCallback(async () => {
    try {
      const next = await host.invoke('worktrees/diff', { sessionId: row.id })
      setDiff(next)
      if (next.uncommitted) setMessage((await host.invoke('worktrees/commit-message', { sessionId: row.id })).message)
    } catch (e) {
      setOutcome({ error: true, text: errorText(e) })
    }
  }, [host, row.id])

  useEffect(() => {
    void load()
  }, [load])

  const act = async (run: () => Promise<{ error: boolean; text: string; conflicts?: string[] }>) => {
    setBusy(true)
    setOutcome(null)
    try {
      setOutcome(await run())
    } catch (e) {
      setOutcome({ error: true, text: errorText(e) })
    } finally {
      // The buttons come back once the diff and the board show the new state: the commit form
      // leaving (or the board's rows changing) never moves a button under the next click.
      await load()
      await onChanged()
      setBusy(false)
    }
  }

  const commit = () => act(async () => ({ error: false, text: `Committed ${(await host.invoke('worktrees/commit', { sessionId: row.id, message })).commit.slice(0, 12)}.` }))
  const merge = () =>
    act(async () => {
      const result = await host.invoke('worktrees/merge', { sessionId: row.id, mode })
      return result.merged ? { error: false, text: `Merged ${worktree.branch} into ${worktree.base} (${result.mode}): ${result.commit.slice(0, 12)}.` } : { error: true, text: result.reason, conflicts: result.conflicts }
    })
  const pullRequest = () =>
    act(async () => {
      const [title = `Seam session ${worktree.name}`, ...body] = (message || `Seam session ${worktree.name}`).split('\n')
      return { error: false, text: `Pull request: ${(await host.invoke('worktrees/pull-request', { sessionId: row.id, title, body: body.join('\n').trim() })).url}` }
    })

  return (
    <section className="review-panel" aria-label={`Review ${worktree.branch || worktree.path}`}>
      <div className="review-head">
        <h3>
          Review <code>{worktree.branch || worktree.path}</code> against <code>{worktree.base || 'its base'}</code>
        </h3>
        <button type="button" onClick={onClose}>Close review</button>
      </div>
      {diff === null ? (
        <p className="muted">Reading the diff…</p>
      ) : (
        <>
          <p className="muted small" role="status" aria-label="Diff summary">
            {diff.files.length} file{diff.files.length === 1 ? '' : 's'} changed, {diff.commits} commit{diff.commits === 1 ? '' : 's'}
            {diff.uncommitted ? ', uncommitted changes' : ''}
          </p>
          <ul className="review-files" aria-label="Changed files">
            {diff.files.map((file) => (
              <li key={file.path} aria-label={`Changed file ${file.path}`}>
                <details open={diff.files.length <= 5}>
                  <summary>
                    <span className="review-status">{file.status}</span> <code>{file.path}</code> <span className="diff-add">+{file.additions}</span> <span className="diff-del">-{file.deletions}</span>
                  </summary>
                  <PatchDiff filePath={file.path} patch={file.patch} />
                </details>
              </li>
            ))}
          </ul>
          {diff.uncommitted && (
            <div className="review-commit">
              <label>
                Commit message
                <textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={4} />
              </label>
              <button type="button" className="primary" disabled={busy || message.trim() === ''} onClick={() => void commit()}>Commit</button>
            </div>
          )}
          <div className="review-land">
            <label>
              Merge as
              <select value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
                <option value="fast-forward">fast-forward</option>
                <option value="merge">merge commit</option>
                <option value="squash">squash</option>
              </select>
            </label>
            <button type="button" disabled={busy || !worktree.branch} onClick={() => void merge()}>Merge into {worktree.base || 'base'}</button>
            <button type="button" disabled={busy || !worktree.branch} onClick={() => void pullRequest()}>Open pull request</button>
            <button type="button" className="danger" disabled={busy} onClick={() => setConfirmDiscard(true)}>Discard</button>
          </div>
        </>
      )}
      {outcome && (
        <div className={outcome.error ? 'form-error' : 'muted small'} role={outcome.error ? 'alert' : 'status'} aria-label="Review outcome">
          <p>{outcome.text}</p>
          {outcome.conflicts && outcome.conflicts.length > 0 && (
            <ul aria-label="Conflicting files">
              {outcome.conflicts.map((file) => <li key={file}><code>{file}</code></li>)}
            </ul>
          )}
        </div>
      )}
      {confirmDiscard && (
        <ConfirmDialog
          label="Discard this worktree?"
          confirm="Discard"
          danger
          onClose={() => setConfirmDiscard(false)}
          onConfirm={async () => {
            await host.invoke('worktrees/discard', { sessionId: row.id, confirmed: true })
            await onChanged()
            onClose()
          }}
        >
          <p>
            This removes <code>{worktree.path}</code>
            {worktree.branch ? <> and the branch <code>{worktree.branch}</code></> : null}.
            {diff?.uncommitted ? ' Its uncommitted changes are lost.' : ''}
            {diff && diff.commits > 0 ? ` ${diff.commits} commit(s) not merged are lost.` : ''}
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
