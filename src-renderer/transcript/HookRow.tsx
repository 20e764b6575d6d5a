// A compact line per hook invocation; clicking opens the hook inspector at it.
import { memo } from 'react'
import { appActions } from '../app/app-store'
import { formatDuration } from './format'
import type { HookItem } from './transcript-types'

export const HookRow = memo(function HookRow({ item }: { item: HookItem }) {
  const r = item.result
  const outcome = !r ? (item.statusMessage ?? 'running…') : r.failureKind ? `failed (${r.failureKind})` : r.outcomeKind === 'block' ? 'blocked' : r.decision ?? r.outcomeKind
  const tone = !r ? 'running' : r.failureKind || r.outcomeKind === 'error' ? 'error' : r.outcomeKind === 'block' || r.decision === 'deny' ? 'block' : 'ok'
  return (
    <button type="button" className={`hook-row ${tone}`} onClick={() => appActions.openInspector(item.invocationId)}>
      {/* The visible text is the accessible name ("Hook source:event command outcome time"). */}
      <span className="hook-tag">Hook</span>{' '}
      <span className="hook-event">{item.source}:{item.event}</span>{' '}
      {item.command && <><code className="hook-command">{item.command}</code>{' '}</>}
      <span className="hook-outcome">{outcome}</span>
      {r && <>{' '}<span className="muted">{formatDuration(r.durationMs)}</span></>}
    </button>
  )
})
