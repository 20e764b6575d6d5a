// hook/invoked and hook/result session events: built from real runs, valid against the shared schemas.
import { describe, it, expect } from 'vitest'
import { HookInvokedEvent, HookResultEvent, HookSessionEvent, HOOK_EVENT_INPUT_MAX_BYTES, HOOK_EVENT_OUTPUT_MAX_BYTES } from '@seam/sdk'
import { hookInvokedEvent, hookResultEvent } from './session-events'
import { runCommandHook } from './runner'
import { parseClaudeHookOutput } from './parse-claude'
import { http } from './test-fixtures'

const stamp = { ts: Date.now(), seq: 7 }

describe('hook session events (S22)', () => {
  it('records an invocation and its result', async () => {
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })
    const invoked = hookInvokedEvent({
      invocationId: 'inv-1',
      source: 'claude',
      event: 'PreToolUse',
      matcher: 'Bash',
      command: 'echo blocked >&2; exit 2',
      sourceFile: '/p/.claude/settings.json',
      input,
      toolCallToken: 'tok-1'
    })
    expect(HookInvokedEvent.parse({ ...invoked, ...stamp })).toMatchObject({ type: 'hook/invoked', input, inputTruncated: false, toolCallToken: 'tok-1' })

    const result = await runCommandHook({ command: 'echo blocked >&2; exit 2', stdin: input })
    const outcome = parseClaudeHookOutput('PreToolUse', result)
    const recorded = HookResultEvent.parse({ ...hookResultEvent({ invocationId: 'inv-1', source: 'claude', event: 'PreToolUse' }, result, outcome), ...stamp })
    expect(recorded).toMatchObject({ type: 'hook/result', exitCode: 2, signal: null, decision: 'deny', outcomeKind: 'block', stderr: 'blocked\n', stdoutTruncated: false })
    expect(HookSessionEvent.parse(recorded).type).toBe('hook/result')
  })

  it('caps input at 64 KiB and output at 16 KiB, flagging the cut', async () => {
    const invoked = hookInvokedEvent({ invocationId: 'i', source: 'codex', event: 'Stop', command: 'x', sourceFile: 'f', input: 'é'.repeat(HOOK_EVENT_INPUT_MAX_BYTES) })
    expect(Buffer.byteLength(invoked.input)).toBeLessThanOrEqual(HOOK_EVENT_INPUT_MAX_BYTES)
    expect(invoked.input).toMatch(/^é+$/)
    expect(invoked.inputTruncated).toBe(true)

    const result = await runCommandHook({ command: 'head -c 40000 /dev/zero | tr "\\0" o; printf e >&2', stdin: '{}' })
    const event = hookResultEvent({ invocationId: 'i', source: 'codex', event: 'Stop' }, result, { kind: 'ok' })
    expect(event.stdout).toHaveLength(HOOK_EVENT_OUTPUT_MAX_BYTES)
    expect(event).toMatchObject({ stdoutTruncated: true, stderr: 'e', stderrTruncated: false })
  })

  it('records a timeout failure and an http status', async () => {
    const result = await runCommandHook({ command: 'sleep 5', stdin: '{}', timeoutMs: 300 })
    const outcome = parseClaudeHookOutput('Stop', result)
    const event = HookResultEvent.parse({ ...hookResultEvent({ invocationId: 'i', source: 'claude', event: 'Stop' }, result, outcome), ...stamp })
    expect(event).toMatchObject({ exitCode: null, signal: 'SIGTERM', outcomeKind: 'error', failureKind: 'timeout' })

    const viaHttp = hookResultEvent({ invocationId: 'h', source: 'claude', event: 'PreToolUse' }, http(503, 'down'), { kind: 'error', failureKind: 'http_status' })
    expect(HookResultEvent.parse({ ...viaHttp, ...stamp })).toMatchObject({ httpStatus: 503, stdout: 'down', exitCode: null })
  })

  it('the schemas reject events missing ts/seq or with a bad enum', () => {
    const invoked = hookInvokedEvent({ invocationId: 'i', source: 'claude', event: 'Stop', command: 'x', sourceFile: 'f', input: '{}' })
    expect(HookInvokedEvent.safeParse(invoked).success).toBe(false)
    const bad = HookInvokedEvent.safeParse({ ...invoked, ...stamp, source: 'gemini' })
    expect(bad.success).toBe(false)
    if (!bad.success) expect(bad.error.issues[0].path).toEqual(['source'])
  })
})
