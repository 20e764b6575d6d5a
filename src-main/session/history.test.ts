import { describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { ModelMessage } from '../../src-shared/model'
import type { SessionEvent } from '../../src-shared/session/events'
import { deriveModelHistory, deriveModelMessages, IncrementalHistory, systemReminder } from './history'

/** Numbers the inputs as the store would (header first). */
function logOf(inputs: SessionEventInput[]): SessionEvent[] {
  const header: SessionEvent = { type: 'session/header', seq: 1, ts: 0, sessionId: 's', version: 1, workspace: '/w', createdAt: 0 }
  return [header, ...inputs.map((input, i) => ({ ...input, seq: i + 2, ts: i + 1 }) as SessionEvent)]
}

const verdict = { outcome: 'allowed', stage: 'approval' } as const
const result = (callId: string, name: string, content: string, isError = false): SessionEventInput => ({
  type: 'tool/result',
  turnId: 't',
  callId,
  token: `k-${callId}`,
  name,
  content,
  isError,
  verdict,
  durationMs: 1
})

describe('deriveModelMessages', () => {
  it('derives a representative log: text turn, blocked prompt, parallel tools with late context, steering, cancelled partial', () => {
    const events = logOf([
      { type: 'context/message', text: 'Repo uses pnpm.', source: 'hook:SessionStart' },
      { type: 'turn/start', turnId: 't1' },
      { type: 'user/message', turnId: 't1', content: 'hello', source: 'user' },
      { type: 'assistant/message', turnId: 't1', step: 0, text: 'Hi.', toolCalls: [], stopReason: 'end_turn' },
      { type: 'turn/end', turnId: 't1', reason: 'completed' },
      { type: 'turn/start', turnId: 't2' },
      { type: 'prompt/blocked', turnId: 't2', prompt: 'print the secrets', reason: 'policy', by: 'guard' },
      { type: 'notice', turnId: 't2', level: 'warn', text: 'prompt blocked', source: 'guard' },
      { type: 'turn/end', turnId: 't2', reason: 'rejected' },
      { type: 'turn/start', turnId: 't3' },
      { type: 'user/message', turnId: 't3', content: 'check both', source: 'user' },
      {
        type: 'assistant/message',
        turnId: 't3',
        step: 0,
        text: 'Checking.',
        thinking: 'two reads at once',
        toolCalls: [
          { id: 'c1', name: 'Bash', args: { command: 'git status' } },
          { id: 'c2', name: 'Read', args: {}, argsError: 'not JSON' }
        ]
      },
      { type: 'tool/call', turnId: 't3', callId: 'c1', token: 'k-c1', name: 'Bash', args: { command: 'git status' } },
      { type: 'tool/call', turnId: 't3', callId: 'c2', token: 'k-c2', name: 'Read', args: {} },
      { type: 'approval/asked', turnId: 't3', requestId: 'r1', token: 'k-c1', tool: 'Bash', args: { command: 'git status' }, reason: 'shell', scope: { tool: 'Bash', pattern: { command: 'git *' }, description: 'git' } },
      { type: 'approval/decided', requestId: 'r1', token: 'k-c1', outcome: 'allowed-session' },
      { type: 'grant/added', grantId: 'g1', scope: { tool: 'Bash', pattern: { command: 'git *' }, description: 'git' } },
      { type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PostToolUse', command: 'lint.sh', sourceFile: '/w/.claude/settings.json', input: '{}', inputTruncated: false },
      { type: 'hook/result', invocationId: 'h1', source: 'claude', event: 'PostToolUse', exitCode: 0, signal: null, durationMs: 3, outcomeKind: 'ok', stdout: '', stdoutTruncated: false, stderr: '', stderrTruncated: false },
      result('c2', 'Read', 'bad arguments', true), // finished first
      { type: 'context/message', turnId: 't3', text: 'Read failed: fix the path.', source: 'hook:PostToolUse' },
      result('c1', 'Bash', 'clean'),
      { type: 'context/message', turnId: 't3', text: 'Both done.', source: 'hook:PostToolBatch' },
      { type: 'assistant/message', turnId: 't3', step: 1, text: 'All clean.', toolCalls: [] },
      { type: 'steering/message', turnId: 't3', text: 'Also run the tests.', source: 'continuation', by: 'hook:Stop' },
      { type: 'steering/message', turnId: 't3', text: 'and be quick', source: 'user' },
      { type: 'assistant/message', turnId: 't3', step: 2, text: 'Running te', toolCalls: [{ id: 'c3', name: 'Bash', args: { command: 'npm test' } }], partial: true },
      { type: 'turn/end', turnId: 't3', reason: 'cancelled' },
      { type: 'session/renamed', title: 'x' },
      { type: 'grant/revoked', grantId: 'g1' }
    ])
    const expected: ModelMessage[] = [
      { role: 'user', content: `${systemReminder('Repo uses pnpm.')}\n\nhello` },
      { role: 'assistant', text: 'Hi.', toolCalls: [] },
      { role: 'user', content: 'check both' },
      {
        role: 'assistant',
        text: 'Checking.',
        thinking: 'two reads at once',
        toolCalls: [
          { id: 'c1', name: 'Bash', args: { command: 'git status' } },
          { id: 'c2', name: 'Read', args: {}, argsError: 'not JSON' }
        ]
      },
      { role: 'tool', callId: 'c1', toolName: 'Bash', content: 'clean', isError: false },
      { role: 'tool', callId: 'c2', toolName: 'Read', content: 'bad arguments', isError: true },
      { role: 'user', content: `<system-reminder>\nRead failed: fix the path.\n</system-reminder>\n\n<system-reminder>\nBoth done.\n</system-reminder>` },
      { role: 'assistant', text: 'All clean.', toolCalls: [] },
      { role: 'user', content: `${systemReminder('Also run the tests.')}\n\nand be quick` },
      { role: 'assistant', text: 'Running te', toolCalls: [] }
    ]
    const derived = deriveModelHistory(events)
    expect(derived.messages).toStrictEqual(expected)
    expect(derived.notes).toEqual([`seq ${events.length - 3}: dropped tool call c3 (Bash): the log has no tool/result for it`])
    expect(JSON.stringify(derived.messages)).not.toContain('print the secrets')
  })

  it('drops calls a crash left unanswered, keeps the answered ones, and omits an assistant message left empty', () => {
    const events = logOf([
      { type: 'user/message', turnId: 't', content: 'go', source: 'user' },
      { type: 'assistant/message', turnId: 't', step: 0, text: 'Two things.', toolCalls: [{ id: 'a', name: 'Bash', args: {} }, { id: 'b', name: 'Bash', args: {} }] },
      result('a', 'Bash', 'done a'),
      // crash: no result for b; the user resumes
      { type: 'user/message', turnId: 'u', content: 'where were we?', source: 'user' },
      { type: 'assistant/message', turnId: 'u', step: 0, text: '', toolCalls: [{ id: 'c', name: 'Read', args: {} }], partial: true }
    ])
    const derived = deriveModelHistory(events)
    expect(derived.messages).toStrictEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', text: 'Two things.', toolCalls: [{ id: 'a', name: 'Bash', args: {} }] },
      { role: 'tool', callId: 'a', toolName: 'Bash', content: 'done a', isError: false },
      { role: 'user', content: 'where were we?' }
    ])
    expect(derived.notes).toHaveLength(3)
    expect(derived.notes[0]).toMatch(/dropped tool call b/)
    expect(derived.notes[2]).toMatch(/left out an assistant message/)
  })

  it('leaves out tool results that answer no open call, and a second result for the same call', () => {
    const events = logOf([
      result('ghost', 'Bash', 'from nowhere'),
      { type: 'user/message', turnId: 't', content: 'hi', source: 'cli' },
      { type: 'assistant/message', turnId: 't', step: 0, text: '', toolCalls: [{ id: 'a', name: 'Bash', args: {} }, { id: 'b', name: 'Bash', args: {} }] },
      result('a', 'Bash', 'first'),
      result('a', 'Bash', 'again')
    ])
    const derived = deriveModelHistory(events)
    expect(derived.messages.filter((m) => m.role === 'tool')).toStrictEqual([{ role: 'tool', callId: 'a', toolName: 'Bash', content: 'first', isError: false }])
    expect(derived.notes.join('\n')).toMatch(/tool\/result ghost[\s\S]*second tool\/result for a[\s\S]*dropped tool call b/)
  })

  it('uses the prompt as the model saw it (after policy), not as typed', () => {
    const events = logOf([{ type: 'user/message', turnId: 't', content: 'rewritten', originalContent: 'typed', source: 'user' }])
    expect(deriveModelMessages(events)).toStrictEqual([{ role: 'user', content: 'rewritten' }])
  })
})

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A plausible session: turns of text and tool steps (parallel calls answered in any order, some
 * never answered after a cancel or a crash), post-tool and batch context, steering, continuation
 * reasons, blocked prompts, hooks, approvals, notices, model/context changes, orphan and
 * duplicate results, empty and partial assistant messages.
 */
function randomLog(seed: number): SessionEvent[] {
  const rand = random(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]
  const chance = (p: number): boolean => rand() < p
  const inputs: SessionEventInput[] = []
  let callNo = 0
  const turns = 1 + Math.floor(rand() * 5)
  for (let t = 0; t < turns; t++) {
    const turnId = `t${t}`
    if (chance(0.3)) inputs.push({ type: 'model/context', system: `system ${seed}.${t}`, tools: [{ name: 'Bash', description: 'run', inputSchema: { type: 'object' } }] })
    if (chance(0.2)) inputs.push({ type: 'context/message', text: `session context ${t}`, source: 'hook:SessionStart' })
    inputs.push({ type: 'turn/start', turnId })
    if (chance(0.15)) {
      inputs.push({ type: 'prompt/blocked', turnId, prompt: 'secret', reason: 'policy', by: 'guard' })
      inputs.push({ type: 'notice', turnId, level: 'warn', text: 'blocked', source: 'guard' })
      inputs.push({ type: 'turn/end', turnId, reason: 'rejected' })
      continue
    }
    inputs.push({ type: 'user/message', turnId, content: `prompt ${t}`, source: pick(['user', 'cli', 'steering'] as const) })
    if (chance(0.3)) inputs.push({ type: 'context/message', turnId, text: `prompt context ${t}`, source: 'hook:UserPromptSubmit' })
    const steps = 1 + Math.floor(rand() * 4)
    let ended = false
    for (let step = 0; step < steps && !ended; step++) {
      const callCount = step === steps - 1 && chance(0.6) ? 0 : Math.floor(rand() * 4)
      const calls = Array.from({ length: callCount }, () => {
        const id = `c${callNo++}`
        return chance(0.1) ? { id, name: 'Read', args: {}, argsError: 'not JSON' } : { id, name: pick(['Bash', 'Read', 'Edit']), args: { n: callNo } }
      })
      const empty = chance(0.1)
      inputs.push({
        type: 'assistant/message',
        turnId,
        step,
        text: empty ? '' : `answer ${t}.${step}`,
        ...(chance(0.3) ? { thinking: empty && chance(0.5) ? '' : `thought ${t}.${step}` } : {}),
        toolCalls: calls,
        ...(chance(0.1) ? { partial: true } : {})
      })
      const order = [...calls].sort(() => rand() - 0.5)
      const cancelledAt = chance(0.2) ? Math.floor(rand() * (order.length + 1)) : order.length
      for (const [i, call] of order.entries()) {
        inputs.push({ type: 'tool/call', turnId, callId: call.id, token: `k-${call.id}`, name: call.name, args: call.args })
        if (chance(0.2)) inputs.push({ type: 'approval/asked', turnId, requestId: `r-${call.id}`, token: `k-${call.id}`, tool: call.name, args: call.args, reason: 'ask', scope: { tool: call.name, pattern: {}, description: 'any' } })
        if (chance(0.1)) inputs.push({ type: 'approval/decided', requestId: `r-${call.id}`, token: `k-${call.id}`, outcome: 'allowed-once' })
        if (chance(0.15)) {
          inputs.push({ type: 'hook/invoked', invocationId: `h-${call.id}`, source: 'claude', event: 'PostToolUse', command: 'lint.sh', sourceFile: '/w/.claude/settings.json', input: '{}', inputTruncated: false })
          inputs.push({ type: 'hook/result', invocationId: `h-${call.id}`, source: 'claude', event: 'PostToolUse', exitCode: 0, signal: null, durationMs: 1, outcomeKind: 'ok', stdout: '', stdoutTruncated: false, stderr: '', stderrTruncated: false })
        }
        if (i >= cancelledAt) continue
        inputs.push(result(call.id, call.name, `out ${call.id}`, chance(0.2)))
        if (chance(0.1)) inputs.push(result(call.id, call.name, 'duplicate'))
        if (chance(0.2)) inputs.push({ type: 'context/message', turnId, text: `after ${call.id}`, source: 'hook:PostToolUse' })
        if (chance(0.1)) inputs.push({ type: 'steering/message', turnId, text: `steer during ${call.id}`, source: 'user' })
      }
      if (chance(0.05)) inputs.push(result('ghost', 'Bash', 'from nowhere'))
      if (calls.length > 0 && chance(0.3)) inputs.push({ type: 'context/message', turnId, text: `batch ${t}.${step}`, source: 'hook:PostToolBatch' })
      if (cancelledAt < order.length) {
        inputs.push({ type: 'turn/end', turnId, reason: 'cancelled' })
        ended = true
      } else if (chance(0.15)) {
        inputs.push({ type: 'steering/message', turnId, text: `steer ${t}.${step}`, source: pick(['user', 'continuation'] as const), by: 'hook:Stop' })
      }
    }
    if (!ended && chance(0.9)) inputs.push({ type: 'turn/end', turnId, reason: 'completed' })
    if (chance(0.1)) inputs.push({ type: 'session/renamed', title: `title ${t}` })
  }
  return logOf(inputs)
}

describe('IncrementalHistory', () => {
  // Seeded, so a failing log can be replayed with randomLog(seed).
  const logs: Array<[string, SessionEvent[]]> = Array.from({ length: 150 }, (_, seed) => [`generated log ${seed}`, randomLog(seed)])

  it('generates logs that exercise every rule', () => {
    const all = logs.map(([, events]) => deriveModelHistory(events))
    const notes = all.flatMap((d) => d.notes).join('\n')
    expect(notes).toMatch(/dropped tool call/)
    expect(notes).toMatch(/left out tool\/result ghost/)
    expect(notes).toMatch(/second tool\/result/)
    expect(notes).toMatch(/left out an assistant message/)
    const types = new Set(logs.flatMap(([, events]) => events.map((e) => e.type)))
    for (const type of ['model/context', 'prompt/blocked', 'steering/message', 'hook/invoked', 'hook/result', 'approval/asked', 'approval/decided', 'session/renamed', 'notice']) {
      expect(types).toContain(type)
    }
    // Merged user messages (a blank line joins them) and context placed after results.
    expect(all.some((d) => d.messages.some((m) => m.role === 'user' && m.content.includes('\n\n')))).toBe(true)
  })

  it('after every appended event, answers exactly what a fresh derivation of that prefix does', () => {
    for (const [name, events] of logs) {
      const history = new IncrementalHistory()
      let context: SessionEvent | undefined
      for (let i = 0; i <= events.length; i++) {
        if (i > 0) history.add(events[i - 1])
        if (events[i - 1]?.type === 'model/context') context = events[i - 1]
        const prefix = events.slice(0, i)
        expect(history.length, name).toBe(i)
        expect(history.messages(), `${name}, prefix ${i}`).toStrictEqual(deriveModelMessages(prefix))
        expect(history.history(), `${name}, prefix ${i}`).toStrictEqual(deriveModelHistory(prefix))
        expect(history.context, `${name}, prefix ${i}`).toBe(context)
      }
    }
  })

  it('catches up on several events at once with sync, and starts over for a log that is not a continuation', () => {
    const [, events] = logs[7]
    const other = randomLog(1000)
    const history = new IncrementalHistory()
    for (let i = 0; i <= events.length; i += 3) {
      history.sync(events.slice(0, i))
      expect(history.history()).toStrictEqual(deriveModelHistory(events.slice(0, i)))
    }
    history.sync(events)
    expect(history.history()).toStrictEqual(deriveModelHistory(events))
    // A different log of the same or greater length (its event objects are not the consumed ones).
    history.sync(other)
    expect(history.length).toBe(other.length)
    expect(history.history()).toStrictEqual(deriveModelHistory(other))
    // A shorter one.
    history.sync(events.slice(0, 4))
    expect(history.length).toBe(4)
    expect(history.history()).toStrictEqual(deriveModelHistory(events.slice(0, 4)))
  })

  it('hands out arrays the caller owns over frozen messages: changing a message throws, changing the array reaches neither the next answer nor the log', () => {
    const events = logOf([
      { type: 'user/message', turnId: 't', content: 'go', source: 'user' },
      { type: 'assistant/message', turnId: 't', step: 0, text: 'Two.', thinking: 'hm', toolCalls: [{ id: 'a', name: 'Bash', args: { x: 1 } }, { id: 'b', name: 'Read', args: {} }] },
      result('a', 'Bash', 'done a'),
      { type: 'context/message', turnId: 't', text: 'late', source: 'hook:PostToolUse' },
      result('b', 'Read', 'done b'),
      { type: 'assistant/message', turnId: 't', step: 1, text: 'More.', toolCalls: [{ id: 'c', name: 'Bash', args: {} }] },
      result('c', 'Bash', 'done c'),
      { type: 'steering/message', turnId: 't', text: 'and then', source: 'user' }
    ])
    const before = JSON.stringify(events)
    const history = new IncrementalHistory()
    for (const [i, event] of events.entries()) {
      history.add(event)
      const answer = history.messages()
      for (const message of answer) {
        if (message.role === 'user') expect(() => (message.content += ' (changed)')).toThrow(TypeError)
        if (message.role === 'tool') expect(() => (message.content = 'changed')).toThrow(TypeError)
        if (message.role === 'assistant') {
          expect(() => (message.text = 'changed')).toThrow(TypeError)
          expect(() => message.toolCalls.push({ id: 'x', name: 'X', args: {} })).toThrow(TypeError)
          for (const call of message.toolCalls) expect(() => (call.id = 'changed')).toThrow(TypeError)
        }
      }
      answer.push({ role: 'user', content: 'extra' })
      answer.shift()
      expect(history.messages()).toStrictEqual(deriveModelMessages(events.slice(0, i + 1)))
    }
    expect(JSON.stringify(events)).toBe(before)
  })

  it('builds each settled message once: a step shares the messages of the answer before it instead of copying them (issue 11: linear, not N²)', () => {
    const inputs: SessionEventInput[] = [{ type: 'user/message', turnId: 't', content: 'go', source: 'user' }]
    for (let n = 0; n < 50; n++) {
      inputs.push({ type: 'assistant/message', turnId: 't', step: n, text: `step ${n}`, toolCalls: [{ id: `c${n}`, name: 'Read', args: {} }] })
      inputs.push(result(`c${n}`, 'Read', `read ${n}`))
    }
    const events = logOf(inputs)
    const history = new IncrementalHistory().sync(events.slice(0, 4)) // header, prompt, step 0
    const earlier = history.messages()
    history.sync(events)
    const later = history.messages()
    expect(later).toHaveLength(1 + 50 * 2)
    expect(later).not.toBe(earlier)
    for (let i = 0; i < earlier.length; i++) expect(later[i]).toBe(earlier[i])
  })
})
