// The log keeps in memory exactly what a reload reads. Appending copies a plain event instead of
// re-parsing its line (event-copy.ts); these tests compare both paths over every event type, and
// over the values whose round trip differs from a copy (which must take the re-parsing path).
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import { SESSION_EVENT_TYPES, type SessionEvent } from '../../src-shared/session/events'
import { eventCopy, eventEntry, NOT_PLAIN } from './event-copy'
import { InvalidSessionEventError } from './log'
import { SessionStore } from './store'

const SHA = 'a'.repeat(64)
const FILE = { kind: 'file', sha256: SHA, size: 12 } as const
const RESTORED = [{ path: 'src/a.ts', to: FILE, replaced: { kind: 'absent' }, conflict: false }] as const

/** One event of every type but the header, with optional fields both set and left out. */
const SAMPLES: SessionEventInput[] = [
  { type: 'session/renamed', title: 'Renamed ✓' },
  { type: 'turn/start', turnId: 't1' },
  { type: 'turn/end', turnId: 't1', reason: 'error', error: 'boom', steps: 3 },
  { type: 'user/message', turnId: 't1', content: 'hi "there"\n\u2028 \ud800 lone surrogate', originalContent: '/cmd', command: { name: 'cmd', args: '', source: 'user' }, source: 'user', images: [{ mediaType: 'image/png', data: 'AAAA', name: 'a.png' }] },
  { type: 'assistant/message', turnId: 't1', step: 0, text: 'ok', thinking: 'hm', toolCalls: [{ id: 'c1', name: 'Read', args: { file_path: 'a', nested: { list: [1, 2.5, -3e-7, null, true, 'x'] } } }], stopReason: 'tool_use' },
  { type: 'tool/call', turnId: 't1', callId: 'c1', token: 'call_x', name: 'Read', args: Object.freeze({ file_path: 'a' }), originalArgs: { file_path: 'b' }, rewrittenBy: 'p', parent: 'call_p' },
  { type: 'tool/result', turnId: 't1', callId: 'c1', token: 'call_x', name: 'Read', content: 'text', isError: false, code: 'DENIED', structured: { a: [{ b: 1 }], '10': 'numeric key', '2': 'first' }, verdict: Object.freeze({ outcome: 'allowed', stage: 'pre-execute' }), durationMs: 0.25 },
  { type: 'context/message', turnId: 't1', text: 'ctx', source: 'hook:SessionStart' },
  { type: 'prompt/blocked', turnId: 't1', prompt: 'no', reason: 'policy', by: 'p' },
  { type: 'steering/message', turnId: 't1', text: 'steer', source: 'continuation', by: 'p', images: [{ mediaType: 'image/gif', data: 'R0lG' }] },
  { type: 'approval/asked', turnId: 't1', requestId: 'r1', token: 'call_x', tool: 'Bash', args: { command: 'ls' }, reason: 'ask', scope: { tool: 'Bash', pattern: { command: 'ls*' }, description: 'ls' } },
  { type: 'approval/decided', requestId: 'r1', token: 'call_x', outcome: 'allowed-session', note: 'fine', by: 'user', reason: 'r' },
  { type: 'grant/added', grantId: 'g1', scope: { tool: 'Bash', pattern: {}, description: 'any' } },
  { type: 'grant/revoked', grantId: 'g1' },
  { type: 'notice', level: 'warn', text: 'careful', source: 'agent' },
  { type: 'model/context', system: 'You are Seam.', tools: [{ name: 'Read', description: 'Reads', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } }] },
  { type: 'model/switched', provider: 'openai', model: 'gpt', from: { provider: 'anthropic', model: 'claude' } },
  { type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PreToolUse', matcher: 'Bash', command: 'true', handlerType: 'command', sourceFile: 'settings.json', input: '{}', inputTruncated: false, toolCallToken: 'call_x', statusMessage: 'checking' },
  { type: 'hook/result', invocationId: 'h1', source: 'codex', event: 'PreToolUse', exitCode: null, signal: 'SIGTERM', httpStatus: 200, durationMs: 3, decision: 'deny', outcomeKind: 'block', stdout: '', stdoutTruncated: false, stderr: 'e', stderrTruncated: true, failureKind: 'timeout', errorMessage: 'slow' },
  { type: 'instructions/loaded', turnId: 't1', files: [{ path: 'AGENTS.md', memoryType: 'Project', loadReason: 'session_start', content: '# x', parent: 'CLAUDE.md' }], removed: ['old.md'], text: 'text' },
  { type: 'usage/step', turnId: 't1', step: 0, provider: 'p', model: 'm', usage: { inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 2, outputTokens: 3, reasoningTokens: 0 }, contextWindow: 1000, costUsd: 0.001, purpose: 'step' },
  { type: 'compaction', turnId: 't1', trigger: 'auto', instructions: 'short', summary: 'sum', fromSeq: 1, toSeq: 2, replacedMessages: 2, tokensBefore: 10, tokensAfter: 2 },
  { type: 'file/checkpoint', turnId: 't1', callId: 'c1', token: 'call_x', tool: 'Write', path: 'src/a.ts', before: { kind: 'unsaved', reason: 'too big', size: 9 } },
  { type: 'file/changed', callId: 'c1', token: 'call_x', tool: 'Write', path: 'src/a.ts', after: FILE },
  { type: 'restore/journal', operation: { type: 'rewind', toSeq: 2, turnId: 't1', prompt: 'p' }, tag: '0123456789abcdef', files: [...RESTORED] },
  { type: 'revert', journalSeq: 2, scope: 'turn', turnId: 't1', files: [...RESTORED] },
  { type: 'rewind', toSeq: 2, turnId: 't1', prompt: 'p', files: [] },
  { type: 'mentions/attached', turnId: 't1', files: [{ mention: '@a', path: 'a', content: 'x' }, { mention: '@b', path: 'b', error: 'missing' }] },
  { type: 'skill/loaded', turnId: 't1', skill: 'kit:deploy', file: '/s/SKILL.md', args: 'prod', trigger: 'model', callId: 'c1', text: 'Deploy.' },
  { type: 'task/started', taskId: 'b1', command: 'npm run dev', description: 'dev server', outputPath: '/s/b1.output', movedAfterTimeoutMs: 120000 },
  { type: 'task/ended', taskId: 'b1', status: 'failed', exitCode: 1, endReason: 'stopped' },
  { type: 'subagent/start', turnId: 't1', token: 'call_a', agentId: 'a1', agentType: 'Explore', description: 'look', file: 's.agents/a1.jsonl', background: false },
  { type: 'subagent/end', turnId: 't1', token: 'call_a', agentId: 'a1', reason: 'completed', steps: 2, toolUseCount: 1, durationMs: 12.5, usage: { inputTokens: 3, outputTokens: 4, cachedInputTokens: 0 }, costUsd: 0.001, model: 'm' }
] as SessionEventInput[]

/** Values whose JSON round trip is not a copy of them: each must go the re-parsing way and still match the file. */
const NOT_COPYABLE: Array<[string, unknown]> = [
  ['undefined in an array', [1, undefined]],
  ['a hole', [1, , 3]], // eslint-disable-line no-sparse-arrays
  ['a Date (toJSON)', new Date(0)],
  ['an own toJSON', { toJSON: () => 'x' }],
  ['a class instance', new (class Point { x = 1 })()],
  ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1 })],
  ['a Map', new Map([['a', 1]])],
  ['-0', -0],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['a __proto__ key', JSON.parse('{"__proto__": {"a": 1}}') as unknown],
  ['an array subclass', new (class List extends Array<number> {})()],
  ['deep nesting', Array.from({ length: 100 }).reduce<unknown>((inner) => ({ inner }), 1)]
]

let root: string
let store: SessionStore

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-copy-'))
  store = SessionStore.inSeamHome(root)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

function fileEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SessionEvent)
}

/** Equal as values and in key order (a reload builds keys in the line's order). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected)
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
}

describe('event copies: memory holds what a reload reads', () => {
  it('has a sample of every event type', () => {
    expect(new Set(['session/header', ...SAMPLES.map((s) => s.type)])).toEqual(new Set(SESSION_EVENT_TYPES))
  })

  it('copies every event type plainly, equal to the JSON round trip of the copy', () => {
    for (const sample of SAMPLES) {
      const copy = eventCopy(sample, 7, 1234.5)
      expect(copy, sample.type).not.toBe(NOT_PLAIN)
      expectSame(JSON.parse(JSON.stringify(copy)), copy)
      expect(Object.keys(copy as object).slice(0, 3)).toEqual(['type', 'seq', 'ts'])
      // A validated event keeps its own key order (the schema's, as a reload builds it).
      const validated = eventCopy({ ts: 1, ...sample, seq: 2 }, 7, 1234.5)
      expect(Object.keys(validated as object).slice(0, 3)).toEqual(['ts', 'type', Object.keys(sample)[1] ?? 'seq'])
    }
  })

  it('writes, in the walk that copies, the text JSON.stringify writes for the copy, byte for byte', () => {
    const tricky = {
      type: 'tool/call',
      turnId: 't1',
      callId: 'c1',
      token: 'call_x',
      name: 'T',
      args: {
        quote: 'say "hi"',
        backslash: 'a\\b',
        controls: '\u0000\u0001\u001f\n\r\t\b\f',
        notEscaped: '\u007f \u2028 \u2029 é ü',
        pair: '😀',
        lone: 'x\ud800',
        loneLow: '\udfff x',
        numbers: [0, 1.5, -2, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER, 0.1 + 0.2, 1796335884205, 7.749131999999918],
        keys: { '10': 1, '2': 2, 'a"b': 3, 'ü': 4, '': 5, 'line\nbreak': 6 },
        empty: {},
        emptyList: [],
        nested: [[[]], [{}], [null, true, false]],
        skipped: undefined,
        long: `${'x'.repeat(100_000)}"${'y'.repeat(10)}`,
        longPlain: 'z'.repeat(200),
        longLone: `${'x'.repeat(100)}\ud800`,
        longPair: `${'x'.repeat(100)}😀`,
        longControl: `${'x'.repeat(100)}\u0007`,
        longBackslash: `${'x'.repeat(100)}\\`
      }
    } as SessionEventInput
    for (const sample of [...SAMPLES, tricky]) {
      for (const fields of [sample, { ts: 1, ...sample, seq: 2 }]) {
        const entry = eventEntry(fields, 7, 1234.5)
        if (entry === NOT_PLAIN) throw new Error(`${sample.type}: not plain`)
        expect(entry.json, sample.type).toBe(JSON.stringify(entry.event))
        expect(entry.event).toStrictEqual(eventCopy(fields, 7, 1234.5))
      }
    }
  })

  it('append and appendOwn keep, for every event type, exactly what the file holds and a reload reads', async () => {
    const log = store.create({ workspace: '/w' })
    for (const sample of SAMPLES) log.append(sample)
    for (const sample of SAMPLES) log.appendOwn(sample)
    await log.flush()
    expectSame(fileEvents(log.path), log.events)
    const memory = [...log.events]
    // Both paths write the same line for the same event (seq and ts aside).
    const strip = (e: SessionEvent) => ({ ...e, seq: 0, ts: 0 })
    expect(memory.slice(1 + SAMPLES.length).map(strip)).toStrictEqual(memory.slice(1, 1 + SAMPLES.length).map(strip))
    await log.close()
    const reopened = await store.open(log.id)
    // A reload orders keys as the schema does; so does append (zod's output). appendOwn writes
    // `type, seq, ts` first, which only hook events' schemas order otherwise (ts, seq).
    expectSame(reopened.events.slice(0, 1 + SAMPLES.length), memory.slice(0, 1 + SAMPLES.length))
    expect(reopened.events).toStrictEqual(memory)
    await reopened.close()
  })

  it('leaves undefined fields out, as JSON does, and still copies', async () => {
    const input = { type: 'turn/end', turnId: 't', reason: 'completed', error: undefined, steps: 1 } as SessionEventInput
    expect(eventCopy(input, 2, 1)).toStrictEqual({ type: 'turn/end', seq: 2, ts: 1, turnId: 't', reason: 'completed', steps: 1 })
    const log = store.create({ workspace: '/w' })
    const event = log.append(input)
    await log.flush()
    expect('error' in event).toBe(false)
    expectSame(fileEvents(log.path).at(-1), event)
    await log.close()
  })

  it('re-reads the line for values whose round trip differs from a copy', async () => {
    const log = store.create({ workspace: '/w' })
    for (const [what, value] of NOT_COPYABLE) {
      const input = { type: 'tool/call', turnId: 't', callId: 'c', token: 'k', name: 'T', args: { value } } as SessionEventInput
      expect(eventCopy(input, 2, 1), what).toBe(NOT_PLAIN)
      log.append(input)
    }
    await log.flush()
    expectSame(fileEvents(log.path), log.events)
    await log.close()
    const memory = [...log.events]
    const reopened = await store.open(log.id)
    expectSame(reopened.events, memory)
    await reopened.close()
  })

  it('keeps a copy that later changes to the input cannot reach', () => {
    const log = store.create({ workspace: '/w' })
    const args = { list: [1, { deep: 'x' }] }
    const event = log.appendOwn({ type: 'tool/call', turnId: 't', callId: 'c', token: 'k', name: 'T', args })
    ;(args.list[1] as { deep: string }).deep = 'changed'
    args.list.push(3)
    expect(event).toMatchObject({ args: { list: [1, { deep: 'x' }] } })
    void log.close()
  })

  it('appendOwn, checked in tests, refuses an event the schema refuses or would write differently', () => {
    const log = store.create({ workspace: '/w' })
    const bad = { type: 'tool/result', turnId: 't', callId: 'c', token: 'k', name: 'T', content: 5, isError: false, verdict: { outcome: 'allowed', stage: 'seal' }, durationMs: 0 }
    expect(() => log.appendOwn(bad as unknown as SessionEventInput)).toThrow(InvalidSessionEventError)
    // zod would drop the unknown key; the own path must not write what append would not.
    expect(() => log.appendOwn({ type: 'turn/start', turnId: 't', extra: 1 } as SessionEventInput)).toThrow(/appendOwn would write/)
    expect(log.events).toHaveLength(1)
    void log.close()
  })
})
