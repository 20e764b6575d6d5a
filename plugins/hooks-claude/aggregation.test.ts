// claude-code-hooks.md §7: several hooks on one event, end to end. Where Claude Code lets the
// last hook to finish decide ties and single-valued fields, Seam uses configuration order: each
// tie row runs twice, once with the first hook slow and once with the second.
import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '@seam/sdk'
import { bashThenDone, createHarness, firstToolResult, hookCommand, hooksOf, userTexts, type Harness, type HarnessOptions, type HookBehaviour, type Lang } from './test-harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } })
const deny = (reason: string) => pre({ permissionDecision: 'deny', permissionDecisionReason: reason })
const allow = pre({ permissionDecision: 'allow' })
const ask = (reason: string) => pre({ permissionDecision: 'ask', permissionDecisionReason: reason })
const SLOW = 0.3

async function twoHooks(
  a: [Lang, HookBehaviour],
  b: [Lang, HookBehaviour],
  extra: Partial<HarnessOptions> = {}
): Promise<{ h: Harness; commands: [string, string]; asked: ApprovalRequest[] }> {
  const commands: [string, string] = [hookCommand(a[0], a[1]), hookCommand(b[0], b[1])]
  const asked: ApprovalRequest[] = []
  h = await createHarness({
    user: { hooks: hooksOf(['PreToolUse', 'Bash', commands[0]]) },
    project: { hooks: hooksOf(['PreToolUse', 'Bash', commands[1]]) },
    setup: (kernel) => kernel.context.on('approval/request', async (request) => (asked.push(request), { outcome: 'denied' })),
    script: bashThenDone(),
    ...extra
  })
  await h.run('go')
  return { h, commands, asked }
}

describe('§7 decisions: deny > ask > allow', () => {
  it.each([
    ['allow, then a slow deny', [{ stdout: allow }, { stdout: deny('denier says no'), sleep: SLOW }]],
    ['a slow deny, then allow', [{ stdout: deny('denier says no'), sleep: SLOW }, { stdout: allow }]]
  ] as const)('%s: deny with the denier\'s reason', async (_name, [a, b]) => {
    const { h } = await twoHooks(['bash', a], ['python', b])
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: denier says no', isError: true })
  })

  it.each([
    ['ask + allow', [{ stdout: ask('please confirm') }, { stdout: allow }]],
    ['allow + ask', [{ stdout: allow }, { stdout: ask('please confirm') }]]
  ] as const)('%s: ask, with the ask reason', async (_name, [a, b]) => {
    const { h, asked } = await twoHooks(['node', a], ['bash', b])
    expect(asked.map((r) => r.reason)).toEqual(['please confirm'])
    expect(firstToolResult(h.model).isError).toBe(true)
  })

  it('ask + deny: deny (nobody is asked)', async () => {
    const { h, asked } = await twoHooks(['bash', { stdout: ask('q') }], ['bash', { stdout: deny('no') }])
    expect(asked).toEqual([])
    expect(firstToolResult(h.model).content).toBe('PreToolUse:Bash hook error: no')
  })

  it.each([
    ['first slow', SLOW, 0],
    ['second slow', 0, SLOW]
  ])('deny + deny (%s): the reason of the first in configuration order (Claude Code: the last to finish)', async (_name, slowA, slowB) => {
    const { h } = await twoHooks(['bash', { stdout: deny('reason A'), sleep: slowA }], ['node', { stdout: deny('reason B'), sleep: slowB }])
    expect(firstToolResult(h.model).content).toBe('PreToolUse:Bash hook error: reason A')
  })

  it('exit 2 + allow JSON: blocked with the exit-2 stderr', async () => {
    const { h, commands } = await twoHooks(['python', { exit: 2, stderr: 'exit two wins' }], ['bash', { stdout: allow }])
    expect(firstToolResult(h.model).content).toBe(`PreToolUse:Bash hook error: [${commands[0]}]: exit two wins`)
  })

  it.each([
    ['first slow', SLOW, 0],
    ['second slow', 0, SLOW]
  ])('exit 2 + exit 2 (%s): the stderr of the first in configuration order', async (_name, slowA, slowB) => {
    const { h, commands } = await twoHooks(['bash', { exit: 2, stderr: 'A', sleep: slowA }], ['bash', { exit: 2, stderr: 'B', sleep: slowB }])
    expect(firstToolResult(h.model).content).toBe(`PreToolUse:Bash hook error: [${commands[0]}]: A`)
  })
})

describe('§7 single- and multi-valued fields', () => {
  it.each([
    ['first slow', SLOW, 0],
    ['second slow', 0, SLOW]
  ])('updatedInput + updatedInput (%s): the first in configuration order is used', async (_name, slowA, slowB) => {
    const { h } = await twoHooks(
      ['bash', { stdout: pre({ updatedInput: { command: 'echo from-A' } }), sleep: slowA }],
      ['python', { stdout: pre({ updatedInput: { command: 'echo from-B' } }), sleep: slowB }]
    )
    expect(firstToolResult(h.model)).toEqual({ content: 'from-A', isError: false })
  })

  it('allow + updatedInput, and a deny: deny wins, no rewrite', async () => {
    const { h } = await twoHooks(['bash', { stdout: pre({ permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } }) }], ['bash', { stdout: deny('stop') }])
    expect(firstToolResult(h.model).content).toBe('PreToolUse:Bash hook error: stop')
    expect(h.events('tool/call')[0].rewrittenBy).toBeUndefined()
  })

  it('allow + allow (slow) + silent: all three run, at the same time, and the tool runs once', async () => {
    const commands = [hookCommand('bash', { stdout: allow, record: 'a.jsonl' }), hookCommand('node', { stdout: allow, sleep: SLOW, record: 'b.jsonl' }), hookCommand('python', { record: 'c.jsonl' })]
    h = await createHarness({ user: { hooks: hooksOf(...commands.map((c): [string, string, string] => ['PreToolUse', 'Bash', c])) }, script: bashThenDone('echo ran >> runs.txt; echo ran') })
    await h.run('go')
    expect(['a.jsonl', 'b.jsonl', 'c.jsonl'].map((f) => h?.records(f).length)).toEqual([1, 1, 1])
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.events('tool/result')).toHaveLength(1)
    expect(h.service().stats().peak).toBe(3)
  })

  it('two additionalContexts: joined in configuration order, not completion order', async () => {
    const { h } = await twoHooks(['bash', { stdout: pre({ additionalContext: 'context A' }), sleep: SLOW }], ['bash', { stdout: pre({ additionalContext: 'context B' }) }])
    expect(userTexts(h.model, 1)).toContain('PreToolUse:Bash hook additional context: context A\n</system-reminder>\n\n<system-reminder>\nPreToolUse:Bash hook additional context: context B')
  })

  it('UserPromptSubmit: two contexts (plain stdout and additionalContext) in configuration order', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('bash', { stdout: 'plain first', sleep: SLOW })]) },
      local: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('node', { stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'json second' } } })]) },
      script: [{ text: 'ok' }]
    })
    await h.run('hi')
    expect(userTexts(h.model, 0)).toBe('hi\n\n<system-reminder>\nUserPromptSubmit hook success: plain first\n\nUserPromptSubmit hook additional context: json second\n</system-reminder>')
  })
})

describe('§3 de-duplication by command string', () => {
  it('an identical command in several groups and sources, with different timeouts, runs once; a trailing space makes another command', async () => {
    const command = hookCommand('bash', { record: 'dedupe.jsonl' })
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Bash', command], ['PreToolUse', '*', { command, timeout: 30 }]) },
      project: { hooks: hooksOf(['PreToolUse', undefined, command], ['PreToolUse', 'Bash', `${command} `]) },
      seamHooks: hooksOf(['PreToolUse', 'Bash', command]),
      script: bashThenDone()
    })
    await h.run('go')
    expect(h.records('dedupe.jsonl')).toHaveLength(2)
    expect(h.events('hook/invoked').map((e) => [e.command, e.sourceFile])).toEqual([
      [command, h.userSettingsPath],
      [`${command} `, h.pathOf('project')]
    ])
  })
})
