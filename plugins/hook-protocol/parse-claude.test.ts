// Claude Code answers: every row of claude-code-hooks.md §4 (exit codes), §5 (JSON), §5.1/§5.2
// (hookSpecificOutput) and the per-event exit-2 effects of §6.
import { describe, it, expect } from 'vitest'
import { parseClaudeHookOutput } from './parse-claude'
import { runCommandHook } from './runner'
import type { HookOutcome } from './outcome'
import type { ClaudeHookEvent } from './events'
import { exited, http, json, killed } from './test-fixtures'

const deny = (reason: string) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })
const allow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }

type Row = [name: string, event: ClaudeHookEvent, result: ReturnType<typeof exited>, expected: HookOutcome]

/** §4: exit codes and stdout. */
const EXIT_CODE_TABLE: Row[] = [
  ['exit 0, no stdout: success, nothing injected', 'PreToolUse', exited(0), { kind: 'ok' }],
  ['exit 0, plain text on UserPromptSubmit: context', 'UserPromptSubmit', exited(0, 'remember X\n'), { kind: 'ok', plainStdoutContext: 'remember X' }],
  ['exit 0, plain text on SessionStart: context', 'SessionStart', exited(0, 'branch main\n'), { kind: 'ok', plainStdoutContext: 'branch main' }],
  ['exit 0, plain text on PreToolUse: ignored', 'PreToolUse', exited(0, 'hello\n'), { kind: 'ok' }],
  ['exit 0, plain text on PostToolUse: ignored', 'PostToolUse', exited(0, 'hello\n'), { kind: 'ok' }],
  ['exit 0, plain text on Stop: ignored', 'Stop', exited(0, 'hello\n'), { kind: 'ok' }],
  ['exit 0, `{` but not JSON: invalid_output (stricter than Claude Code)', 'PreToolUse', exited(0, '{not json'), { kind: 'error', failureKind: 'invalid_output', errorMessage: expect.stringMatching(/^hook stdout starts with "\{" but is not valid JSON: Expected property name/) }],
  ['exit 0, `{` but not JSON on UserPromptSubmit: invalid_output, not context', 'UserPromptSubmit', exited(0, '{not json'), { kind: 'error', failureKind: 'invalid_output', errorMessage: expect.stringMatching(/^hook stdout starts with "\{" but is not valid JSON: Expected property name/) }],
  ['exit 0, valid JSON: the JSON protocol', 'PreToolUse', json(deny('no')), { kind: 'block', decision: 'deny', reason: 'no', hookSpecificOutput: deny('no').hookSpecificOutput }],
  ['exit 2: blocking, stderr is the message byte for byte (§4)', 'PreToolUse', exited(2, '', 'blocked by policy\n'), { kind: 'block', decision: 'deny', reason: 'blocked by policy\n' }],
  ['exit 2: leading and trailing newlines of stderr are kept (§4)', 'UserPromptSubmit', exited(2, '', '\n  two lines\nsecond\n\n'), { kind: 'block', reason: '\n  two lines\nsecond\n\n' }],
  ['exit 2: allow JSON on stdout is ignored, still blocks', 'PreToolUse', json(allow, 2, 'nope'), { kind: 'block', decision: 'deny', reason: 'nope' }],
  ['exit 2 with empty stderr: "No stderr output"', 'PreToolUse', exited(2), { kind: 'block', decision: 'deny', reason: 'No stderr output' }],
  ['exit 1: non-blocking error', 'PreToolUse', exited(1, '', 'oops'), { kind: 'error', failureKind: 'nonzero_exit', errorMessage: 'hook exited with code 1' }],
  ['exit 3: non-blocking error', 'PreToolUse', exited(3), { kind: 'error', failureKind: 'nonzero_exit', errorMessage: 'hook exited with code 3' }],
  ['exit 127 (missing command): non-blocking error', 'PreToolUse', exited(127, '', 'sh: 1: x: not found'), { kind: 'error', failureKind: 'nonzero_exit', errorMessage: 'hook exited with code 127' }],
  [
    'exit 1 with a deny JSON: the deny is honoured',
    'PreToolUse',
    json(deny('json wins'), 1),
    { kind: 'block', decision: 'deny', reason: 'json wins', hookSpecificOutput: deny('json wins').hookSpecificOutput, failureKind: 'nonzero_exit', errorMessage: 'hook exited with code 1' }
  ],
  ['exit 1 with plain text on UserPromptSubmit: ignored', 'UserPromptSubmit', exited(1, 'ctx'), { kind: 'error', failureKind: 'nonzero_exit', errorMessage: 'hook exited with code 1' }],
  ['timeout: cancelled, JSON printed before the kill not used', 'PreToolUse', killed('timeout', JSON.stringify(deny('late'))), { kind: 'error', failureKind: 'timeout', errorMessage: 'hook timeout' }]
]

/** §6: what exit 2 does per event. */
const EXIT2_PER_EVENT: Array<[ClaudeHookEvent, Partial<HookOutcome>]> = [
  ['PreToolUse', { kind: 'block', decision: 'deny', reason: 'E' }],
  ['PermissionRequest', { kind: 'block', decision: 'deny', reason: 'E' }],
  ['PostToolUse', { kind: 'block', reason: 'E' }],
  ['PostToolUseFailure', { kind: 'block', reason: 'E' }],
  ['PostToolBatch', { kind: 'block', reason: 'E' }],
  ['UserPromptSubmit', { kind: 'block', reason: 'E' }],
  ['Stop', { kind: 'block', reason: 'E' }],
  ['SubagentStop', { kind: 'block', reason: 'E' }],
  ['SessionStart', { kind: 'error', failureKind: 'nonzero_exit' }],
  ['SessionEnd', { kind: 'error', failureKind: 'nonzero_exit' }],
  ['Notification', { kind: 'error', failureKind: 'nonzero_exit' }]
]

/** §5 top-level fields and §5.1 / §5.2 hookSpecificOutput. */
const JSON_TABLE: Array<[name: string, event: ClaudeHookEvent, output: unknown, expected: Partial<HookOutcome>]> = [
  ['wrong hookEventName: non-blocking error, the deny is not used', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } }, { kind: 'error', failureKind: 'invalid_output' }],
  ['hookSpecificOutput without hookEventName: error', 'PreToolUse', { hookSpecificOutput: { permissionDecision: 'deny' } }, { kind: 'error', failureKind: 'invalid_output' }],
  ['invalid enum value "maybe": error naming the field', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' } }, { kind: 'error', failureKind: 'invalid_output' }],
  ['wrong type for continue: error', 'Stop', { continue: 'no' }, { kind: 'error', failureKind: 'invalid_output' }],
  ['unknown extra top-level field tolerated, rest honoured', 'PreToolUse', { extra: 1, ...deny('r') }, { kind: 'block', decision: 'deny', reason: 'r' }],
  ['continue:false + stopReason', 'PostToolUse', { continue: false, stopReason: 'enough' }, { kind: 'ok', continue: false, stopReason: 'enough' }],
  ['continue:false on PreToolUse (the tool still runs)', 'PreToolUse', { continue: false, stopReason: 's' }, { kind: 'ok', continue: false, stopReason: 's' }],
  ['stopReason without continue:false is dropped', 'Stop', { stopReason: 's' }, { kind: 'ok' }],
  ['systemMessage: user only', 'PreToolUse', { systemMessage: 'note' }, { kind: 'ok', systemMessage: 'note' }],
  ['suppressOutput', 'PostToolUse', { suppressOutput: true }, { kind: 'ok', suppressOutput: true }],
  ['legacy decision:block on PreToolUse: deny with reason', 'PreToolUse', { decision: 'block', reason: 'legacy' }, { kind: 'block', decision: 'deny', reason: 'legacy' }],
  ['legacy decision:approve on PreToolUse: allow', 'PreToolUse', { decision: 'approve' }, { kind: 'ok', decision: 'allow' }],
  ['permissionDecision wins over legacy decision', 'PreToolUse', { decision: 'block', reason: 'x', ...allow }, { kind: 'ok', decision: 'allow' }],
  ['decision:block on PostToolUse: blocking error text', 'PostToolUse', { decision: 'block', reason: 'bad output' }, { kind: 'block', reason: 'bad output' }],
  ['decision:block on PostToolUseFailure', 'PostToolUseFailure', { decision: 'block', reason: 'r' }, { kind: 'block', reason: 'r' }],
  ['decision:block on UserPromptSubmit: prompt blocked', 'UserPromptSubmit', { decision: 'block', reason: 'no' }, { kind: 'block', reason: 'no' }],
  ['decision:block on Stop: the turn continues with feedback', 'Stop', { decision: 'block', reason: 'keep going' }, { kind: 'block', reason: 'keep going' }],
  ['decision:block on SubagentStop', 'SubagentStop', { decision: 'block', reason: 'more' }, { kind: 'block', reason: 'more' }],
  ['decision:block on PostToolBatch: the loop stops', 'PostToolBatch', { decision: 'block', reason: 'halt' }, { kind: 'block', reason: 'halt' }],
  ['decision:block on SessionStart has no blocking path: ignored', 'SessionStart', { decision: 'block', reason: 'x' }, { kind: 'ok' }],
  ['§5.1 permissionDecision deny', 'PreToolUse', deny('nope'), { kind: 'block', decision: 'deny', reason: 'nope' }],
  ['§5.1 permissionDecision allow', 'PreToolUse', allow, { kind: 'ok', decision: 'allow' }],
  ['§5.1 permissionDecision ask with reason', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'check' } }, { kind: 'ok', decision: 'ask', reason: 'check' }],
  ['§5.1 permissionDecision defer: a defer decision with its reason', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer', permissionDecisionReason: 'later' } }, { kind: 'ok', decision: 'defer', reason: 'later' }],
  ['§5.1 updatedInput with allow', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -a' } } }, { kind: 'ok', decision: 'allow', updatedInput: { command: 'ls -a' } }],
  ['§5.1 updatedInput without a decision', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls -a' } } }, { kind: 'ok', updatedInput: { command: 'ls -a' } }],
  ['§5.1 updatedInput that is not an object: error', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: 'ls' } }, { kind: 'error', failureKind: 'invalid_output' }],
  ['§5.1 additionalContext', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ctx' } }, { kind: 'ok', additionalContext: 'ctx' }],
  ['§5.2 PostToolUse additionalContext', 'PostToolUse', { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' } }, { kind: 'ok', additionalContext: 'c' }],
  ['§5.2 PostToolUse updatedMCPToolOutput', 'PostToolUse', { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: [{ type: 'text', text: 'new' }] } }, { kind: 'ok', updatedToolOutput: [{ type: 'text', text: 'new' }] }],
  ['§5.2 UserPromptSubmit additionalContext', 'UserPromptSubmit', { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'c' } }, { kind: 'ok', additionalContext: 'c' }],
  ['§5.2 SessionStart additionalContext', 'SessionStart', { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'c' } }, { kind: 'ok', additionalContext: 'c' }],
  ['§5.2 SessionStart watchPaths of the wrong type: error', 'SessionStart', { hookSpecificOutput: { hookEventName: 'SessionStart', watchPaths: 'x' } }, { kind: 'error', failureKind: 'invalid_output' }],
  ['§5.2 PermissionRequest allow + updatedInput', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'ls' } } } }, { kind: 'ok', decision: 'allow', updatedInput: { command: 'ls' } }],
  ['§5.2 PermissionRequest deny + message + interrupt', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'm', interrupt: true } } }, { kind: 'block', decision: 'deny', reason: 'm', interrupt: true }],
  ['§5.2 PermissionRequest with no decision: unanswered', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest' } }, { kind: 'ok' }],
  ['§5.2 PermissionRequest bad behavior: error', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'maybe' } } }, { kind: 'error', failureKind: 'invalid_output' }]
]

describe('parseClaudeHookOutput: §4 exit codes', () => {
  it.each(EXIT_CODE_TABLE)('%s', (_name, event, result, expected) => {
    expect(parseClaudeHookOutput(event, result)).toEqual(expected)
  })

  it.each(EXIT2_PER_EVENT)('exit 2 on %s', (event, expected) => {
    expect(parseClaudeHookOutput(event, exited(2, '', 'E'))).toMatchObject(expected)
  })

  it('a signal death is a non-blocking error', () => {
    expect(parseClaudeHookOutput('PreToolUse', { ...exited(0), exitCode: null, signal: 'SIGSEGV' })).toMatchObject({ kind: 'error', failureKind: 'signal' })
  })

  it('spawn_error and aborted pass through as failures', () => {
    expect(parseClaudeHookOutput('PreToolUse', killed('spawn_error'))).toMatchObject({ kind: 'error', failureKind: 'spawn_error' })
    expect(parseClaudeHookOutput('PreToolUse', killed('aborted'))).toMatchObject({ kind: 'error', failureKind: 'aborted' })
  })

  it('cut JSON stdout is not used', () => {
    const result = exited(0, '{"hookSpecificOutput": {"hookEventName": "PreTo', '', { stdoutTruncated: true })
    expect(parseClaudeHookOutput('PreToolUse', result)).toMatchObject({ kind: 'error', failureKind: 'invalid_output' })
  })
})

describe('parseClaudeHookOutput: §5 JSON output', () => {
  it.each(JSON_TABLE)('%s', (_name, event, output, expected) => {
    expect(parseClaudeHookOutput(event, json(output))).toMatchObject(expected)
  })

  it('a wrong hookEventName says what was expected', () => {
    const outcome = parseClaudeHookOutput('PreToolUse', json({ hookSpecificOutput: { hookEventName: 'PostToolUse' } }))
    expect(outcome.errorMessage).toBe('hook returned incorrect event name: expected "PreToolUse", got "PostToolUse"')
  })

  it('an invalid enum error names the field', () => {
    const outcome = parseClaudeHookOutput('PreToolUse', json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' } }))
    expect(outcome.errorMessage).toMatch(/hookSpecificOutput\.permissionDecision/)
    expect(outcome.decision).toBeUndefined()
  })

  it('keeps event-specific fields in hookSpecificOutput', () => {
    const outcome = parseClaudeHookOutput('UserPromptSubmit', json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', sessionTitle: 'T', unknownKey: 1 } }))
    expect(outcome.hookSpecificOutput).toEqual({ hookEventName: 'UserPromptSubmit', sessionTitle: 'T' })
  })

  it('exit 1 with context JSON: still honoured, recorded as an error', () => {
    const outcome = parseClaudeHookOutput('PostToolUse', json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' } }, 1))
    expect(outcome).toMatchObject({ kind: 'error', failureKind: 'nonzero_exit', additionalContext: 'c' })
  })
})

describe('parseClaudeHookOutput: onFailure "block" (§3)', () => {
  it('turns a failed exit into a deny with stderr', () => {
    expect(parseClaudeHookOutput('PreToolUse', exited(1, '', 'boom\n'), { onFailure: 'block' })).toEqual({
      kind: 'block',
      decision: 'deny',
      reason: 'failed; blocking because onFailure is "block"\nboom',
      failureKind: 'nonzero_exit',
      errorMessage: 'hook exited with code 1'
    })
  })

  it('turns a timeout into a block', () => {
    expect(parseClaudeHookOutput('Stop', killed('timeout'), { onFailure: 'block' })).toMatchObject({
      kind: 'block',
      reason: 'timed out; blocking because onFailure is "block"'
    })
  })

  it('leaves successes and blocks alone', () => {
    expect(parseClaudeHookOutput('PreToolUse', exited(0), { onFailure: 'block' })).toEqual({ kind: 'ok' })
    expect(parseClaudeHookOutput('PreToolUse', exited(2, '', 'x'), { onFailure: 'block' })).toMatchObject({ kind: 'block', reason: 'x' })
  })
})

describe('parseClaudeHookOutput: http handlers', () => {
  it('a 200 body is used like JSON stdout', () => {
    expect(parseClaudeHookOutput('PreToolUse', http(200, JSON.stringify(deny('via http'))))).toMatchObject({ kind: 'block', decision: 'deny', reason: 'via http' })
  })

  it('a non-2xx status is a non-blocking error, its body ignored', () => {
    expect(parseClaudeHookOutput('PreToolUse', http(500, JSON.stringify(deny('x'))))).toMatchObject({ kind: 'error', failureKind: 'http_status' })
  })

  it('a network failure is a non-blocking error', () => {
    expect(parseClaudeHookOutput('PreToolUse', http(null, '', 'network_error'))).toMatchObject({ kind: 'error', failureKind: 'network_error' })
  })
})

describe('parseClaudeHookOutput with real processes', () => {
  it('a shell syntax error blocks like an intentional exit 2 (§4)', async () => {
    const result = await runCommandHook({ command: 'if then fi', stdin: '{}' })
    expect(parseClaudeHookOutput('PreToolUse', result)).toMatchObject({ kind: 'block', decision: 'deny' })
  })

  it('a missing command is a non-blocking error (exit 127)', async () => {
    const result = await runCommandHook({ command: './no-such-hook.sh', stdin: '{}' })
    expect(parseClaudeHookOutput('PreToolUse', result)).toMatchObject({ kind: 'error', failureKind: 'nonzero_exit' })
  })

  it('a python hook denying via JSON', async () => {
    const script = `import json,sys; d=json.load(sys.stdin); print(json.dumps({"hookSpecificOutput":{"hookEventName":d["hook_event_name"],"permissionDecision":"deny","permissionDecisionReason":"no "+d["tool_input"]["command"]}}))`
    const result = await runCommandHook({
      command: `python3 -c '${script}'`,
      stdin: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } })
    })
    expect(parseClaudeHookOutput('PreToolUse', result)).toMatchObject({ kind: 'block', decision: 'deny', reason: 'no rm -rf /' })
  })
})
