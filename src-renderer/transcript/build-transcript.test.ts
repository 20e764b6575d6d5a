import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src-shared/session/events'
import { eventLog, verdictAllowed } from '../test/events'
import { appendEvents, applyDeltas, buildTranscript, clearLive } from './build-transcript'
import type { ToolCardItem, TranscriptItem } from './transcript-types'

const scope = { tool: 'Bash', pattern: { command: 'ls' }, description: 'Bash commands exactly "ls"' }

function kinds(items: readonly TranscriptItem[]): string[] {
  return items.map((i) => i.kind)
}

function tool(items: readonly TranscriptItem[], at = 0): ToolCardItem {
  const card = items.filter((i) => i.kind === 'tool')[at]
  if (!card || card.kind !== 'tool') throw new Error(`no tool card #${at} in ${JSON.stringify(kinds(items))}`)
  return card
}

/** A turn with one tool call, up to (not including) its result. */
function callTurn(name = 'Bash', args: Record<string, unknown> = { command: 'ls' }) {
  const log = eventLog()
  log.add({ type: 'session/header', sessionId: 's1', version: 1, workspace: '/w', createdAt: 1 })
  log.add({ type: 'turn/start', turnId: 't1' })
  log.add({ type: 'user/message', turnId: 't1', content: 'list files', source: 'user' })
  log.add({ type: 'assistant/message', turnId: 't1', step: 0, text: 'Listing.', toolCalls: [{ id: 'c1', name, args }] })
  log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'tok1', name, args })
  return log
}

describe('buildTranscript', () => {
  it('maps every event kind to its row (header, turn start/completed end and grants show nothing)', () => {
    const log = callTurn()
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', content: 'a\nb', isError: false, verdict: verdictAllowed, durationMs: 12 })
    log.add({ type: 'context/message', turnId: 't1', text: 'extra', source: 'hook:SessionStart' })
    log.add({ type: 'model/context', system: 'You are Seam.', tools: [{ name: 'Bash', description: 'runs', inputSchema: {} }] })
    log.add({ type: 'steering/message', turnId: 't1', text: 'also tests', source: 'user' })
    log.add({ type: 'notice', level: 'warn', text: 'hook said hi', source: 'hooks-claude' })
    log.add({ type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PreToolUse', command: 'check.sh', sourceFile: '/w/.claude/settings.json', input: '{}', inputTruncated: false, toolCallToken: 'tok1' })
    log.add({ type: 'hook/result', invocationId: 'h1', source: 'claude', event: 'PreToolUse', exitCode: 0, signal: null, durationMs: 5, outcomeKind: 'ok', decision: 'allow', stdout: '', stdoutTruncated: false, stderr: '', stderrTruncated: false })
    log.add({ type: 'grant/added', grantId: 'g1', scope })
    log.add({ type: 'grant/revoked', grantId: 'g1' })
    log.add({ type: 'session/renamed', title: 'New' })
    log.add({ type: 'turn/end', turnId: 't1', reason: 'completed' })
    log.add({ type: 'turn/start', turnId: 't2' })
    log.add({ type: 'prompt/blocked', turnId: 't2', prompt: 'rm -rf', reason: 'no', by: 'policy' })
    log.add({ type: 'turn/end', turnId: 't2', reason: 'rejected' })
    const t = buildTranscript(log.all)
    // The PreToolUse hook row sits above its tool card (it ran before the call).
    expect(kinds(t.items)).toEqual(['user', 'assistant', 'hook', 'tool', 'context', 'context', 'steering', 'notice', 'blocked', 'turn-end'])
    expect(t.items[5]).toMatchObject({ source: 'model/context', text: 'You are Seam.\n\nTools: Bash' })
    const hook = t.items[2]
    expect(hook.kind === 'hook' && hook.result?.decision).toBe('allow')
    expect(hook.kind === 'hook' && hook.command).toBe('check.sh')
    expect(t.lastSeq).toBe(log.all.length)
  })

  it('a channel message is a row of its own with its channel, its content and its meta (plugins/channels)', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'context/message', turnId: 't1', text: '<channel source="chat" chat_id="42">\nbuild failed\n</channel>', source: 'channel:chat', channel: { server: 'chat', content: 'build failed', meta: { chat_id: '42' } } })
    const [row] = buildTranscript(log.all).items
    expect(row).toMatchObject({ kind: 'context', source: 'channel:chat', channel: { server: 'chat', content: 'build failed', meta: { chat_id: '42' } } })
  })

  it('a PreToolUse hook written when it starts shows its statusMessage while it runs, above the card; its result brings the call token', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'user/message', turnId: 't1', content: 'go', source: 'user' })
    log.add({ type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PreToolUse', command: 'check.sh', sourceFile: '/w/.claude/settings.json', input: '{}', inputTruncated: false, statusMessage: 'Checking the command' })
    const running = buildTranscript(log.all).items.find((item) => item.kind === 'hook')
    expect(running).toMatchObject({ kind: 'hook', statusMessage: 'Checking the command' })
    expect(running && 'result' in running ? running.result : undefined).toBeUndefined()
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', args: { command: 'ls' } })
    log.add({ type: 'hook/result', invocationId: 'h1', source: 'claude', event: 'PreToolUse', toolCallToken: 'tok1', exitCode: 0, signal: null, durationMs: 5, outcomeKind: 'ok', stdout: '', stdoutTruncated: false, stderr: '', stderrTruncated: false })
    const t = buildTranscript(log.all)
    expect(kinds(t.items)).toEqual(['user', 'hook', 'tool'])
    expect(t.items[1]).toMatchObject({ kind: 'hook', toolCallToken: 'tok1', result: { outcomeKind: 'ok' } })
  })

  it('ignores event kinds it does not know (a newer host)', () => {
    const unknown = { type: 'future/thing', seq: 1, ts: 1 } as unknown as SessionEvent
    expect(buildTranscript([unknown]).items).toEqual([])
  })

  it('shows turn end reasons except completed, with the error message', () => {
    const log = eventLog()
    for (const [i, reason] of (['completed', 'rejected', 'cancelled', 'error', 'max_steps'] as const).entries()) {
      log.add({ type: 'turn/start', turnId: `t${i}` })
      log.add({ type: 'turn/end', turnId: `t${i}`, reason, ...(reason === 'error' ? { error: 'HTTP 500 from provider' } : {}) })
    }
    const ends = buildTranscript(log.all).items.filter((i) => i.kind === 'turn-end')
    expect(ends.map((e) => e.kind === 'turn-end' && e.reason)).toEqual(['rejected', 'cancelled', 'error', 'max_steps'])
    expect(ends[2].kind === 'turn-end' && ends[2].error).toBe('HTTP 500 from provider')
  })

  it('tool card: pending before the call is sealed, running after tool/call', () => {
    const log = callTurn()
    expect(tool(buildTranscript(log.all.slice(0, 4)).items).status).toBe('pending')
    const card = tool(buildTranscript(log.all).items)
    expect(card).toMatchObject({ status: 'running', token: 'tok1', name: 'Bash', args: { command: 'ls' } })
    expect(card.startedAt).toBe(log.all[4].ts)
  })

  it('tool card: waiting for approval until decided, then running, then done with duration', () => {
    const log = callTurn()
    log.add({ type: 'approval/asked', turnId: 't1', requestId: 'r1', token: 'tok1', tool: 'Bash', args: { command: 'ls' }, reason: 'side effects', scope })
    expect(tool(buildTranscript(log.all).items)).toMatchObject({ status: 'approval', approval: { reason: 'side effects', requestId: 'r1' } })
    log.add({ type: 'approval/decided', requestId: 'r1', token: 'tok1', outcome: 'allowed-once', by: 'desktop' })
    expect(tool(buildTranscript(log.all).items).status).toBe('running')
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', content: 'ok', isError: false, verdict: { ...verdictAllowed, stage: 'approval', approval: 'allowed-once' }, durationMs: 40 })
    expect(tool(buildTranscript(log.all).items)).toMatchObject({ status: 'done', result: { content: 'ok', durationMs: 40 } })
  })

  it('tool card: denied with the reason (the user note reaches the card)', () => {
    const log = callTurn()
    log.add({ type: 'approval/asked', turnId: 't1', requestId: 'r1', token: 'tok1', tool: 'Bash', args: {}, reason: 'side effects', scope })
    log.add({ type: 'approval/decided', requestId: 'r1', token: 'tok1', outcome: 'denied', note: 'use git status' })
    expect(tool(buildTranscript(log.all).items)).toMatchObject({ status: 'denied', statusReason: 'denied by the user: use git status' })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', content: 'denied', isError: true, code: 'DENIED', verdict: { outcome: 'denied', stage: 'pre-execute', reason: 'policy says no' }, durationMs: 0 })
    expect(tool(buildTranscript(log.all).items)).toMatchObject({ status: 'denied', statusReason: 'policy says no' })
  })

  it('tool card: error with code, timed out, cancelled', () => {
    const cases = [
      { code: 'TOOL_THREW', status: 'error' },
      { code: 'TIMEOUT', status: 'timeout' },
      { code: 'CANCELLED', status: 'cancelled' }
    ]
    for (const { code, status } of cases) {
      const log = callTurn()
      log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', content: `${code} happened`, isError: true, code, verdict: verdictAllowed, durationMs: 3 })
      expect(tool(buildTranscript(log.all).items)).toMatchObject({ status, result: { code, content: `${code} happened` } })
    }
  })

  it('tool card: keeps original and rewritten args, and a turn end without result interrupts it', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'assistant/message', turnId: 't1', step: 0, text: '', toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'rm x' } }, { id: 'c2', name: 'Read', args: { file_path: '/a' } }] })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'trash x' }, originalArgs: { command: 'rm x' }, rewrittenBy: 'safe-rm' })
    log.add({ type: 'turn/end', turnId: 't1', reason: 'cancelled' })
    const t = buildTranscript(log.all)
    expect(kinds(t.items)).toEqual(['tool', 'tool', 'turn-end'])
    expect(tool(t.items, 0)).toMatchObject({ args: { command: 'trash x' }, originalArgs: { command: 'rm x' }, rewrittenBy: 'safe-rm', status: 'cancelled' })
    expect(tool(t.items, 1).status).toBe('cancelled')
    expect(t.openTools).toEqual([])
  })

  it('a result for a call the log never announced still gets its card', () => {
    const log = eventLog()
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c9', token: 'k9', name: 'Glob', content: 'none', isError: false, verdict: verdictAllowed, durationMs: 1 })
    expect(tool(buildTranscript(log.all).items)).toMatchObject({ name: 'Glob', status: 'done' })
  })

  it('deltas stream into a live item; the final message replaces it and later deltas for that step drop', () => {
    const log = callTurn()
    let t = buildTranscript(log.all.slice(0, 3))
    t = applyDeltas(t, [
      { turnId: 't1', step: 0, kind: 'thinking', text: 'hmm ' },
      { turnId: 't1', step: 0, kind: 'text', text: 'List' },
      { turnId: 't1', step: 0, kind: 'text', text: 'ing.' }
    ])
    expect(t.live).toMatchObject({ text: 'Listing.', thinking: 'hmm ', step: 0 })
    const liveKey = t.live?.key
    const before = t.items
    t = appendEvents(t, [log.all[3]])
    expect(t.live).toBeNull()
    // Same row key: the transcript keeps the row (and its parsed Markdown) when the stream ends (issue 17).
    expect(t.items[1].key).toBe(liveKey)
    expect(t.items[0]).toBe(before[0])
    expect(kinds(t.items)).toEqual(['user', 'assistant', 'tool'])
    expect(applyDeltas(t, [{ turnId: 't1', step: 0, kind: 'text', text: 'late' }]).live).toBeNull()
    const next = applyDeltas(t, [{ turnId: 't1', step: 1, kind: 'text', text: 'Done' }])
    expect(next.live).toMatchObject({ step: 1, text: 'Done' })
    expect(clearLive(next).live).toBeNull()
  })

  it('appendEvents ignores events it already has (by seq) and matches buildTranscript', () => {
    const log = callTurn()
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', content: 'x', isError: false, verdict: verdictAllowed, durationMs: 1 })
    let t = buildTranscript([])
    for (const event of log.all) t = appendEvents(t, [event])
    const again = appendEvents(t, log.all.slice(2))
    expect(again).toBe(t)
    expect(t.items).toEqual(buildTranscript(log.all).items)
  })

  it('builds a 10k-event session in one pass', () => {
    const log = eventLog()
    for (let i = 0; i < 2500; i++) {
      const turnId = `t${i}`
      log.add({ type: 'turn/start', turnId })
      log.add({ type: 'user/message', turnId, content: `q${i}`, source: 'user' })
      log.add({ type: 'assistant/message', turnId, step: 0, text: `a${i}`, toolCalls: [] })
      log.add({ type: 'turn/end', turnId, reason: 'completed' })
    }
    const events: SessionEvent[] = log.all
    expect(events).toHaveLength(10_000)
    expect(buildTranscript(events).items).toHaveLength(5000)
  })
})

describe('hook rows sit where the hook ran (issue 17)', () => {
  it('a PreToolUse hook row is placed above its tool card, whether logged before or after the sealed call', () => {
    for (const hookFirst of [true, false]) {
      const log = eventLog()
      log.add({ type: 'turn/start', turnId: 't1' })
      log.add({ type: 'user/message', turnId: 't1', content: 'go', source: 'user' })
      log.add({ type: 'assistant/message', turnId: 't1', step: 0, text: '', toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'ls' } }] })
      const hook = () => {
        log.add({ type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PreToolUse', command: 'check.sh', sourceFile: '/w/.claude/settings.json', input: '{}', inputTruncated: false, toolCallToken: 'tok1' })
        log.add({ type: 'hook/result', invocationId: 'h1', source: 'claude', event: 'PreToolUse', exitCode: 0, signal: null, durationMs: 5, outcomeKind: 'ok', decision: 'allow', stdout: '', stdoutTruncated: false, stderr: '', stderrTruncated: false })
      }
      if (hookFirst) hook()
      log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', args: { command: 'ls' } })
      if (!hookFirst) hook()
      log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', content: 'x', isError: false, durationMs: 3, verdict: verdictAllowed })
      const t = buildTranscript(log.all)
      expect(kinds(t.items)).toEqual(['user', 'hook', 'tool'])
      expect(t.items[1]).toMatchObject({ kind: 'hook', result: { decision: 'allow' } })
      expect(t.items[2]).toMatchObject({ kind: 'tool', status: 'done' })
    }
  })
})

describe('a PreToolUse hook written when it starts, after the model announced the call', () => {
  it('moves above the card when its result brings the call token', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'user/message', turnId: 't1', content: 'go', source: 'user' })
    log.add({ type: 'assistant/message', turnId: 't1', step: 0, text: '', toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'ls' } }] })
    log.add({ type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PreToolUse', command: 'check.sh', sourceFile: '/w/.claude/settings.json', input: '{}', inputTruncated: false })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', args: { command: 'ls' } })
    log.add({ type: 'hook/result', invocationId: 'h1', source: 'claude', event: 'PreToolUse', toolCallToken: 'tok1', exitCode: 0, signal: null, durationMs: 5, outcomeKind: 'ok', stdout: '', stdoutTruncated: false, stderr: '', stderrTruncated: false })
    const t = buildTranscript(log.all)
    expect(kinds(t.items)).toEqual(['user', 'hook', 'tool'])
  })
})

describe('a call to a tool that is not there (issue 17)', () => {
  it('is an error with the pipeline\'s reason, not a denial', () => {
    const log = callTurn('Gone', { x: 1 })
    const content = 'Unknown tool "Gone". Available tools: Bash, Read.'
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Gone', content, isError: true, code: 'UNKNOWN_TOOL', durationMs: 0, verdict: { outcome: 'denied', stage: 'seal', reason: 'unknown tool "Gone"' } })
    expect(tool(buildTranscript(log.all).items)).toMatchObject({ status: 'error', statusReason: content })
  })

  it('a tool withheld by a deny rule stays denied (someone refused it)', () => {
    const log = callTurn('Bash')
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', content: 'No such tool available: Bash', isError: true, code: 'UNKNOWN_TOOL', durationMs: 0, verdict: { outcome: 'denied', stage: 'seal', reason: 'the permission rule "Bash" disables it' } })
    expect(tool(buildTranscript(log.all).items).status).toBe('denied')
  })
})

describe('files mentioned with @path (issue 16)', () => {
  it('shows mentions/attached inside the message that mentioned them (user or steering), not as a row of their own', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'user/message', turnId: 't1', content: 'see @a.ts', source: 'user' })
    log.add({ type: 'mentions/attached', turnId: 't1', files: [{ mention: 'a.ts', path: '/w/a.ts', content: '1\tx' }] })
    log.add({ type: 'steering/message', turnId: 't1', text: 'and @b.ts', source: 'user' })
    log.add({ type: 'mentions/attached', turnId: 't1', files: [{ mention: 'b.ts', path: '/w/b.ts', error: 'not attached: no file b.ts in the workspace' }] })
    const { items } = buildTranscript(log.all)
    expect(kinds(items)).toEqual(['user', 'steering'])
    expect(items[0]).toMatchObject({ kind: 'user', mentions: [{ mention: 'a.ts', content: '1\tx' }] })
    expect(items[1]).toMatchObject({ kind: 'steering', mentions: [{ mention: 'b.ts', error: 'not attached: no file b.ts in the workspace' }] })
  })
})
