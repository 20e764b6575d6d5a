import { beforeEach, describe, expect, it } from 'vitest'
import { eventLog } from '../test/events'
import { resetStores } from '../test/reset-stores'
import { buildTranscript } from './build-transcript'
import { sessionActions, useSessionStore } from './session-store'

const idle = { sessionId: 's1', running: false, queued: 0, steering: 0 }

function sampleLog() {
  const log = eventLog()
  log.add({ type: 'turn/start', turnId: 't1' })
  log.add({ type: 'user/message', turnId: 't1', content: 'hello', source: 'user' })
  log.add({ type: 'assistant/message', turnId: 't1', step: 0, text: 'Hi **there**.', toolCalls: [], stopReason: 'end_turn' })
  return log
}

beforeEach(resetStores)

describe('opening a session in steps (issue 17: no main-thread task over 200 ms opening a 10k-event session)', () => {
  it('does not show the session in the task its reply arrived in, then shows what loaded() shows', async () => {
    const log = sampleLog()
    const opened = { id: 's1', events: log.all, state: idle, warnings: [], total: 3, nextSeq: null }
    sessionActions.begin('s1')
    const done = sessionActions.loadedInSteps(opened)
    await Promise.resolve()
    expect(useSessionStore.getState().loading).toBe(true)
    await done
    const stepped = useSessionStore.getState()
    expect(stepped.loading).toBe(false)

    resetStores()
    sessionActions.begin('s1')
    sessionActions.loaded(opened)
    const direct = useSessionStore.getState()
    expect(stepped.transcript.items).toEqual(direct.transcript.items)
    expect(stepped.events).toEqual(direct.events)
  })

  it('includes events pushed while the transcript was being built, each once', async () => {
    const log = sampleLog()
    const opened = { id: 's1', events: log.all.slice(), state: idle, warnings: [], total: 3, nextSeq: null }
    sessionActions.begin('s1')
    const done = sessionActions.loadedInSteps(opened)
    const end = log.add({ type: 'turn/end', turnId: 't1', reason: 'completed', steps: 1 })
    sessionActions.appendEvent('s1', log.all[2]) // already in the reply: dropped by seq
    sessionActions.appendEvent('s1', end)
    await done
    const state = useSessionStore.getState()
    expect(state.events.map((e) => e.seq)).toEqual(log.all.map((e) => e.seq))
    expect(state.transcript.items).toEqual(buildTranscript(log.all).items)
  })

  it('shows nothing when another session was opened before the steps finished', async () => {
    const opened = { id: 's1', events: sampleLog().all, state: idle, warnings: [], total: 3, nextSeq: null }
    sessionActions.begin('s1')
    const done = sessionActions.loadedInSteps(opened)
    sessionActions.begin('s2')
    await done
    const state = useSessionStore.getState()
    expect(state.sessionId).toBe('s2')
    expect(state.loading).toBe(true)
    expect(state.transcript.items).toEqual([])
  })
})

/** A log of `turns` completed turns, and a sessions/events stand-in serving it `size` events a page. */
function pagedLog(turns: number, size: number) {
  const log = eventLog()
  for (let t = 1; t <= turns; t++) {
    log.add({ type: 'turn/start', turnId: `t${t}` })
    log.add({ type: 'user/message', turnId: `t${t}`, content: `question ${t}`, source: 'user' })
    log.add({ type: 'assistant/message', turnId: `t${t}`, step: 0, text: `answer ${t}`, toolCalls: [], stopReason: 'end_turn' })
    log.add({ type: 'turn/end', turnId: `t${t}`, reason: 'completed', steps: 1 })
  }
  const asked: number[] = []
  const page = (fromSeq: number) => {
    const events = log.all.filter((e) => e.seq >= fromSeq).slice(0, size)
    const last = events.length ? events[events.length - 1].seq : fromSeq - 1
    return { events, nextSeq: last < log.all.length ? last + 1 : null }
  }
  const first = page(1)
  const opened = { id: 's1', events: first.events, total: log.all.length, nextSeq: first.nextSeq, state: idle, warnings: [] }
  const nextPage = async (fromSeq: number) => {
    asked.push(fromSeq)
    return page(fromSeq)
  }
  return { log, opened, nextPage, asked }
}

describe('opening a session in pages (issue 17: sessions/open sends the log in pages, one message and task each)', () => {
  it('asks for each page from where the last ended and shows the pages in order, as loaded() shows the whole log', async () => {
    const { log, opened, nextPage, asked } = pagedLog(5, 3)
    sessionActions.begin('s1')
    await sessionActions.loadedInSteps(opened, nextPage)
    expect(asked).toEqual([4, 7, 10, 13, 16, 19])
    const paged = useSessionStore.getState()
    expect(paged.loading).toBe(false)
    expect(paged.events.map((e) => e.seq)).toEqual(log.all.map((e) => e.seq))

    resetStores()
    sessionActions.begin('s1')
    sessionActions.loaded({ ...opened, events: log.all })
    expect(paged.transcript.items).toEqual(useSessionStore.getState().transcript.items)
  })

  it('stays loading until the last page arrived', async () => {
    const { opened, nextPage } = pagedLog(3, 4)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    sessionActions.begin('s1')
    const done = sessionActions.loadedInSteps(opened, async (fromSeq) => {
      if (fromSeq > 8) await held
      return nextPage(fromSeq)
    })
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    expect(useSessionStore.getState().loading).toBe(true)
    expect(useSessionStore.getState().events).toEqual([])
    release()
    await done
    expect(useSessionStore.getState().events).toHaveLength(12)
  })

  it('applies events pushed while paging once each: pushes a later page repeats and pushes past the last page', async () => {
    const { log, opened, nextPage } = pagedLog(4, 5)
    sessionActions.begin('s1')
    const done = sessionActions.loadedInSteps(opened, async (fromSeq) => {
      // A push of an event the page still to come holds, as the host's push can overtake that page.
      sessionActions.appendEvent('s1', log.all[fromSeq - 1])
      return nextPage(fromSeq)
    })
    const pushed = log.add({ type: 'turn/start', turnId: 't5' })
    sessionActions.appendEvent('s1', pushed)
    sessionActions.appendEvent('s1', log.all[0])
    await done
    const state = useSessionStore.getState()
    expect(state.events.map((e) => e.seq)).toEqual(log.all.map((e) => e.seq))
    expect(state.transcript.items).toEqual(buildTranscript(log.all).items)
  })

  it('shows nothing stale when another session, or the same one again, was opened mid-load', async () => {
    const { opened, nextPage } = pagedLog(4, 3)
    sessionActions.begin('s1')
    const first = sessionActions.loadedInSteps(opened, async (fromSeq) => {
      if (fromSeq === 7) sessionActions.begin('s2')
      return nextPage(fromSeq)
    })
    await first
    expect(useSessionStore.getState()).toMatchObject({ sessionId: 's2', loading: true, events: [] })

    sessionActions.begin('s1')
    let reopened = false
    const stale = sessionActions.loadedInSteps(opened, async (fromSeq) => {
      if (!reopened) {
        reopened = true
        sessionActions.begin('s1')
      }
      return nextPage(fromSeq)
    })
    await stale
    expect(useSessionStore.getState()).toMatchObject({ sessionId: 's1', loading: true, events: [] })
  })
})

describe('a page that fails (issue 17: opening in pages)', () => {
  it('fails the load with the page error while current, and is swallowed once the view moved on', async () => {
    const { opened } = pagedLog(3, 4)
    sessionActions.begin('s1')
    await expect(sessionActions.loadedInSteps(opened, async () => { throw new Error('session deleted') })).rejects.toThrow('session deleted')

    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    sessionActions.begin('s1')
    const done = sessionActions.loadedInSteps(opened, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      throw new Error('late failure')
    })
    sessionActions.begin('s2')
    await done
    await new Promise((resolve) => setTimeout(resolve, 20))
    process.off('unhandledRejection', onUnhandled)
    expect(unhandled).toEqual([])
    expect(useSessionStore.getState()).toMatchObject({ sessionId: 's2', loading: true, error: null })
  })
})
