// How wide, in character cells, the rows of a session's subagents are where they are shown: a
// running subagent's card holds a hidden, zero-height probe laid out as its row is (the row's
// class, in the row's place); its width divided by the width of a run of cells of the rows' own
// monospace font inside it is the row's width in cells, which the card tells the host
// (`subagents/status-columns`), which gives it to a plugin's `subagentStatusLine` command as
// `columns`. Measured again on every resize, debounced, and sent only when it changed and until
// the host took it (a session not running yet takes nothing).
import { useEffect, type RefObject } from 'react'
import type { HostApi } from '../../src-shared/contract/ipc'

/** A resize burst (a window dragged) is one message. */
const DEBOUNCE_MS = 200
/** Cells in the probe: a longer run averages out sub-pixel rounding. */
export const PROBE_CELLS = 20

const taken = new Map<string, number>()
const pending = new Map<string, ReturnType<typeof setTimeout>>()

/** Whole cells of `cellWidth` in `width` (at least one); a hair under a whole cell counts as one. */
export function cellsIn(width: number, cellWidth: number): number {
  return Math.max(1, Math.floor(width / cellWidth + 1e-3))
}

function measure(row: HTMLElement, cells: HTMLElement): number | undefined {
  const style = getComputedStyle(row)
  const width = row.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0')
  const cell = cells.getBoundingClientRect().width / PROBE_CELLS
  if (!(width > 0) || !(cell > 0)) return undefined // not laid out (hidden, or no layout engine)
  return cellsIn(width, cell)
}

function tell(host: HostApi, sessionId: string, columns: number): void {
  const timer = pending.get(sessionId)
  if (timer !== undefined) clearTimeout(timer)
  pending.set(
    sessionId,
    setTimeout(() => {
      pending.delete(sessionId)
      if (taken.get(sessionId) === columns) return
      host.invoke('subagents/status-columns', { sessionId, columns }).then(
        ({ applied }) => {
          if (applied) taken.set(sessionId, columns)
        },
        () => undefined // an extra: the command keeps the width it had
      )
    }, DEBOUNCE_MS)
  )
}

/** While `active`, measures `box` (the probe row, with the run of `probe` cells inside it) and tells the host the session's width. */
export function useStatusColumns(host: HostApi, sessionId: string | null, active: boolean, box: RefObject<HTMLElement | null>, probe: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const boxEl = box.current
    const probeEl = probe.current
    if (!active || sessionId === null || boxEl === null || probeEl === null) return
    const update = () => {
      const columns = measure(boxEl, probeEl)
      if (columns !== undefined) tell(host, sessionId, columns)
    }
    update()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(update)
    observer.observe(boxEl)
    return () => observer.disconnect()
  }, [host, sessionId, active, box, probe])
}

export const statusColumnsActions = {
  reset(): void {
    for (const timer of pending.values()) clearTimeout(timer)
    pending.clear()
    taken.clear()
  }
}
