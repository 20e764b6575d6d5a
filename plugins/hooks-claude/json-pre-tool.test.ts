// claude-code-hooks.md §5 and §5.1 (JSON answers, PreToolUse), end to end through the loop:
// what the model reads next, what ran, and the hook/* events recorded.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '@seam/sdk'
import permissionPolicy from '../permission-policy/index'
import {
  bashThenDone,
  createHarness,
  firstToolResult,
  hookCommand,
  hooksOf,
  userTexts,
  type Harness,
  type HarnessOptions,
  type Lang
} from './test-harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

const pre = (fields: Record<string, unknown>, top: Record<string, unknown> = {}) => ({ ...top, hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } })

async function answer(lang: Lang, stdout: unknown, extra: Partial<HarnessOptions> = {}, bash = 'echo ran'): Promise<{ h: Harness; command: string }> {
  const command = hookCommand(lang, { stdout, record: 'pre.jsonl' })
  h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', command]) }, script: bashThenDone(bash), ...extra })
  await h.run('go')
  return { h, command }
}

describe('§5.1 permissionDecision', () => {
  it('S10 deny (python): the tool does not run; is_error tool result `PreToolUse:Bash hook error: <reason>`', async () => {
    const { h } = await answer('python', pre({ permissionDecision: 'deny', permissionDecisionReason: 'rm is not allowed' }))
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: rm is not allowed', isError: true })
    expect(h.events('tool/result')[0]).toMatchObject({ code: 'DENIED', verdict: { outcome: 'denied', stage: 'pre-execute', by: 'hook:PreToolUse', reason: 'rm is not allowed' } })
    expect(h.events('hook/result')).toMatchObject([{ outcomeKind: 'block', decision: 'deny' }])
  })

  it('legacy decision "block" + reason (bash) denies with the reason', async () => {
    const { h } = await answer('bash', { decision: 'block', reason: 'legacy no' })
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: legacy no', isError: true })
  })

  it.each([
    ['allow (node)', 'node' as Lang, pre({ permissionDecision: 'allow', permissionDecisionReason: 'fine by me' })],
    ['legacy approve (bash)', 'bash' as Lang, { decision: 'approve' }]
  ])('%s: the tool runs, the verdict names the hook; the allow reason is not shown to the model', async (_name, lang, stdout) => {
    const { h } = await answer(lang, stdout)
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.events('tool/result')[0].verdict).toMatchObject({ outcome: 'allowed', by: 'hook:PreToolUse' })
    expect(JSON.stringify(h.model.requests)).not.toContain('fine by me')
  })

  it('S10/S11 ask (python): the approval seam is asked with the hook reason; a denied approval keeps the tool from running', async () => {
    const asked: ApprovalRequest[] = []
    const { h } = await answer('python', pre({ permissionDecision: 'ask', permissionDecisionReason: 'confirm this one' }), {
      setup: (kernel) => kernel.context.on('approval/request', async (request) => (asked.push(request), { outcome: 'denied' }))
    })
    expect(asked.map((r) => r.reason)).toEqual(['confirm this one'])
    expect(firstToolResult(h.model).isError).toBe(true)
    expect(h.events('tool/result')[0].verdict).toMatchObject({ outcome: 'denied', stage: 'approval' })
  })

  it('ask then allowed-once: the tool runs', async () => {
    const { h } = await answer('bash', pre({ permissionDecision: 'ask', permissionDecisionReason: 'ok?' }), {
      setup: (kernel) => kernel.context.on('approval/request', async () => ({ outcome: 'allowed-once' }))
    })
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
  })

  it('defer (node) with someone to ask (desktop, web): the call waits on the approval seam with the hook\'s reason (§5.1 defer)', async () => {
    const asked: ApprovalRequest[] = []
    const { h } = await answer('node', pre({ permissionDecision: 'defer', permissionDecisionReason: 'needs a human' }), {
      setup: (kernel) => kernel.context.on('approval/request', async (request) => (asked.push(request), { outcome: 'allowed-once' }))
    })
    expect(asked.map((r) => r.reason)).toEqual(['needs a human'])
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.events('hook/result')).toMatchObject([{ outcomeKind: 'ok', decision: 'defer' }])
  })

  it('defer (bash) headless (deferAction end-turn): the tool does not run and the turn ends there with a tool_deferred reason in the log (§5.1 defer)', async () => {
    const { h } = await answer('bash', pre({ permissionDecision: 'defer', permissionDecisionReason: 'later' }), { config: { deferAction: 'end-turn' } }, 'echo ran > ran.txt')
    expect(existsSync(join(h.workspace, 'ran.txt'))).toBe(false)
    // One model request: the turn ended at the deferred call.
    expect(h.model.requests).toHaveLength(1)
    expect(h.events('tool/result')[0]).toMatchObject({ isError: true, verdict: { outcome: 'denied', by: 'hook:PreToolUse', reason: 'tool_deferred: Bash was deferred by a PreToolUse hook: later' } })
    expect(h.notices().join('\n')).toContain('tool_deferred: Bash was deferred by a PreToolUse hook: later')
    expect(h.events('turn/end')).toHaveLength(1)
  })

  it('defer loses to a deny from another hook (deny > defer > ask > allow)', async () => {
    const deferrer = hookCommand('bash', { stdout: pre({ permissionDecision: 'defer' }) })
    const denier = hookCommand('python', { stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }) })
    h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', deferrer], ['PreToolUse', 'Bash', denier]) }, script: bashThenDone(), config: { deferAction: 'end-turn' } })
    await h.run('go')
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: no', isError: true })
  })

  it('S18 updatedInput (python) replaces the whole input through S18: tool/call has the new args, originalArgs and rewrittenBy', async () => {
    const { h } = await answer('python', pre({ permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } }))
    expect(firstToolResult(h.model)).toEqual({ content: 'rewritten', isError: false })
    expect(h.events('tool/call')).toMatchObject([{ args: { command: 'echo rewritten' }, originalArgs: { command: 'echo ran' }, rewrittenBy: 'hook:PreToolUse' }])
    // The hook saw what the model asked for.
    expect(h.records('pre.jsonl')[0]).toMatchObject({ tool_input: { command: 'echo ran' } })
  })

  it('updatedInput works without a permissionDecision too (bash)', async () => {
    const { h } = await answer('bash', pre({ updatedInput: { command: 'echo swapped' } }))
    expect(firstToolResult(h.model)).toEqual({ content: 'swapped', isError: false })
  })

  it('S18 updatedInput that fails the tool schema (node): the tool does not run; the model reads Claude Code\'s message naming the field (§5.1 updatedInput)', async () => {
    const { h } = await answer('node', pre({ permissionDecision: 'allow', updatedInput: { description: 'no command' } }))
    const result = firstToolResult(h.model)
    expect(result.isError).toBe(true)
    expect(result.content).toMatch(/^PreToolUse hook for Bash returned updatedInput that failed schema validation: command: /)
    expect(h.events('tool/result')[0]).toMatchObject({ code: 'INVALID_ARGS', verdict: { stage: 'rewrite' } })
    // The hook's records are not lost although the call never reached pre-execute.
    expect(h.events('hook/invoked')).toMatchObject([{ event: 'PreToolUse' }])
    expect(h.events('hook/result')).toMatchObject([{ event: 'PreToolUse', toolCallToken: h.events('tool/call')[0].token }])
  })

  it('S17 additionalContext (bash) reaches the model after the tool result: `PreToolUse:Bash hook additional context: <text>`', async () => {
    const { h } = await answer('bash', pre({ additionalContext: 'the repo uses pnpm' }))
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(userTexts(h.model, 1)).toBe('go\n----\n<system-reminder>\nPreToolUse:Bash hook additional context: the repo uses pnpm\n</system-reminder>')
  })
})

describe('§5 validation and top-level fields (PreToolUse)', () => {
  it('a wrong hookEventName makes the whole answer a non-blocking error (python): a deny is not applied', async () => {
    const { h } = await answer('python', { hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } })
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.events('hook/result')[0]).toMatchObject({ outcomeKind: 'error', failureKind: 'invalid_output' })
    expect(h.events('hook/result')[0].errorMessage).toContain('incorrect event name')
    expect(h.notices().join('\n')).toContain('failed (invalid_output)')
  })

  it('an invalid enum value (permissionDecision "maybe", node) is a non-blocking error naming the field; the tool runs', async () => {
    const { h } = await answer('node', pre({ permissionDecision: 'maybe' }))
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.events('hook/result')[0].errorMessage).toContain('hookSpecificOutput.permissionDecision')
  })

  it('an unknown extra top-level field is tolerated; the rest is honoured (bash)', async () => {
    const { h } = await answer('bash', pre({ permissionDecision: 'deny', permissionDecisionReason: 'still no' }, { somethingNew: true }))
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: still no', isError: true })
  })

  it('continue:false + stopReason (python): the tool still runs, then the loop stops (no further model request)', async () => {
    const { h } = await answer('python', { continue: false, stopReason: 'enough for today' })
    expect(h.model.requests).toHaveLength(1)
    expect(h.events('tool/result')[0]).toMatchObject({ content: 'ran', isError: false })
    expect(h.notices()).toContain('info: Turn stopped by hook:PreToolUse: enough for today')
    expect(h.events('turn/end')).toMatchObject([{ reason: 'completed' }])
  })

  it('systemMessage (node) is shown to the user, never to the model; suppressOutput has no effect', async () => {
    const { h } = await answer('node', { systemMessage: 'hook says hi to the user', suppressOutput: true })
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.notices()).toContain('info: hook says hi to the user')
    expect(JSON.stringify(h.model.requests)).not.toContain('hook says hi')
  })
})

describe('§5.1, §7, §9.8: a hook allow answers the permission policy\'s default ask; explicit rules still win (S1, S10)', () => {
  const allow = pre({ permissionDecision: 'allow', permissionDecisionReason: 'auto-approved' })

  it('a deny rule still denies', async () => {
    const { h } = await answer('bash', allow, { setup: (kernel) => void kernel.plugin(permissionPolicy, { mode: 'never-ask', deny: ['Bash(echo *)'] }) })
    expect(firstToolResult(h.model)).toEqual({ content: 'Permission denied: the permission policy denies calls matching "Bash(echo *)"', isError: true })
  })

  it('an ask rule still asks', async () => {
    const asked: string[] = []
    const { h } = await answer('bash', allow, {
      setup: (kernel) => {
        kernel.plugin(permissionPolicy, { mode: 'never-ask', ask: ['Bash(echo *)'] })
        kernel.context.on('approval/request', async (request) => (asked.push(request.reason), { outcome: 'denied' }))
      }
    })
    expect(asked).toEqual(['calls matching "Bash(echo *)" ask first'])
    expect(firstToolResult(h.model)).toEqual({ content: 'Permission denied: the user denied this call', isError: true })
  })

  it("the mode's ask is answered by the hook: no dialog, the tool runs, the verdict records which hook allowed it", async () => {
    const asked: string[] = []
    const { h, command } = await answer('bash', allow, {
      setup: (kernel) => {
        kernel.plugin(permissionPolicy, { mode: 'ask-all' })
        kernel.context.on('approval/request', async (request) => (asked.push(request.reason), { outcome: 'denied' }))
      }
    })
    expect(asked).toEqual([])
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.events('tool/result')[0].verdict).toEqual({
      outcome: 'allowed',
      stage: 'pre-execute',
      by: 'hook:PreToolUse',
      reason: `allowed by the PreToolUse hook [${command}]: auto-approved; this answered the permission policy's ask (every tool call needs approval (mode "ask-all"))`
    })
  })

  it('plan mode stays read-only: the allow does not answer it', async () => {
    const { h } = await answer('bash', allow, { setup: (kernel) => void kernel.plugin(permissionPolicy, { mode: 'plan' }) })
    expect(firstToolResult(h.model)).toEqual({ content: 'Permission denied: mode "plan" is read-only: Bash can change files or run programs', isError: true })
  })

  it('a hook deny beats a policy allow rule', async () => {
    const { h } = await answer('bash', pre({ permissionDecision: 'deny', permissionDecisionReason: 'hook wins' }), {
      setup: (kernel) => void kernel.plugin(permissionPolicy, { mode: 'never-ask', allow: ['Bash'] })
    })
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: hook wins', isError: true })
  })
})
