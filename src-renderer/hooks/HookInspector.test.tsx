// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { appActions } from '../app/app-store'
import { eventLog } from '../test/events'
import { resetStores } from '../test/reset-stores'
import { sessionActions } from '../transcript/session-store'
import { HookInspector } from './HookInspector'

beforeEach(resetStores)
afterEach(cleanup)

describe('HookInspector', () => {
  it('lists each invocation under its tool call with command, file, input, output, exit code, decision and failure', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'rm -rf /' } })
    log.add({ type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PreToolUse', matcher: 'Bash', command: './guard.sh', sourceFile: '/w/.claude/settings.json', input: '{"tool_name":"Bash"}', inputTruncated: false, toolCallToken: 'k1' })
    log.add({ type: 'hook/result', invocationId: 'h1', source: 'claude', event: 'PreToolUse', exitCode: 2, signal: null, durationMs: 8, outcomeKind: 'block', decision: 'deny', stdout: '', stdoutTruncated: false, stderr: 'refusing rm -rf', stderrTruncated: true, failureKind: 'nonzero_exit' })
    sessionActions.begin('s1')
    sessionActions.loaded({ id: 's1', events: log.all, state: { sessionId: 's1', running: false, queued: 0, steering: 0 }, warnings: [] })
    appActions.openInspector('h1')
    render(<HookInspector />)
    const group = within(screen.getByRole('complementary', { name: 'Hook inspector' })).getByRole('region', { name: 'Tool call Bash: rm -rf /' })
    const text = group.textContent ?? ''
    for (const part of ['claude:PreToolUse', './guard.sh', '/w/.claude/settings.json', 'Bash', 'deny', 'nonzero_exit', 'refusing rm -rf', 'truncated']) expect(text).toContain(part)
    expect(within(group).getByLabelText('Input').textContent).toBe('{\n  "tool_name": "Bash"\n}')
    expect(group.querySelector('details')?.open).toBe(true)
  })
})
