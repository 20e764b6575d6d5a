// Codex answers: the general rules of codex-hooks.md §5 and every row of the §5.1 decision tables.
import { describe, it, expect } from 'vitest'
import { parseCodexHookOutput } from './parse-codex'
import { runCommandHook } from './runner'
import type { HookOutcome } from './outcome'
import type { CodexHookEvent } from './events'
import { exited, json, killed } from './test-fixtures'
import type { CommandHookResult } from './runner'

type Row = [name: string, event: CodexHookEvent, result: CommandHookResult, expected: Partial<HookOutcome>]

const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } })
const FAILED = { kind: 'error' } as const
const OK_NOTHING: HookOutcome = { kind: 'ok' }

/** §5 general rules. */
const GENERAL: Row[] = [
  ['exit 0, empty stdout: no effect', 'PreToolUse', exited(0), OK_NOTHING],
  ['exit 0, JSON with surrounding whitespace: parsed', 'UserPromptSubmit', exited(0, '\n  {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"c"}}  \n'), { kind: 'ok', additionalContext: 'c' }],
  ['unknown field: failed, no effect', 'PreToolUse', json({ ...pre({ permissionDecision: 'deny', permissionDecisionReason: 'r' }), extra: 1 }), { kind: 'error', failureKind: 'invalid_output' }],
  ['unknown nested field: failed', 'PreToolUse', json(pre({ additionalContext: 'c', bogus: true })), { kind: 'error', failureKind: 'invalid_output' }],
  ['a JSON array: failed', 'PreToolUse', exited(0, '[1,2]'), { kind: 'error', failureKind: 'bad_json' }],
  ['two objects: failed', 'PreToolUse', exited(0, '{} {}'), { kind: 'error', failureKind: 'bad_json' }],
  ['trailing text: failed', 'PreToolUse', exited(0, '{"continue": true} done'), { kind: 'error', failureKind: 'bad_json' }],
  ['plain text on UserPromptSubmit: context', 'UserPromptSubmit', exited(0, 'extra context\n'), { kind: 'ok', plainStdoutContext: 'extra context' }],
  ['plain text on SessionStart: context', 'SessionStart', exited(0, 'ctx'), { kind: 'ok', plainStdoutContext: 'ctx' }],
  ['plain text on PreToolUse: ignored', 'PreToolUse', exited(0, 'hi'), OK_NOTHING],
  ['plain text on PostToolUse: ignored', 'PostToolUse', exited(0, 'hi'), OK_NOTHING],
  ['plain text on PreCompact: ignored', 'PreCompact', exited(0, 'hi'), OK_NOTHING],
  ['plain text on PreModelRequest: ignored', 'PreModelRequest', exited(0, 'hi'), OK_NOTHING],
  ['plain text on Stop: failed (invalid JSON)', 'Stop', exited(0, 'hi'), { kind: 'error', failureKind: 'bad_json' }],
  ['exit 2 + stderr: blocking path, stdout ignored', 'PreToolUse', exited(2, '{"continue":true}', '  reason  \n'), { kind: 'block', decision: 'deny', reason: 'reason' }],
  ['exit 2 without stderr: failed, no effect', 'PreToolUse', exited(2, '', '  \n'), { kind: 'error', failureKind: 'invalid_output' }],
  ['exit 2 on SessionStart (no blocking path): failed', 'SessionStart', exited(2, '', 'x'), { kind: 'error', failureKind: 'nonzero_exit' }],
  ['exit 2 on PreCompact: failed with the stderr text', 'PreCompact', exited(2, '', 'no compaction'), { kind: 'error', failureKind: 'nonzero_exit', errorMessage: 'no compaction' }],
  ['exit 2 on PostModelRequest: failed with the stderr text', 'PostModelRequest', exited(2, '', 'err'), { kind: 'error', errorMessage: 'err' }],
  ['exit 1: failed, stderr ignored', 'PreToolUse', exited(1, '', 'x'), { kind: 'error', failureKind: 'nonzero_exit', errorMessage: 'hook exited with code 1' }],
  ['exit 1 with a deny JSON: still no effect', 'PreToolUse', json(pre({ permissionDecision: 'deny', permissionDecisionReason: 'r' }), 1), { kind: 'error', failureKind: 'nonzero_exit' }],
  ['killed by a signal: failed', 'PreToolUse', { ...exited(0), exitCode: null, signal: 'SIGKILL' }, { kind: 'error', failureKind: 'signal', errorMessage: 'hook exited without a status code' }],
  ['timeout: failed, no effect', 'PreToolUse', killed('timeout', JSON.stringify(pre({ permissionDecision: 'deny', permissionDecisionReason: 'r' }))), { kind: 'error', failureKind: 'timeout' }],
  ['wrong but known hookEventName: accepted', 'PreToolUse', json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ctx' } }), { kind: 'ok', additionalContext: 'ctx' }],
  ['missing hookEventName: failed', 'PreToolUse', json({ hookSpecificOutput: { additionalContext: 'ctx' } }), { kind: 'error', failureKind: 'invalid_output' }],
  ['null optional fields are accepted (serde Option)', 'PreToolUse', json({ systemMessage: null, hookSpecificOutput: null }), OK_NOTHING]
]

/** §5.1 PreToolUse. */
const PRE_TOOL_USE: Row[] = [
  ['deny + non-empty reason: blocked', 'PreToolUse', json(pre({ permissionDecision: 'deny', permissionDecisionReason: 'no rm' })), { kind: 'block', decision: 'deny', reason: 'no rm' }],
  ['deny without reason: failed, tool runs', 'PreToolUse', json(pre({ permissionDecision: 'deny' })), FAILED],
  ['deny with a blank reason: failed', 'PreToolUse', json(pre({ permissionDecision: 'deny', permissionDecisionReason: '  ' })), FAILED],
  ['legacy decision:block + reason: blocks like deny', 'PreToolUse', json({ decision: 'block', reason: 'legacy' }), { kind: 'block', decision: 'deny', reason: 'legacy' }],
  ['legacy decision:approve: failed (unsupported)', 'PreToolUse', json({ decision: 'approve' }), { kind: 'error', failureKind: 'unsupported' }],
  ['reason without decision: failed', 'PreToolUse', json({ reason: 'r' }), FAILED],
  ['allow + updatedInput: input replaced', 'PreToolUse', json(pre({ permissionDecision: 'allow', updatedInput: { command: 'echo safe' } })), { kind: 'ok', decision: 'allow', updatedInput: { command: 'echo safe' } }],
  ['allow without updatedInput: failed', 'PreToolUse', json(pre({ permissionDecision: 'allow' })), { kind: 'error', failureKind: 'unsupported' }],
  ['updatedInput without allow: failed', 'PreToolUse', json(pre({ updatedInput: { command: 'x' } })), FAILED],
  ['ask: failed (unsupported)', 'PreToolUse', json(pre({ permissionDecision: 'ask' })), { kind: 'error', failureKind: 'unsupported' }],
  ['additionalContext: context', 'PreToolUse', json(pre({ additionalContext: 'note' })), { kind: 'ok', additionalContext: 'note' }],
  ['additionalContext together with deny', 'PreToolUse', json(pre({ permissionDecision: 'deny', permissionDecisionReason: 'r', additionalContext: 'why' })), { kind: 'block', decision: 'deny', reason: 'r', additionalContext: 'why' }],
  ['continue:false: failed (unsupported)', 'PreToolUse', json({ continue: false }), { kind: 'error', failureKind: 'unsupported' }],
  ['stopReason: failed (unsupported)', 'PreToolUse', json({ stopReason: 's' }), { kind: 'error', failureKind: 'unsupported' }],
  ['suppressOutput: failed (unsupported)', 'PreToolUse', json({ suppressOutput: true }), { kind: 'error', failureKind: 'unsupported' }],
  ['systemMessage: warning entry only', 'PreToolUse', json({ systemMessage: 'heads up' }), { kind: 'ok', systemMessage: 'heads up' }]
]

const perm = (decision: Record<string, unknown> | undefined) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', ...(decision ? { decision } : {}) } })

/** §5.1 PermissionRequest. */
const PERMISSION_REQUEST: Row[] = [
  ['behavior allow: approved', 'PermissionRequest', json(perm({ behavior: 'allow' })), { kind: 'ok', decision: 'allow' }],
  ['behavior deny + message: blocked', 'PermissionRequest', json(perm({ behavior: 'deny', message: 'not now' })), { kind: 'block', decision: 'deny', reason: 'not now' }],
  ['deny without message: default text', 'PermissionRequest', json(perm({ behavior: 'deny' })), { kind: 'block', decision: 'deny', reason: 'PermissionRequest hook denied approval' }],
  ['exit 2 + stderr: deny with stderr', 'PermissionRequest', exited(2, '', 'nope'), { kind: 'block', decision: 'deny', reason: 'nope' }],
  ['no decision: falls through', 'PermissionRequest', json(perm(undefined)), OK_NOTHING],
  ['exit 1: falls through', 'PermissionRequest', exited(1), FAILED],
  ['invalid JSON: falls through', 'PermissionRequest', exited(0, '{oops'), FAILED],
  ['updatedInput: falls through', 'PermissionRequest', json(perm({ behavior: 'allow', updatedInput: { command: 'x' } })), { kind: 'error', failureKind: 'unsupported' }],
  ['updatedPermissions: falls through', 'PermissionRequest', json(perm({ behavior: 'allow', updatedPermissions: [] })), { kind: 'error', failureKind: 'unsupported' }],
  ['interrupt:true: falls through', 'PermissionRequest', json(perm({ behavior: 'deny', interrupt: true })), { kind: 'error', failureKind: 'unsupported' }],
  ['systemMessage: warning, falls through', 'PermissionRequest', json({ systemMessage: 'w' }), { kind: 'ok', systemMessage: 'w' }]
]

const post = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PostToolUse', ...fields } })

/** §5.1 PostToolUse. */
const POST_TOOL_USE: Row[] = [
  ['exit 2 + stderr: output replaced by stderr', 'PostToolUse', exited(2, '', 'replaced'), { kind: 'block', reason: 'replaced' }],
  ['decision:block + reason: output replaced by reason', 'PostToolUse', json({ decision: 'block', reason: 'R' }), { kind: 'block', reason: 'R' }],
  ['block without reason: failed', 'PostToolUse', json({ decision: 'block' }), FAILED],
  ['reason without decision: failed', 'PostToolUse', json({ reason: 'R' }), FAILED],
  ['additionalContext', 'PostToolUse', json(post({ additionalContext: 'c' })), { kind: 'ok', additionalContext: 'c' }],
  ['continue:false + stopReason: stopped', 'PostToolUse', json({ continue: false, stopReason: 'halt' }), { kind: 'ok', continue: false, stopReason: 'halt' }],
  ['suppressOutput: failed (unsupported)', 'PostToolUse', json({ suppressOutput: true }), { kind: 'error', failureKind: 'unsupported' }],
  ['updatedMCPToolOutput: failed (unsupported)', 'PostToolUse', json(post({ updatedMCPToolOutput: { content: [] } })), { kind: 'error', failureKind: 'unsupported' }],
  ['updatedToolOutput: unknown field, failed', 'PostToolUse', json(post({ updatedToolOutput: 'x' })), { kind: 'error', failureKind: 'invalid_output' }]
]

const ups = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', ...fields } })

/** §5.1 UserPromptSubmit. */
const USER_PROMPT_SUBMIT: Row[] = [
  ['plain stdout: context', 'UserPromptSubmit', exited(0, 'c'), { kind: 'ok', plainStdoutContext: 'c' }],
  ['additionalContext: context', 'UserPromptSubmit', json(ups({ additionalContext: 'c' })), { kind: 'ok', additionalContext: 'c' }],
  ['exit 2 + stderr: blocked', 'UserPromptSubmit', exited(2, '', 'no'), { kind: 'block', reason: 'no' }],
  ['decision:block + reason: blocked', 'UserPromptSubmit', json({ decision: 'block', reason: 'no' }), { kind: 'block', reason: 'no' }],
  ['block keeps its context', 'UserPromptSubmit', json({ decision: 'block', reason: 'no', ...ups({ additionalContext: 'kept' }) }), { kind: 'block', reason: 'no', additionalContext: 'kept' }],
  ['continue:false + stopReason: stopped', 'UserPromptSubmit', json({ continue: false, stopReason: 's' }), { kind: 'ok', continue: false, stopReason: 's' }],
  ['exit 2 without stderr: failed', 'UserPromptSubmit', exited(2), FAILED],
  ['block without reason: failed', 'UserPromptSubmit', json({ decision: 'block' }), FAILED],
  ['exit 1: failed', 'UserPromptSubmit', exited(1, 'c'), FAILED],
  ['invalid JSON: failed', 'UserPromptSubmit', exited(0, '{"a":'), { kind: 'error', failureKind: 'bad_json' }]
]

/** §5.1 SessionStart (and SubagentStart). */
const SESSION_START: Row[] = [
  ['plain stdout: context', 'SessionStart', exited(0, 'c\n'), { kind: 'ok', plainStdoutContext: 'c' }],
  ['additionalContext: context', 'SessionStart', json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'c' } }), { kind: 'ok', additionalContext: 'c' }],
  ['SubagentStart additionalContext: context', 'SubagentStart', json({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'c' } }), { kind: 'ok', additionalContext: 'c' }],
  ['exit 2: failed, no special meaning', 'SessionStart', exited(2, '', 'x'), FAILED],
  ['continue:false + stopReason: stopped', 'SessionStart', json({ continue: false, stopReason: 's' }), { kind: 'ok', continue: false, stopReason: 's' }],
  ['suppressOutput: accepted', 'SessionStart', json({ suppressOutput: true }), { kind: 'ok', suppressOutput: true }],
  ['decision: unknown field, failed', 'SessionStart', json({ decision: 'block', reason: 'r' }), { kind: 'error', failureKind: 'invalid_output' }]
]

/** §5.1 Stop (and SubagentStop). */
const STOP: Row[] = [
  ['exit 2 + stderr: blocked, the turn continues', 'Stop', exited(2, '', 'keep going'), { kind: 'block', reason: 'keep going' }],
  ['decision:block + reason: blocked', 'Stop', json({ decision: 'block', reason: 'R' }), { kind: 'block', reason: 'R' }],
  ['SubagentStop decision:block + reason: blocked', 'SubagentStop', json({ decision: 'block', reason: 'R' }), { kind: 'block', reason: 'R' }],
  ['continue:false + stopReason: stopped', 'Stop', json({ continue: false, stopReason: 'done' }), { kind: 'ok', continue: false, stopReason: 'done' }],
  ['plain stdout: failed', 'Stop', exited(0, 'text'), FAILED],
  ['hookSpecificOutput: failed', 'Stop', json({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'c' } }), { kind: 'error', failureKind: 'invalid_output' }],
  ['exit 2 without stderr: failed', 'Stop', exited(2), FAILED],
  ['block without reason: failed', 'Stop', json({ decision: 'block' }), FAILED],
  ['exit 1: failed', 'Stop', exited(1), FAILED]
]

/** §5.1 PreCompact / PostCompact, Interrupt, model-request hooks, SessionEnd. */
const OTHERS: Row[] = [
  ['PreCompact continue:false: compaction cancelled', 'PreCompact', json({ continue: false }), { kind: 'ok', continue: false }],
  ['PreCompact exit 2 + stderr: failed with the stderr text', 'PreCompact', exited(2, '', 'why'), { kind: 'error', errorMessage: 'why' }],
  ['PreCompact systemMessage: warning', 'PreCompact', json({ systemMessage: 'w' }), { kind: 'ok', systemMessage: 'w' }],
  ['PreCompact decision: unknown field, failed', 'PreCompact', json({ decision: 'block' }), { kind: 'error', failureKind: 'invalid_output' }],
  ['PreCompact plain text: ignored', 'PreCompact', exited(0, 'x'), OK_NOTHING],
  ['PostCompact systemMessage: warning', 'PostCompact', json({ systemMessage: 'w' }), { kind: 'ok', systemMessage: 'w' }],
  ['Interrupt systemMessage: warning', 'Interrupt', json({ systemMessage: 'w' }), { kind: 'ok', systemMessage: 'w' }],
  ['PreModelRequest: stdout ignored entirely', 'PreModelRequest', json({ continue: false, systemMessage: 'x' }), OK_NOTHING],
  ['PostModelRequest: stdout ignored entirely', 'PostModelRequest', json({ hookSpecificOutput: { additionalContext: 'x' } }), OK_NOTHING],
  ['SessionEnd: no output schema, stdout ignored', 'SessionEnd', json({ anything: 1 }), OK_NOTHING]
]

describe.each([
  ['§5 general rules', GENERAL],
  ['§5.1 PreToolUse', PRE_TOOL_USE],
  ['§5.1 PermissionRequest', PERMISSION_REQUEST],
  ['§5.1 PostToolUse', POST_TOOL_USE],
  ['§5.1 UserPromptSubmit', USER_PROMPT_SUBMIT],
  ['§5.1 SessionStart', SESSION_START],
  ['§5.1 Stop', STOP],
  ['§5.1 PreCompact, Interrupt, model requests, SessionEnd', OTHERS]
] as const)('parseCodexHookOutput: %s', (_title, rows) => {
  it.each(rows)('%s', (_name, event, result, expected) => {
    const outcome = parseCodexHookOutput(event, result)
    if (expected === OK_NOTHING) expect(outcome).toEqual(OK_NOTHING)
    else expect(outcome).toMatchObject(expected)
  })
})

describe('parseCodexHookOutput: failures carry no effect fields (fail open, §7)', () => {
  it('a failed answer with context delivers nothing', () => {
    const outcome = parseCodexHookOutput('PreToolUse', json(pre({ permissionDecision: 'ask', additionalContext: 'c' })))
    expect(outcome).toEqual({ kind: 'error', failureKind: 'unsupported', errorMessage: 'unsupported permissionDecision:ask' })
  })

  it('an unknown field error names the field', () => {
    const outcome = parseCodexHookOutput('PostToolUse', json(post({ updatedToolOutput: 'x' })))
    expect(outcome.errorMessage).toMatch(/hookSpecificOutput/)
    expect(outcome.errorMessage).toMatch(/updatedToolOutput/)
  })
})

describe('parseCodexHookOutput with real processes under /bin/bash', () => {
  it('a bash hook blocking with exit 2 and stderr', async () => {
    const result = await runCommandHook({
      shell: '/bin/bash',
      command: 'input=$(cat); [[ "$input" == *rm* ]] && { echo "no rm here" >&2; exit 2; }; exit 0',
      stdin: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } })
    })
    expect(parseCodexHookOutput('PreToolUse', result)).toEqual({ kind: 'block', decision: 'deny', reason: 'no rm here' })
  })

  it('a node hook rewriting the input', async () => {
    const script =
      "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const d=JSON.parse(s);console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'allow',updatedInput:{command:d.tool_input.command+' --dry-run'}}}))})"
    const result = await runCommandHook({
      shell: '/bin/bash',
      command: `node -e "${script}"`,
      stdin: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make' } })
    })
    expect(parseCodexHookOutput('PreToolUse', result)).toMatchObject({ kind: 'ok', decision: 'allow', updatedInput: { command: 'make --dry-run' } })
  })
})
