// The loop's three events per step are copied and serialised by hand-written code
// (own-entries.ts): each entry must be what `append` records (zod's output) and its line
// JSON.stringify of it, byte for byte; any other shape must take the generic walk.
import { describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import { checkSessionEvent } from './event-check'
import { eventCopy, eventEntry, NOT_PLAIN, type EventEntry } from './event-copy'
import { ownEventEntry } from './own-entries'

const TRICKY = 'say "hi"\\ \u0000\u001f\n é 😀 x\ud800'

const HOT: SessionEventInput[] = [
  { type: 'assistant/message', turnId: 't1', step: 0, text: '', toolCalls: [{ id: 'c1', name: 'Noop', args: Object.freeze({}) }], stopReason: 'tool_use' },
  { type: 'assistant/message', turnId: 't1', step: 3, text: TRICKY, thinking: 'hm', toolCalls: [], partial: true },
  {
    type: 'assistant/message',
    turnId: 't"1',
    step: 12,
    text: 'x'.repeat(200),
    toolCalls: [
      { id: 'c1', name: 'Read', args: { file_path: TRICKY, nested: { list: [1, 2.5, -3e-7, null, true, 'x'] } } },
      { id: 'c2', name: 'Bash', args: {}, argsError: 'Unexpected token } in JSON' }
    ],
    stopReason: 'end_turn'
  },
  { type: 'tool/call', turnId: 't1', callId: 'c1', token: 'call_x', name: 'Noop', args: Object.freeze({}) },
  { type: 'tool/call', turnId: 't1', callId: 'c1', token: 'call_x', name: 'Read', args: { file_path: 'a', '10': 1, '2': 2 }, originalArgs: { file_path: 'b' }, rewrittenBy: 'p', parent: 'call_p' },
  { type: 'tool/result', turnId: 't1', callId: 'c1', token: 'call_x', name: 'Noop', content: 'ok', isError: false, verdict: Object.freeze({ outcome: 'allowed', stage: 'pre-execute' }), durationMs: 0.09014100000058534 },
  {
    type: 'tool/result',
    turnId: 't1',
    callId: 'c1',
    token: 'call_x',
    name: 'Bash',
    content: `${TRICKY}${'y'.repeat(100)}`,
    isError: true,
    code: 'DENIED',
    structured: { a: [{ b: 1 }], s: TRICKY },
    // Undefined optional fields, as the pipeline's verdicts have them: left out, as JSON does.
    verdict: Object.freeze({ outcome: 'denied', stage: 'approval', approval: 'denied', reason: 'no', by: undefined }),
    durationMs: 1796372367094
  }
] as SessionEventInput[]

function appendRecords(input: SessionEventInput, seq: number, ts: number): unknown {
  const check = checkSessionEvent({ ...input, seq, ts })
  if (!check.ok) throw new Error(`${check.field}: ${check.message}`)
  // append records the copy of zod's output (undefined optional keys left out, as JSON does).
  return eventCopy(check.event, seq, ts)
}

function own(input: SessionEventInput, seq: number, ts: number): EventEntry {
  const entry = ownEventEntry(input, seq, ts)
  if (entry === NOT_PLAIN) throw new Error(`${input.type}: not plain`)
  return entry
}

describe('own entries: the loop events written by hand', () => {
  it('hold what append records and write JSON.stringify of it, byte for byte', () => {
    for (const [index, input] of HOT.entries()) {
      const entry = own(input, index + 2, 1796372367094 + index)
      expect(entry.event, input.type).toStrictEqual(appendRecords(input, index + 2, 1796372367094 + index))
      expect(entry.json, input.type).toBe(JSON.stringify(entry.event))
      expect(JSON.parse(entry.json)).toStrictEqual(entry.event)
      expect(Object.keys(entry.event).slice(0, 3)).toEqual(['type', 'seq', 'ts'])
    }
  })

  it('write the common step events as the generic walk did (the same lines in the file)', () => {
    for (const input of [HOT[0], HOT[3], HOT[5]]) {
      const generic = eventEntry(input, 5, 1234)
      expect(own(input, 5, 1234).json).toBe(generic === NOT_PLAIN ? undefined : generic.json)
    }
  })

  it('copy: later changes to the input do not reach the entry', () => {
    const args: Record<string, unknown> = { file_path: 'a', list: [1] }
    const call = { id: 'c1', name: 'Read', args }
    const input = { type: 'assistant/message', turnId: 't', step: 0, text: '', toolCalls: [call] } as SessionEventInput
    const entry = own(input, 2, 1)
    args.file_path = 'changed'
    ;(args.list as number[]).push(2)
    call.id = 'c9'
    expect(entry.event).toStrictEqual({ type: 'assistant/message', seq: 2, ts: 1, turnId: 't', step: 0, text: '', toolCalls: [{ id: 'c1', name: 'Read', args: { file_path: 'a', list: [1] } }] })
  })

  it('drop keys the schema does not have, as append (zod) does', () => {
    const input = { type: 'tool/call', turnId: 't', callId: 'c', token: 'k', name: 'T', args: {}, extra: 'kept out' } as SessionEventInput
    const entry = own(input, 2, 1)
    expect(entry.event).toStrictEqual(appendRecords(input, 2, 1))
    expect(entry.json).not.toContain('extra')
  })

  it('leave any other shape to the generic walk', () => {
    const odd: SessionEventInput[] = [
      { type: 'tool/result', turnId: 't', callId: 'c', token: 'k', name: 'T', content: 'x', isError: false, verdict: { outcome: 'allowed', stage: 'seal' }, durationMs: Number.NaN },
      { type: 'tool/result', turnId: 't', callId: 'c', token: 'k', name: 'T', content: 'x', isError: false, verdict: { outcome: 'allowed', stage: 'seal' }, durationMs: -0 },
      { type: 'tool/result', turnId: 't', callId: 'c', token: 'k', name: 'T', content: 'x', isError: false, verdict: { outcome: 'allowed', stage: 'seal', by: 3 }, durationMs: 1 },
      { type: 'tool/call', turnId: 't', callId: 'c', token: 'k', name: 'T', args: { when: new Date(0) } },
      { type: 'tool/call', turnId: 't', callId: 'c', token: 'k', name: 'T', args: [] },
      { type: 'assistant/message', turnId: 't', step: 0, text: 'x', toolCalls: [{ id: 'c', name: 'T', args: { list: [1, undefined] } }] },
      { type: 'assistant/message', turnId: undefined, step: 0, text: 'x', toolCalls: [] },
      // A validated event keeps its own key order: the generic walk does that.
      { ts: 1, type: 'tool/call', seq: 2, turnId: 't', callId: 'c', token: 'k', name: 'T', args: {} }
    ] as unknown as SessionEventInput[]
    for (const input of odd) expect(ownEventEntry(input, 2, 1)).toStrictEqual(eventEntry(input, 2, 1))
  })
})
