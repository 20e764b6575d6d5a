// After a turn that changed files: each file with its diff (before the turn -> as the turn left
// it), whether it changed since or was reverted, and Revert for one file or the whole turn. The
// contents come from the session's checkpoints (checkpoints/changes), so this works for any turn
// of any session, after a restart too. A revert where a file changed since asks first.
import { memo, useCallback, useEffect, useMemo, useState } from 'react'
import type { RestoreOutcome, TurnFileChange } from '../../src-shared/contract/checkpoints'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { diffable, lineCounts, noDiffReason, shortPath } from './file-text'
import { RestoreDialog } from './RestoreDialog'
import { isRewound } from './build-transcript'
import { useSessionStore } from './session-store'
import { FileDiff } from './ToolDiff'
import type { ChangesItem } from './transcript-types'

export const ChangesCard = memo(function ChangesCard({ item }: { item: ChangesItem }) {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const running = useSessionStore((state) => state.agent?.running ?? false)
  // A turn a rewind took out of the conversation offers no Revert: the rewind already put its files back.
  const rewound = useSessionStore((state) => isRewound(state.transcript, item.seq))
  const workspace = useSessionStore((state) => (state.events[0]?.type === 'session/header' ? state.events[0].workspace : undefined))
  const [files, setFiles] = useState<TurnFileChange[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [asking, setAsking] = useState<{ path?: string; outcome: RestoreOutcome } | null>(null)

  const load = useCallback(async () => {
    if (!sessionId) return
    try {
      setFiles((await host.invoke('checkpoints/changes', { sessionId, turnId: item.turnId })).files)
      setError(null)
    } catch (e) {
      setError(errorText(e))
    }
  }, [host, sessionId, item.turnId])
  useEffect(() => {
    void load()
  }, [load, item.revision])

  const revert = async (path: string | undefined, force: boolean): Promise<void> => {
    if (!sessionId) return
    const outcome = await host.invoke('checkpoints/revert', { sessionId, turnId: item.turnId, ...(path ? { path } : {}), ...(force ? { force } : {}) })
    if (outcome.status === 'conflict') setAsking({ ...(path ? { path } : {}), outcome })
    else await load()
  }
  const start = (path?: string) => {
    setError(null)
    revert(path, false).catch((e: unknown) => setError(errorText(e)))
  }

  const revertible = files?.filter((file) => file.revertible && file.status !== 'reverted') ?? []
  return (
    <section className="changes-card" aria-label="Files changed in this turn">
      <header className="changes-head">
        <span className="changes-title">Files changed</span>
        <span className="muted">{item.paths.length === 1 ? '1 file' : `${item.paths.length} files`}</span>
        {rewound ? (
          <span className="badge" title="A rewind took this turn out of the conversation and put its files back">rewound</span>
        ) : (
          <button type="button" disabled={running || revertible.length === 0} onClick={() => start()}>
            Revert turn
          </button>
        )}
      </header>
      {error && <p className="form-error" role="alert">{error}</p>}
      {files === null && !error && <p className="muted small">Loading the changes…</p>}
      {files !== null && (
        <ul className="changes-files">
          {files.map((file) => (
            <ChangedFile key={file.path} file={file} workspace={workspace} disabled={running} rewound={rewound} onRevert={() => start(file.path)} />
          ))}
        </ul>
      )}
      {asking && (
        <RestoreDialog
          mode="revert"
          outcome={asking.outcome}
          workspace={workspace}
          onConfirm={() => revert(asking.path, true)}
          onClose={() => setAsking(null)}
        />
      )}
    </section>
  )
})

const STATUS_TEXT: Record<TurnFileChange['status'], string | null> = { current: null, reverted: 'reverted', changed: 'changed since' }

function ChangedFile({ file, workspace, disabled, rewound, onRevert }: { file: TurnFileChange; workspace?: string; disabled: boolean; rewound: boolean; onRevert: () => void }) {
  const before = diffable(file.before)
  const after = diffable(file.after)
  const counts = useMemo(() => (before !== null && after !== null ? lineCounts(before, after) : null), [before, after])
  const name = shortPath(file.path, workspace)
  // In a rewound turn a file no longer as the turn left it was put back (by the rewind, or a revert before it).
  const status = rewound ? (file.status === 'current' ? 'not restored' : 'reverted') : STATUS_TEXT[file.status]
  return (
    <li className="changes-file" aria-label={`Changed file ${name}`}>
      <details>
        <summary>
          <code title={file.path}>{name}</code>
          {file.before.kind === 'absent' && <span className="badge">new</span>}
          {file.after.kind === 'absent' && <span className="badge">deleted</span>}
          {counts && (
            <span className="changes-counts">
              <span className="diff-count add">+{counts.added}</span> <span className="diff-count del">−{counts.removed}</span>
            </span>
          )}
          {status && <span className={`badge ${!rewound && file.status === 'changed' ? 'warn' : ''}`}>{status}</span>}
        </summary>
        {before !== null && after !== null ? (
          <FileDiff filePath={file.path} before={before} after={after} label={`Changes to ${name}`} />
        ) : (
          <p className="muted small">{noDiffReason(file.before, file.after)}</p>
        )}
      </details>
      {rewound ? null : file.revertible ? (
        <button type="button" aria-label={`Revert ${name}`} disabled={disabled || file.status === 'reverted'} onClick={onRevert}>
          Revert
        </button>
      ) : (
        <span className="muted small" role="note">{file.reason}</span>
      )}
    </li>
  )
}
