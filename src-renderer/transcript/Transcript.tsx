// The session's transcript, virtualized: only the rows in view (plus a few) are in the DOM and
// each row's height is measured, so a 10k-event session opens and scrolls smoothly. Follows the
// bottom while new output arrives unless the user has scrolled up; sending follows it again.
// Opened from a search result, it scrolls to the matching event instead and marks it.
import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { nextTask } from '../app/next-task'
import { isRewound } from './build-transcript'
import { markWords, rowIndexForSeq } from './search-hit'
import { useSessionStore } from './session-store'
import { estimateRowHeight, TranscriptRow, type TranscriptRowItem } from './TranscriptRow'
import { EmptyState } from '../app/EmptyState'
import { MessageSquarePlus } from '../app/icons'

const STICK_PX = 48
const OVERSCAN = 6

export function Transcript() {
  const items = useSessionStore((state) => state.transcript.items)
  const live = useSessionStore((state) => state.transcript.live)
  const rewound = useSessionStore((state) => state.transcript.rewound)
  const queued = useSessionStore((state) => state.queued)
  const count = items.length + (live ? 1 : 0) + queued.length

  const rowAt = useCallback(
    (i: number): TranscriptRowItem => {
      if (i < items.length) return items[i]
      if (live && i === items.length) return live
      const q = queued[i - items.length - (live ? 1 : 0)]
      return { kind: 'queued', key: `q:${q.id}`, queued: q }
    },
    [items, live, queued]
  )

  const scroller = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const [atBottom, setAtBottom] = useState(true)
  const focus = useSessionStore((state) => state.focus)
  // Read once: window.innerHeight can force a layout, and this component renders every streamed frame.
  const [initialRect] = useState(() => ({ width: 0, height: viewportHeight() }))
  // The first render lays out only the rows in view; the rows kept beyond them for smooth scrolling
  // (overscan) follow a task later, so opening a session's longest task holds the visible rows only.
  const [overscan, setOverscan] = useState(0)
  useEffect(() => {
    let mounted = true
    void nextTask().then(() => mounted && setOverscan(OVERSCAN))
    return () => {
      mounted = false
    }
  }, [])
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => estimateRowHeight(i < count ? rowAt(i) : undefined),
    getItemKey: (i) => (i < count ? rowAt(i).key : i),
    overscan,
    // A session opens at its bottom (unless a search hit is to be shown): starting there, the first
    // render lays out the last rows only, instead of the first ones and then, after the scroll to
    // the bottom, the last ones (for a long session that render is the longest task of the open).
    initialRect,
    initialOffset: () => (focus ? 0 : Math.max(0, estimatedHeight(count, rowAt) - viewportHeight()))
  })

  // Sending is a request to see the answer: a new queued message follows the bottom again, even
  // when the user had scrolled up to read.
  const queuedCount = useRef(queued.length)
  if (queued.length > queuedCount.current) stick.current = true
  queuedCount.current = queued.length
  useLayoutEffect(() => {
    if (stick.current && !atBottom) setAtBottom(true)
  }, [queued.length, atBottom])

  const total = virtualizer.getTotalSize()
  // Following the bottom: from a ResizeObserver on the content and on the scroller, whose callbacks
  // come after the frame's layout, so reading scrollHeight there costs no layout of its own (a layout
  // effect reading it forced one synchronous layout in every streamed frame's React commit).
  const inner = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = scroller.current
    const content = inner.current
    if (!el || !content || typeof ResizeObserver !== 'function') return
    const follow = new ResizeObserver(() => {
      if (stick.current && el.scrollHeight > el.clientHeight) el.scrollTop = el.scrollHeight
    })
    follow.observe(content)
    follow.observe(el)
    return () => follow.disconnect()
  }, [])

  // A search match to show: once the log is loaded, scroll its row to the middle and mark it.
  const loading = useSessionStore((state) => state.loading)
  const sessionId = useSessionStore((state) => state.sessionId)
  const [hit, setHit] = useState<{ sessionId: string | null; key: string; words: readonly string[] } | null>(null)
  const focused = useRef<typeof focus>(null)
  useLayoutEffect(() => {
    if (!focus || loading || focused.current === focus) return
    const index = rowIndexForSeq(items, focus.seq)
    if (index < 0) return
    focused.current = focus
    stick.current = false
    setAtBottom(false)
    setHit({ sessionId, key: items[index].key, words: focus.words })
    virtualizer.scrollToIndex(index, { align: 'center' })
  }, [focus, loading, items, sessionId, virtualizer])
  const hitKey = hit && hit.sessionId === sessionId ? hit.key : null
  useEffect(() => {
    markWords(scroller.current, hitKey ? (hit?.words ?? []) : [])
  })

  // Only the user scrolling up stops the following: content that grew between the follow's scroll
  // and its scroll event (a row measured, a streamed frame) leaves the view short of the bottom
  // without anyone having scrolled away.
  const lastTop = useRef(0)
  const onScroll = () => {
    const el = scroller.current
    if (!el) return
    const top = el.scrollTop
    if (el.scrollHeight - top - el.clientHeight < STICK_PX) stick.current = true
    else if (top < lastTop.current) stick.current = false
    lastTop.current = top
    if (stick.current !== atBottom) setAtBottom(stick.current)
  }

  const jump = () => {
    stick.current = true
    setAtBottom(true)
    virtualizer.scrollToIndex(count - 1, { align: 'end' })
  }

  return (
    <div className="transcript-wrap">
      <div ref={scroller} className="transcript" role="log" aria-label="Transcript" onScroll={onScroll}>
        {count === 0 && (
          <EmptyState icon={MessageSquarePlus} title="Nothing here yet.">
            Write a message below to start: type <kbd>@</kbd> to attach a file, <kbd>/</kbd> for commands, Shift+Tab to change the approval mode.
          </EmptyState>
        )}
        <div ref={inner} className="transcript-inner" style={{ height: total }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rowAt(v.index)
            // Rows a rewind took out of the conversation stay, greyed out (the rewind row says why).
            const out = 'seq' in row && isRewound({ rewound }, row.seq)
            const hit = hitKey !== null && v.key === hitKey
            const className = ['transcript-row', out ? 'rewound' : '', hit ? 'search-hit' : ''].filter(Boolean).join(' ')
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className={className}
                data-rewound={out ? 'true' : undefined}
                data-search-hit={hit ? 'true' : undefined}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <TranscriptRow row={row} />
              </div>
            )
          })}
        </div>
      </div>
      {!atBottom && (
        <button type="button" className="jump-latest" onClick={jump}>Jump to latest</button>
      )}
    </div>
  )
}

/** The window's height: the transcript is never taller, so rendering that much from the bottom fills it. */
function viewportHeight(): number {
  return typeof window === 'undefined' ? 0 : window.innerHeight
}

/** The rows' estimated total height (what the virtualizer starts from before measuring them). */
function estimatedHeight(count: number, rowAt: (i: number) => TranscriptRowItem): number {
  let total = 0
  for (let i = 0; i < count; i++) total += estimateRowHeight(rowAt(i))
  return total
}
