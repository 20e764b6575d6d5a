import { describe, expect, it } from 'vitest'
import { eventLog, type EventInput } from '../test/events'
import { groupHookInvocations } from './hook-groups'

function invoked(id: string, event: string, token?: string): EventInput {
  return { type: 'hook/invoked', invocationId: id, source: 'claude', event, command: `${event}.sh`, sourceFile: '/w/.claude/settings.json', input: '{"a":1}', inputTruncated: false, ...(token ? { toolCallToken: token } : {}) }
}
function result(id: string, event: string, token?: string): EventInput {
  return { type: 'hook/result', invocationId: id, source: 'claude', event, exitCode: 0, signal: null, durationMs: 4, outcomeKind: 'ok', stdout: 'out', stdoutTruncated: true, stderr: '', stderrTruncated: false, ...(token ? { toolCallToken: token } : {}) }
}

describe('groupHookInvocations', () => {
  it('pairs invoked with result and groups by session, prompt and tool call', () => {
    const log = eventLog()
    log.add(invoked('h0', 'SessionStart'))
    log.add(result('h0', 'SessionStart'))
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add(invoked('h1', 'UserPromptSubmit'))
    log.add(result('h1', 'UserPromptSubmit'))
    log.add({ type: 'user/message', turnId: 't1', content: 'fix the bug', source: 'user' })
    log.add(invoked('h2', 'PreToolUse', 'tok1'))
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', args: { command: 'npm test' } })
    log.add(result('h2', 'PreToolUse'))
    log.add(invoked('h3', 'Stop'))
    log.add({ type: 'turn/end', turnId: 't1', reason: 'completed' })
    const groups = groupHookInvocations(log.all)
    expect(groups.map((g) => [g.kind, g.title, g.invocations.map((i) => i.invocationId)])).toEqual([
      ['session', 'Session', ['h0']],
      ['turn', 'Prompt: fix the bug', ['h1', 'h3']],
      ['tool', 'Tool call Bash: npm test', ['h2']]
    ])
    const pre = groups[2].invocations[0]
    expect(pre.invoked?.command).toBe('PreToolUse.sh')
    expect(pre.result?.stdoutTruncated).toBe(true)
    expect(groups[1].invocations[1].result).toBeUndefined()
  })

  it('a PreToolUse hook written when it started (no token yet) joins its call by the token on its result', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'user/message', turnId: 't1', content: 'go', source: 'user' })
    log.add(invoked('h1', 'PreToolUse'))
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'tok1', name: 'Bash', args: { command: 'ls' } })
    log.add(result('h1', 'PreToolUse', 'tok1'))
    log.add({ type: 'turn/end', turnId: 't1', reason: 'completed' })
    expect(groupHookInvocations(log.all).map((g) => [g.kind, g.title, g.invocations.map((i) => i.invocationId)])).toEqual([['tool', 'Tool call Bash: ls', ['h1']]])
  })
})
