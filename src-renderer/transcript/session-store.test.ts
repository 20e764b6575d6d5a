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
    const opened = { id: 's1', events: log.all, state: idle, warnings: [] }
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
    const opened = { id: 's1', events: log.all.slice(), state: idle, warnings: [] }
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
    const opened = { id: 's1', events: sampleLog().all, state: idle, warnings: [] }
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
