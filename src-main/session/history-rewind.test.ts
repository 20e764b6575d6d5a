// A `rewind` takes the rewound span out of the model history (issue 17, "Reviewing changes": the
// conversation rewound to an earlier message); the log keeps it.
import { describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { SessionEvent } from '../../src-shared/session/events'
import { deriveModelMessages, IncrementalHistory, liveEvents, rewoundSeqs } from './history'

function logOf(inputs: SessionEventInput[]): SessionEvent[] {
  const header: SessionEvent = { type: 'session/header', seq: 1, ts: 0, sessionId: 's', version: 1, workspace: '/w', createdAt: 0 }
  return [header, ...inputs.map((input, i) => ({ ...input, seq: i + 2, ts: i + 1 }) as SessionEvent)]
}

const turn = (id: string, prompt: string, answer: string): SessionEventInput[] => [
  { type: 'turn/start', turnId: id },
  { type: 'user/message', turnId: id, content: prompt, source: 'user' },
  { type: 'assistant/message', turnId: id, step: 0, text: answer, toolCalls: [] },
  { type: 'turn/end', turnId: id, reason: 'completed' }
]
const rewind = (toSeq: number, turnId: string, prompt: string): SessionEventInput => ({ type: 'rewind', toSeq, turnId, prompt, files: [] })

describe('rewind in the model history', () => {
  // seq: 2-5 turn 1 (message 3), 6-9 turn 2 (message 7), 10-13 turn 3 (message 11)
  const base = [...turn('t1', 'one', 'A1'), ...turn('t2', 'two', 'A2'), ...turn('t3', 'three', 'A3')]

  it('drops the message rewound to and everything after it, up to the rewind', () => {
    const events = logOf([...base, rewind(7, 't2', 'two'), ...turn('t4', 'four', 'A4')])
    expect(deriveModelMessages(events)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', text: 'A1', toolCalls: [] },
      { role: 'user', content: 'four' },
      { role: 'assistant', text: 'A4', toolCalls: [] }
    ])
    expect([...rewoundSeqs(events)].sort((a, b) => a - b)).toEqual([7, 8, 9, 10, 11, 12, 13])
  })

  it('a later rewind to an earlier message also drops an earlier rewind and what followed it', () => {
    // rewind to message 7 at seq 14; turn 4 at 15-18 (message 16); rewind to message 3 at 19.
    const events = logOf([...base, rewind(7, 't2', 'two'), ...turn('t4', 'four', 'A4'), rewind(3, 't1', 'one'), ...turn('t5', 'five', 'A5')])
    expect(deriveModelMessages(events)).toEqual([
      { role: 'user', content: 'five' },
      { role: 'assistant', text: 'A5', toolCalls: [] }
    ])
  })

  it('two rewinds of separate spans each drop their own span', () => {
    // rewind to 11 at seq 14; turn 4 at 15-18 (message 16); rewind to 16 at 19.
    const events = logOf([...base, rewind(11, 't3', 'three'), ...turn('t4', 'four', 'A4'), rewind(16, 't4', 'four')])
    expect(deriveModelMessages(events).map((m) => (m.role === 'user' ? m.content : m.role === 'assistant' ? m.text : ''))).toEqual(['one', 'A1', 'two', 'A2'])
  })

  it('a compaction inside the rewound span is undone with it; the model/context in force stays', () => {
    const events = logOf([
      { type: 'model/context', system: 'S1', tools: [] },
      ...turn('t1', 'one', 'A1'),
      { type: 'turn/start', turnId: 't2' },
      { type: 'user/message', turnId: 't2', content: 'two', source: 'user' },
      { type: 'compaction', trigger: 'manual', summary: 'sum', fromSeq: 2, toSeq: 8, replacedMessages: 2 },
      { type: 'model/context', system: 'S2', tools: [] },
      { type: 'turn/end', turnId: 't2', reason: 'completed' },
      rewind(8, 't2', 'two')
    ])
    const history = new IncrementalHistory().sync(events)
    expect(history.messages()).toEqual([{ role: 'user', content: 'one' }, { role: 'assistant', text: 'A1', toolCalls: [] }])
    expect(history.context?.system).toBe('S2')
  })

  it('the incremental history fed one event at a time answers what a fresh derivation does at every point', () => {
    const events = logOf([...base, rewind(7, 't2', 'two'), ...turn('t4', 'four', 'A4'), rewind(3, 't1', 'one'), ...turn('t5', 'five', 'A5')])
    const incremental = new IncrementalHistory()
    for (let i = 0; i < events.length; i++) {
      incremental.add(events[i])
      expect(incremental.messages()).toEqual(deriveModelMessages(events.slice(0, i + 1)))
    }
  })

  it('a log without a rewind is its own live list (no copy)', () => {
    const events = logOf(base)
    expect(liveEvents(events)).toBe(events)
  })
})
