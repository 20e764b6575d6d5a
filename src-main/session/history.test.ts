import { describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { ModelMessage } from '../../src-shared/model'
import type { SessionEvent } from '../../src-shared/session/events'
import { deriveModelHistory, deriveModelMessages, systemReminder } from './history'

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
