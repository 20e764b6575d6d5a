// claude-code-hooks.md §5, §5.2 and §6 for every event the bridge maps (other than PreToolUse):
// input JSON field names, what reaches the model (wording and role), and what stops the loop.
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  bashThenDone,
  createHarness,
  eventually,
  failingTool,
  firstToolResult,
  hookCommand,
  hooksOf,
  mcpEchoTool,
  requestMessages,
  toolMessages,
  userTexts,
  type Harness
} from './test-harness'
import { claudeTranscriptPath } from './transcript'
import permissionPolicy from '../permission-policy/index'

let h: Harness | undefined
let server: Server | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

const specific = (event: string, fields: Record<string, unknown>, top: Record<string, unknown> = {}) => ({ ...top, hookSpecificOutput: { hookEventName: event, ...fields } })

describe('S14/S17 PostToolUse (§6)', () => {
  it('gets tool_name, tool_input, tool_use_id, the structured tool_response and duration_ms (python)', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['PostToolUse', 'Bash', hookCommand('python', { record: 'post.jsonl' })]) }, script: bashThenDone() })
    await h.run('go')
    const [input] = h.records('post.jsonl')
    expect(input).toMatchObject({
      session_id: h.log.id,
      transcript_path: claudeTranscriptPath({ sessionId: h.log.id, transcriptPath: h.log.path }),
      cwd: h.workspace,
      hook_event_name: 'PostToolUse',
      permission_mode: 'default',
      prompt_id: 'turn-1',
      tool_name: 'Bash',
      tool_input: { command: 'echo ran' },
      tool_use_id: 'call_0_0',
      tool_response: { stdout: 'ran', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
      effort: { level: 'medium' }
    })
    // Exactly Claude Code's Bash keys, in its order (§6 PostToolUse): no exitCode, no Seam extras.
    expect(Object.keys(input.tool_response as object)).toEqual(['stdout', 'stderr', 'interrupted', 'isImage', 'noOutputExpected'])
    expect(typeof input.duration_ms).toBe('number')
    // Claude Code's key order (§0, §6 PostToolUse).
    expect(Object.keys(input)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'permission_mode',
      'effort',
      'hook_event_name',
      'tool_name',
      'tool_input',
      'tool_response',
      'tool_use_id',
      'duration_ms'
    ])
  })

  it('additionalContext (bash) reaches the model after the result: `PostToolUse:Bash hook additional context: <text>`', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['PostToolUse', 'Bash', hookCommand('bash', { stdout: specific('PostToolUse', { additionalContext: 'lint passed' }) })]) },
      script: bashThenDone()
    })
    await h.run('go')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(userTexts(h.model, 1)).toBe('go\n----\n<system-reminder>\nPostToolUse:Bash hook additional context: lint passed\n</system-reminder>')
  })

  it('decision "block" (node): the tool result is kept; the model gets `PostToolUse:Bash hook blocking error from command: "<cmd>": <reason>`', async () => {
    const command = hookCommand('node', { stdout: { decision: 'block', reason: 'formatting is off' } })
    h = await createHarness({ user: { hooks: hooksOf(['PostToolUse', 'Bash', command]) }, script: bashThenDone() })
    await h.run('go')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(userTexts(h.model, 1)).toContain(`PostToolUse:Bash hook blocking error from command: "${command}": formatting is off`)
  })

  it('exit 2 (bash): `PostToolUse:Bash hook blocking error from command: "<cmd>": [<cmd>]: <stderr>`; contexts come before errors', async () => {
    const blocker = hookCommand('bash', { exit: 2, stderr: 'tests fail' })
    const context = hookCommand('python', { stdout: specific('PostToolUse', { additionalContext: 'ctx from python' }), sleep: 0.2 })
    h = await createHarness({ user: { hooks: hooksOf(['PostToolUse', 'Bash', blocker], ['PostToolUse', 'Bash', context]) }, script: bashThenDone() })
    await h.run('go')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(userTexts(h.model, 1)).toBe(
      `go\n----\n<system-reminder>\nPostToolUse:Bash hook additional context: ctx from python\n\nPostToolUse:Bash hook blocking error from command: "${blocker}": [${blocker}]: tests fail\n</system-reminder>`
    )
  })

  it('updatedMCPToolOutput replaces the output of an MCP tool only', async () => {
    const replace = hookCommand('node', { stdout: specific('PostToolUse', { updatedMCPToolOutput: [{ type: 'text', text: 'redacted' }] }) })
    h = await createHarness({
      user: { hooks: hooksOf(['PostToolUse', 'mcp__srv__echo|Bash', replace]) },
      tools: [mcpEchoTool],
      script: [{ toolCalls: [{ name: 'mcp__srv__echo', args: { text: 'secret' } }, { name: 'Bash', args: { command: 'echo plain' } }] }, { text: 'done' }]
    })
    await h.run('go')
    const results = requestMessages(h.model, 1).filter((m) => m.role === 'tool')
    expect(results).toMatchObject([
      { toolName: 'mcp__srv__echo', content: 'redacted', isError: false },
      { toolName: 'Bash', content: 'plain', isError: false }
    ])
  })

  it('continue:false (python): the tool ran, no further model request', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['PostToolUse', 'Bash', hookCommand('python', { stdout: { continue: false, stopReason: 'halt' } })]) }, script: bashThenDone() })
    await h.run('go')
    expect(h.model.requests).toHaveLength(1)
    expect(h.notices()).toContain('info: Turn stopped by hook:PostToolUse: halt')
  })
})

describe('PostToolUseFailure (§6)', () => {
  it('fires instead of PostToolUse when the tool fails, with error and is_interrupt; exit 2 and additionalContext are worded per event', async () => {
    const blocker = hookCommand('bash', { exit: 2, stderr: 'fix it', record: 'fail.jsonl' })
    const context = hookCommand('node', { stdout: specific('PostToolUseFailure', { additionalContext: 'known flaky' }) })
    h = await createHarness({
      user: { hooks: hooksOf(['PostToolUseFailure', 'Fails', context], ['PostToolUseFailure', 'Fails', blocker], ['PostToolUse', undefined, hookCommand('bash', { record: 'post.jsonl' })]) },
      tools: [failingTool],
      script: [{ toolCalls: [{ name: 'Fails', args: { why: 'disk full' } }] }, { text: 'done' }]
    })
    await h.run('go')
    expect(h.records('post.jsonl')).toEqual([])
    expect(h.records('fail.jsonl')).toMatchObject([{ hook_event_name: 'PostToolUseFailure', tool_name: 'Fails', error: 'Exit code 3\ndisk full', is_interrupt: false }])
    expect(firstToolResult(h.model)).toEqual({ content: 'Exit code 3\ndisk full', isError: true })
    expect(userTexts(h.model, 1)).toContain(
      `PostToolUseFailure:Fails hook additional context: known flaky\n\nPostToolUseFailure:Fails hook blocking error from command: "${blocker}": [${blocker}]: fix it`
    )
  })
})

describe('PostToolUseFailure: when it does not fire, and `if` (§6, §2.2)', () => {
  it('not for a call that failed validation nor for one a PreToolUse hook denied; `if` filters it as on any tool event, and is ignored on Stop', async () => {
    h = await createHarness({
      user: {
        hooks: hooksOf(
          ['PreToolUse', 'Bash', hookCommand('bash', { exit: 2, stderr: 'no shell' })],
          ['PostToolUseFailure', undefined, hookCommand('bash', { record: 'all.jsonl' })],
          ['PostToolUseFailure', undefined, { command: hookCommand('bash', { record: 'if-bash.jsonl' }), if: 'Bash' }],
          ['PostToolUseFailure', undefined, { command: hookCommand('bash', { record: 'if-fails.jsonl' }), if: 'Fails' }],
          ['Stop', undefined, { command: hookCommand('bash', { record: 'stop.jsonl' }), if: 'Bash(git *)' }]
        )
      },
      tools: [failingTool],
      script: [{ toolCalls: [{ id: 'ran', name: 'Fails', args: { why: 'disk full' } }, { id: 'invalid', name: 'Fails', args: { why: 42 } }, { id: 'denied', name: 'Bash', args: { command: 'echo hi' } }] }, { text: 'done' }]
    })
    await h.run('go')
    expect(toolMessages(h.model, 1).map((message) => message.isError)).toEqual([true, true, true])
    expect(h.records('all.jsonl')).toMatchObject([{ hook_event_name: 'PostToolUseFailure', tool_name: 'Fails', tool_use_id: 'ran', error: 'Exit code 3\ndisk full', is_interrupt: false }])
    expect(h.records('all.jsonl')[0]).toHaveProperty('duration_ms')
    expect(h.records('if-bash.jsonl')).toEqual([])
    expect(h.records('if-fails.jsonl')).toMatchObject([{ tool_use_id: 'ran' }])
    expect(h.records('stop.jsonl')).toHaveLength(1)
  })
})

describe('S8 PostToolBatch (§6)', () => {
  it('once per step with tool_calls (tool_response = the text the model gets); additionalContext reaches the model', async () => {
    const command = hookCommand('python', { stdout: specific('PostToolBatch', { additionalContext: 'batch seen' }), record: 'batch.jsonl' })
    h = await createHarness({
      user: { hooks: hooksOf(['PostToolBatch', 'ignored-matcher', command]) },
      tools: [mcpEchoTool],
      script: [{ toolCalls: [{ name: 'mcp__srv__echo', args: { text: 'a' } }, { name: 'mcp__srv__echo', args: { text: 'b' } }] }, { text: 'done' }]
    })
    await h.run('go')
    expect(h.records('batch.jsonl')).toMatchObject([
      {
        hook_event_name: 'PostToolBatch',
        tool_calls: [
          { tool_name: 'mcp__srv__echo', tool_input: { text: 'a' }, tool_use_id: 'call_0_0', tool_response: 'echo: a' },
          { tool_name: 'mcp__srv__echo', tool_input: { text: 'b' }, tool_use_id: 'call_0_1', tool_response: 'echo: b' }
        ]
      }
    ])
    expect(userTexts(h.model, 1)).toContain('<system-reminder>\nPostToolBatch hook additional context: batch seen\n</system-reminder>')
  })

  it.each([
    ['exit 2 (bash)', hookCommand('bash', { exit: 2, stderr: 'stop now' })],
    ['decision block (node)', hookCommand('node', { stdout: { decision: 'block', reason: 'stop now' } })]
  ])('%s stops the loop after the batch: no further model request', async (_name, command) => {
    h = await createHarness({ user: { hooks: hooksOf(['PostToolBatch', undefined, command]) }, script: bashThenDone() })
    await h.run('go')
    expect(h.model.requests).toHaveLength(1)
    expect(h.events('tool/result')).toHaveLength(1)
    expect(h.notices().join('\n')).toMatch(/Turn stopped by hook:PostToolBatch: PostToolBatch hook stopped continuation: .*stop now/)
  })
})

describe('S5/S6 UserPromptSubmit (§6)', () => {
  it('gets prompt, prompt_id, permission_mode; additionalContext reaches the model as `UserPromptSubmit hook additional context: <text>`', async () => {
    const command = hookCommand('node', { stdout: specific('UserPromptSubmit', { additionalContext: 'user is on call' }), record: 'ups.jsonl' })
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', 'NonsenseMatcherIsIgnored', command]) }, script: [{ text: 'ok' }] })
    await h.run('hello there')
    expect(h.records('ups.jsonl')).toMatchObject([{ hook_event_name: 'UserPromptSubmit', prompt: 'hello there', prompt_id: 'turn-1', permission_mode: 'default' }])
    expect(userTexts(h.model, 0)).toBe('hello there\n\n<system-reminder>\nUserPromptSubmit hook additional context: user is on call\n</system-reminder>')
  })

  it.each(['bypassPermissions', 'acceptEdits', 'plan', 'dontAsk'] as const)(
    'permission_mode follows the approval mode in force (§6 common fields): %s on prompt, tool and stop events, not at SessionStart',
    async (permissionMode) => {
      const record = hookCommand('bash', { record: 'all.jsonl' })
      h = await createHarness({
        user: { hooks: hooksOf(['SessionStart', undefined, record], ['UserPromptSubmit', undefined, record], ['PreToolUse', undefined, record], ['PostToolUse', undefined, record], ['Stop', undefined, record]) },
        script: bashThenDone(),
        config: { permissionMode }
      })
      await h.run('go')
      const inputs = h.records('all.jsonl')
      expect(inputs.map((input) => [input.hook_event_name, input.permission_mode])).toEqual([
        ['SessionStart', undefined],
        ['UserPromptSubmit', permissionMode],
        ['PreToolUse', permissionMode],
        ['PostToolUse', permissionMode],
        ['Stop', permissionMode]
      ])
    }
  )

  it('permission_mode is the permission policy\'s mode in force, read per event (§6 common fields): accept-edits reads acceptEdits', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('bash', { record: 'ups.jsonl' })]) },
      script: [{ text: 'ok' }],
      setup: (kernel) => void kernel.plugin(permissionPolicy, { mode: 'accept-edits' })
    })
    await h.run('hi')
    expect(h.records('ups.jsonl')[0].permission_mode).toBe('acceptEdits')
  })

  it('decision "block" + reason (python) blocks: `UserPromptSubmit operation blocked by hook:\\n<reason>\\n\\nOriginal prompt: <prompt>`', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('python', { stdout: { decision: 'block', reason: 'no secrets' } })]) }, script: [] })
    await h.run('token=abc')
    expect(h.model.requests).toHaveLength(0)
    expect(h.events('prompt/blocked')[0].reason).toBe('UserPromptSubmit operation blocked by hook:\nno secrets\n\nOriginal prompt: token=abc')
  })

  it('continue:false (bash): no model call, `Operation stopped by hook: <stopReason>`', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('bash', { stdout: { continue: false, stopReason: 'maintenance' } })]) }, script: [] })
    await h.run('hi')
    expect(h.model.requests).toHaveLength(0)
    expect(h.events('prompt/blocked')[0].reason).toBe('Operation stopped by hook: maintenance')
  })

  it('a block from another prompt-submit listener still wins over hook context', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('bash', { stdout: 'context' })]) },
      setup: (kernel) => kernel.context.on('agent/prompt-submit', async (_agent, _content, _source, next) => (await next(), { action: 'block', reason: 'policy says no' })),
      script: []
    })
    await h.run('hi')
    expect(h.events('prompt/blocked')).toMatchObject([{ reason: 'policy says no' }])
  })
})

describe('S4 SessionStart (§6)', () => {
  it('gets source (matcher target), no prompt_id; additionalContext reaches the model as `SessionStart hook additional context: <text>`; continue:false has no effect', async () => {
    const command = hookCommand('bash', { stdout: specific('SessionStart', { additionalContext: 'remember the style guide' }, { continue: false }), record: 'start.jsonl' })
    h = await createHarness({ user: { hooks: hooksOf(['SessionStart', 'startup', command], ['SessionStart', 'resume', hookCommand('bash', { record: 'resume.jsonl' })]) }, script: [{ text: 'ok' }] })
    await h.run('hello')
    const [input] = h.records('start.jsonl')
    expect(input).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup', session_id: h.log.id, cwd: h.workspace })
    expect(input.prompt_id).toBeUndefined()
    expect(h.records('resume.jsonl')).toEqual([])
    expect(userTexts(h.model, 0)).toBe('<system-reminder>\nSessionStart hook additional context: remember the style guide\n</system-reminder>\n\nhello')
    expect(h.events('turn/end')).toMatchObject([{ reason: 'completed' }])
  })

  it('exports appended to $CLAUDE_ENV_FILE apply to later Bash calls', async () => {
    const command = `echo 'export FROM_HOOK="set by the hook"' >> "$CLAUDE_ENV_FILE"; echo 'export SECOND=2' >> "$CLAUDE_ENV_FILE"`
    h = await createHarness({ user: { hooks: hooksOf(['SessionStart', undefined, command]) }, script: bashThenDone('echo "$FROM_HOOK/$SECOND"') })
    await h.run('go')
    expect(firstToolResult(h.model)).toEqual({ content: 'set by the hook/2', isError: false })
  })

  it('the source is resume for a reloaded session', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['SessionStart', 'resume', hookCommand('bash', { record: 'resume.jsonl' })]) }, script: [{ text: 'ok' }], source: 'resume' })
    await h.run('hi')
    expect(h.records('resume.jsonl')).toMatchObject([{ source: 'resume' }])
  })
})

describe('S7 Stop (§3, §6)', () => {
  it('exit 2 (python) continues the turn: the model gets a user-side reminder with `Stop hook feedback:\\n[<cmd>]: <stderr>`; stop_hook_active on re-entry', async () => {
    // Blocks once: the second run finds its marker file and lets the turn end.
    const command = `test -f stopped-once && exit 0; touch stopped-once; ${hookCommand('python', { exit: 2, stderr: 'you forgot the tests', record: 'stop.jsonl' })}`
    const recordAll = hookCommand('bash', { record: 'stop-all.jsonl' })
    h = await createHarness({ user: { hooks: hooksOf(['Stop', 'whatever', command], ['Stop', undefined, recordAll]) }, script: [{ text: 'first answer' }, { text: 'second answer' }] })
    await h.run('go')
    expect(h.model.requests).toHaveLength(2)
    const feedback = `Stop hook feedback:\n[${command}]: you forgot the tests`
    expect(requestMessages(h.model, 1).at(-1)).toEqual({ role: 'user', content: `<system-reminder>\n${feedback}\n</system-reminder>` })
    expect(h.events('steering/message')).toMatchObject([{ source: 'continuation', by: 'hook:Stop', text: feedback }])
    expect(h.records('stop-all.jsonl')).toMatchObject([
      { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'first answer', background_tasks: [] },
      { stop_hook_active: true, last_assistant_message: 'second answer' }
    ])
  })

  it('decision "block" (node) gives the reason as feedback plus `Stop hook blocking error from command: "<cmd>": <reason>`', async () => {
    const command = `test -f stopped-once && exit 0; touch stopped-once; ${hookCommand('node', { stdout: { decision: 'block', reason: 'run the linter' } })}`
    h = await createHarness({ user: { hooks: hooksOf(['Stop', undefined, command]) }, script: [{ text: 'a' }, { text: 'b' }] })
    await h.run('go')
    const texts = userTexts(h.model, 1)
    // Claude Code's order: the feedback user message, then the blocking-error system text.
    const feedbackAt = texts.indexOf('Stop hook feedback:\nrun the linter')
    const errorAt = texts.indexOf(`Stop hook blocking error from command: "${command}": run the linter`)
    expect(feedbackAt).toBeGreaterThanOrEqual(0)
    expect(errorAt).toBeGreaterThan(feedbackAt)
  })

  it('two blocking Stop hooks: both feedbacks are delivered, in configuration order', async () => {
    const once = (name: string, inner: string) => `test -f ${name} && exit 0; touch ${name}; ${inner}`
    const a = once('a-done', hookCommand('bash', { exit: 2, stderr: 'feedback A', sleep: 0.2 }))
    const b = once('b-done', hookCommand('bash', { exit: 2, stderr: 'feedback B' }))
    h = await createHarness({ user: { hooks: hooksOf(['Stop', undefined, a], ['Stop', undefined, b]) }, script: [{ text: 'a' }, { text: 'b' }] })
    await h.run('go')
    expect(h.events('steering/message')[0].text).toContain(`Stop hook feedback:\n[${a}]: feedback A\n\n[${b}]: feedback B`)
  })

  it('continue:false (bash) ends the turn normally; exit 1 is ignored', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['Stop', undefined, hookCommand('bash', { stdout: { continue: false, stopReason: 'x' } })], ['Stop', undefined, hookCommand('bash', { exit: 1 })]) },
      script: [{ text: 'a' }]
    })
    await h.run('go')
    expect(h.model.requests).toHaveLength(1)
    expect(h.events('turn/end')).toMatchObject([{ reason: 'completed' }])
  })

  it('a Stop hook that always blocks (§3 cap): it runs 9 times, the 9th block ends the turn; 9 model requests, with a notice', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['Stop', undefined, hookCommand('bash', { exit: 2, stderr: 'never done', record: 'stop.jsonl' })]) }, script: () => ({ text: 'again' }) })
    await h.run('go')
    expect(h.model.requests).toHaveLength(9)
    expect(h.records('stop.jsonl')).toHaveLength(9)
    expect(h.events('steering/message')).toHaveLength(8)
    expect(h.notices().join('\n')).toContain('Stop hooks blocked the end of this turn 9 times in a row; the turn ends anyway (stopBlockCap: 9)')
    expect(h.events('turn/end')).toMatchObject([{ reason: 'completed' }])
  })

  it('stopBlockCap is a setting', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['Stop', undefined, hookCommand('bash', { exit: 2, stderr: 'no' })]) }, script: () => ({ text: 'x' }), config: { stopBlockCap: 2 } })
    await h.run('go')
    expect(h.model.requests).toHaveLength(2)
  })
})

describe('SessionEnd (§3, §6)', () => {
  it('fires when the session closes, with reason "other" (matcher target); its default budget is 1.5 s', async () => {
    const slow = hookCommand('bash', { sleep: 10 })
    h = await createHarness({
      user: { hooks: hooksOf(['SessionEnd', 'other', hookCommand('node', { record: 'end.jsonl' })], ['SessionEnd', 'clear', hookCommand('bash', { record: 'clear.jsonl' })], ['SessionEnd', undefined, slow]) },
      script: [{ text: 'ok' }]
    })
    await h.run('go')
    const started = Date.now()
    await h.agent.close('closed')
    expect(Date.now() - started).toBeLessThan(5000)
    expect(h.records('end.jsonl')).toMatchObject([{ hook_event_name: 'SessionEnd', reason: 'other', session_id: h.log.id }])
    // Exactly Claude Code's fields (§6 SessionEnd): nothing that tells the hook it runs under Seam.
    expect(Object.keys(h.records('end.jsonl')[0])).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'reason'])
    expect(h.records('clear.jsonl')).toEqual([])
    expect(h.events('hook/result').find((e) => e.event === 'SessionEnd' && e.failureKind === 'timeout')?.errorMessage).toBe('hook timed out after 1500 ms')
  })
})

describe('handler options', () => {
  it('async: the call does not wait and a deny from it is ignored; its additionalContext reaches the model later without a prefix; it is recorded', async () => {
    const slowDeny = hookCommand('bash', { sleep: 0.3, stdout: specific('PreToolUse', { permissionDecision: 'deny', additionalContext: 'late context' }) })
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Bash', { command: slowDeny, async: true }]) },
      script: [{ toolCalls: [{ name: 'Bash', args: { command: 'echo ran' } }] }, { text: 'waiting', delayMs: 700 }, { text: 'done' }]
    })
    h.agent.send('go')
    await h.agent.whenIdle()
    await eventually(() => h?.events('context/message').some((e) => e.source === 'hook:PreToolUse') === true, 10_000, 'the async hook to answer')
    h.agent.send('next')
    await h.agent.whenIdle()
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.events('hook/result')).toMatchObject([{ event: 'PreToolUse', decision: 'deny' }])
    expect(userTexts(h.model, 2)).toContain('<system-reminder>\nlate context\n</system-reminder>')
  })

  it('statusMessage rides on hook/invoked, which a PreToolUse hook writes when it starts: the UI shows it while the hook runs; the result names the call', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', { command: hookCommand('bash', { sleep: 1 }), statusMessage: 'Checking the command…' }]) }, script: bashThenDone() })
    const running = h.run('go')
    await eventually(() => h!.events('hook/invoked').length === 1, 5000, 'the hook/invoked record of the running hook')
    expect(h.events('hook/invoked')[0]).toMatchObject({ event: 'PreToolUse', statusMessage: 'Checking the command…' })
    expect(h.events('hook/result')).toEqual([])
    await running
    expect(h.events('hook/result')).toMatchObject([{ event: 'PreToolUse', toolCallToken: h.events('tool/call')[0].token }])
  })

  it('if: a permission-rule filter runs the hook only for matching calls', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Bash', { command: hookCommand('bash', { record: 'git.jsonl' }), if: 'Bash(git *)' }], ['PreToolUse', 'Bash', { command: hookCommand('bash', { record: 'echo.jsonl' }), if: 'Bash(echo *)' }]) },
      script: bashThenDone('echo ran')
    })
    await h.run('go')
    expect(h.records('git.jsonl')).toEqual([])
    expect(h.records('echo.jsonl')).toHaveLength(1)
  })

  it('if: a Bash pattern matches any command of a compound line, and a line that cannot be read runs the hook', async () => {
    const hooks = hooksOf(['PreToolUse', 'Bash', { command: hookCommand('bash', { record: 'push.jsonl' }), if: 'Bash(git push *)' }], ['PreToolUse', 'Bash', { command: hookCommand('bash', { record: 'rm.jsonl' }), if: 'Bash(rm *)' }])
    h = await createHarness({ user: { hooks }, script: bashThenDone('echo tested && timeout 5 git push origin HEAD 2>/dev/null; true') })
    await h.run('go')
    expect(h.records('push.jsonl')).toHaveLength(1)
    expect(h.records('rm.jsonl')).toEqual([])
    await h.cleanup()
    h = await createHarness({ user: { hooks }, script: bashThenDone('C=true; $C') })
    await h.run('go')
    expect(h.records('push.jsonl')).toHaveLength(1)
    expect(h.records('rm.jsonl')).toHaveLength(1)
  })

  it('type http: POSTs the same JSON; the 200 body is read like stdout (a deny denies); a 500 is a visible non-blocking error', async () => {
    const bodies: unknown[] = []
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        bodies.push({ contentType: req.headers['content-type'], auth: req.headers.authorization, body: JSON.parse(body) })
        if (req.url === '/fail') {
          res.writeHead(500).end('broken')
          return
        }
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'http says no' })))
      })
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    process.env.HOOKS_TEST_TOKEN = 'tok'
    h = await createHarness({
      user: {
        hooks: hooksOf(
          ['PreToolUse', 'Bash', { type: 'http', url: `http://127.0.0.1:${port}/fail` }],
          ['PreToolUse', 'Bash', { type: 'http', url: `http://127.0.0.1:${port}/hook`, headers: { Authorization: 'Bearer $HOOKS_TEST_TOKEN' }, allowedEnvVars: ['HOOKS_TEST_TOKEN'] }]
        )
      },
      script: bashThenDone()
    })
    await h.run('go')
    delete process.env.HOOKS_TEST_TOKEN
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: http says no', isError: true })
    expect(bodies).toHaveLength(2)
    expect(bodies[1]).toMatchObject({ contentType: 'application/json', auth: 'Bearer tok', body: { hook_event_name: 'PreToolUse', tool_name: 'Bash' } })
    expect(h.events('hook/invoked').map((e) => e.handlerType)).toEqual(['http', 'http'])
    expect(h.events('hook/result')[0]).toMatchObject({ httpStatus: 500, outcomeKind: 'error', failureKind: 'http_status' })
    expect(h.notices().join('\n')).toContain(`PreToolUse hook [http://127.0.0.1:${port}/fail]`)
  })

  it('exec form (command + args) runs without a shell', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Bash', { command: 'bash', args: [hookCommand('bash').split(' ')[1].slice(1, -1), '2', '0', '-', Buffer.from('exec form says ${HOME} $HOME').toString('base64'), '-'] }]) },
      script: bashThenDone()
    })
    await h.run('go')
    expect(firstToolResult(h.model).content).toMatch(/^PreToolUse:Bash hook error: \[bash .*hook\.sh 2 0 - .*\]: exec form says \$\{HOME\} \$HOME$/)
  })
})

describe('tool_input as Claude Code sends it (§6 PreToolUse: defaults filled)', () => {
  it('Edit gains replace_all: false in the input PreToolUse and PostToolUse hooks see, and the tool runs with it', async () => {
    const record = hookCommand('bash', { record: 'edit.jsonl' })
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Edit', record], ['PostToolUse', 'Edit', record]) },
      script: []
    })
    writeFileSync(join(h.workspace, 'notes.txt'), 'old text\n')
    h.model.push({ toolCalls: [{ name: 'Edit', args: { file_path: join(h.workspace, 'notes.txt'), old_string: 'old', new_string: 'new' } }] }, { text: 'done' })
    await h.run('edit it')
    expect(readFileSync(join(h.workspace, 'notes.txt'), 'utf8')).toBe('new text\n')
    const expected = { file_path: join(h.workspace, 'notes.txt'), old_string: 'old', new_string: 'new', replace_all: false }
    expect(h.records('edit.jsonl').map((input) => [input.hook_event_name, input.tool_input])).toEqual([
      ['PreToolUse', expected],
      ['PostToolUse', expected]
    ])
    expect(JSON.stringify(h.records('edit.jsonl')[0].tool_input)).toBe(JSON.stringify(expected))
  })
})

describe('the session directory follows Bash `cd` (§3 Process: cwd follows cd)', () => {
  it('after `cd sub` the next Bash call runs in sub, and hooks get cwd = sub and run there', async () => {
    const record = hookCommand('bash', { record: 'seen.jsonl' })
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Bash', record], ['PostToolUse', 'Bash', record]) },
      script: [{ toolCalls: [{ name: 'Bash', args: { command: 'mkdir -p sub && cd sub' } }] }, { toolCalls: [{ name: 'Bash', args: { command: 'pwd' } }] }, { text: 'done' }]
    })
    await h.run('go')
    const sub = join(h.workspace, 'sub')
    expect(toolMessages(h.model, 2).at(-1)?.content).toBe(sub)
    // The hook process itself ran in sub once the shell was there: its relative record file landed in sub/.
    expect(h.records('seen.jsonl').map((input) => [input.hook_event_name, input.cwd])).toEqual([['PreToolUse', h.workspace]])
    expect(h.records('sub/seen.jsonl').map((input) => [input.hook_event_name, input.cwd])).toEqual([
      ['PostToolUse', sub],
      ['PreToolUse', sub],
      ['PostToolUse', sub]
    ])
  })

  it('a `cd` out of the workspace is refused: the session goes back to the root and the model is told', async () => {
    h = await createHarness({ script: [{ toolCalls: [{ name: 'Bash', args: { command: 'cd / && echo left' } }] }, { toolCalls: [{ name: 'Bash', args: { command: 'pwd' } }] }, { text: 'done' }] })
    await h.run('go')
    expect(toolMessages(h.model, 1).at(-1)?.content).toBe(`left\nShell cwd was reset to ${h.workspace}`)
    expect(toolMessages(h.model, 2).at(-1)?.content).toBe(h.workspace)
  })
})

describe('transcript_path: a transcript in Claude Code\'s format (§8)', () => {
  it('a Stop hook finds the prompt, the tool call and result, and the last assistant message; lines are chained by uuid and written before the hook starts', async () => {
    // The hook copies the transcript as it finds it when it starts.
    const copy = `cat > stdin.json; python3 -c 'import json,shutil; shutil.copy(json.load(open("stdin.json"))["transcript_path"], "seen.jsonl")'`
    h = await createHarness({ user: { hooks: hooksOf(['Stop', undefined, copy]) }, script: [{ toolCalls: [{ id: 'toolu_1', name: 'Bash', args: { command: 'echo hi' } }] }, { text: 'all done' }] })
    await h.run('please say hi')
    const stdin = JSON.parse(readFileSync(join(h.workspace, 'stdin.json'), 'utf8')) as { transcript_path: string }
    expect(stdin.transcript_path).toBe(claudeTranscriptPath({ sessionId: h.log.id, transcriptPath: h.log.path }))
    expect(stdin.transcript_path).not.toBe(h.log.path)
    const lines = readFileSync(join(h.workspace, 'seen.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>)
    expect(lines.map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant'])
    const [prompt, toolUse, toolResult, answer] = lines
    expect(prompt).toMatchObject({ parentUuid: null, isSidechain: false, userType: 'external', cwd: h.workspace, sessionId: h.log.id, message: { role: 'user', content: 'please say hi' }, promptId: 'turn-1', permissionMode: 'default' })
    expect(toolUse.message).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi' } }] })
    expect(toolResult).toMatchObject({
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi', is_error: false }] },
      toolUseResult: { stdout: 'hi', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
      sourceToolAssistantUUID: toolUse.uuid
    })
    expect(answer.message.content).toEqual([{ type: 'text', text: 'all done' }])
    for (let i = 1; i < lines.length; i++) expect(lines[i].parentUuid).toBe(lines[i - 1].uuid)
    for (const line of lines) expect(Number.isNaN(Date.parse(line.timestamp))).toBe(false)
  })

  it('Stop feedback is a meta user line, so a hook that counts its own blocks finds them (§6 Stop, §8)', async () => {
    const stop = `test -f once && exit 0; touch once; ${hookCommand('bash', { exit: 2, stderr: 'check the docs' })}`
    const copy = `python3 -c 'import json,sys,shutil; shutil.copy(json.load(sys.stdin)["transcript_path"], "seen.jsonl")'`
    h = await createHarness({ user: { hooks: hooksOf(['Stop', undefined, stop], ['UserPromptSubmit', undefined, copy]) }, script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] })
    await h.run('first')
    await h.run('second')
    const lines = readFileSync(join(h.workspace, 'seen.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>)
    const meta = lines.find((line) => line.isMeta === true)
    expect(meta).toMatchObject({ type: 'user', message: { role: 'user', content: `Stop hook feedback:\n[${stop}]: check the docs` } })
  })
})

describe('§5 Large outputs through the bridge', () => {
  it('a 20 KB additionalContext reaches the model as the <persisted-output> stub; the saved file has the whole text', async () => {
    const big = 'z'.repeat(20_000)
    h = await createHarness({
      user: { hooks: hooksOf(['PostToolUse', 'Bash', hookCommand('node', { stdout: specific('PostToolUse', { additionalContext: big }) })]) },
      script: bashThenDone()
    })
    await h.run('go')
    const text = userTexts(h.model, 1)
    expect(text).not.toContain(big)
    const match = /PostToolUse:Bash hook additional context: <persisted-output>\nOutput too large \(19\.5KB\)\. Full output saved to: (.*)\n\nPreview \(first 2KB\):\n(z+)\n\.\.\.\n<\/persisted-output>/.exec(text)
    expect(match?.[2]).toBe('z'.repeat(2000))
    expect(readFileSync(match?.[1] ?? '', 'utf8')).toBe(big)
  })
})

describe('SessionStart input (§6 SessionStart)', () => {
  it('a fresh session sends source "startup" and the session\'s model, and nothing else beyond the common fields', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['SessionStart', undefined, hookCommand('bash', { record: 'start.jsonl' })]) }, script: [{ text: 'ok' }] })
    await h.run('go')
    const [input] = h.records('start.jsonl')
    expect(input).toEqual({
      session_id: h.log.id,
      transcript_path: claudeTranscriptPath({ sessionId: h.log.id, transcriptPath: h.log.path }),
      cwd: h.workspace,
      hook_event_name: 'SessionStart',
      source: 'startup',
      model: 'scripted-1'
    })
  })
})
