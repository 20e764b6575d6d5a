// claude-code-hooks.md §4 (exit codes and stdout), end to end through the agent loop, with hook
// scripts in bash, Python 3 and Node. Each row asserts what the scripted model received next.
import { afterEach, describe, expect, it } from 'vitest'
import {
  bashThenDone,
  createHarness,
  firstToolResult,
  hookCommand,
  hooksOf,
  userTexts,
  type Harness,
  type HarnessOptions,
  type HookBehaviour,
  type Lang
} from './test-harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

async function preToolUse(lang: Lang, behaviour: HookBehaviour | string, extra: Partial<HarnessOptions> = {}): Promise<{ h: Harness; command: string }> {
  const command = typeof behaviour === 'string' ? behaviour : hookCommand(lang, behaviour)
  h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', command]) }, script: bashThenDone(), ...extra })
  await h.run('go')
  return { h, command }
}

function hookResults(harness: Harness) {
  return harness.events('hook/result')
}

describe('§4 PreToolUse: exit codes and stdout', () => {
  it.each<Lang>(['bash', 'python', 'node'])('exit 0 without stdout (%s): success, the tool runs, nothing injected', async (lang) => {
    const { h } = await preToolUse(lang, {})
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(userTexts(h.model, 1)).toBe('go')
    expect(hookResults(h)).toMatchObject([{ event: 'PreToolUse', exitCode: 0, outcomeKind: 'ok' }])
  })

  it('exit 0 with plain stdout (python): ignored for PreToolUse, the tool runs', async () => {
    const { h } = await preToolUse('python', { stdout: 'just some text' })
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(userTexts(h.model, 1)).toBe('go')
  })

  it('exit 0 with stdout starting with { that is not JSON (node): a visible invalid_output failure (stricter than Claude Code); fail-open, the tool runs', async () => {
    const { h } = await preToolUse('node', { stdout: '{ this is not json' })
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(hookResults(h)[0]).toMatchObject({ outcomeKind: 'error', failureKind: 'invalid_output' })
    expect(h.notices().join('\n')).toContain('failed (invalid_output): hook stdout starts with "{" but is not valid JSON')
  })

  it.each<Lang>(['bash', 'python', 'node'])('exit 2 (%s): blocks; the model gets an is_error tool result `PreToolUse:Bash hook error: [<cmd>]: <stderr>`, stderr byte for byte (§4)', async (lang) => {
    const { h, command } = await preToolUse(lang, { exit: 2, stderr: 'not allowed here\n' })
    expect(firstToolResult(h.model)).toEqual({ content: `PreToolUse:Bash hook error: [${command}]: not allowed here\n`, isError: true })
    expect(hookResults(h)).toMatchObject([{ exitCode: 2, outcomeKind: 'block', decision: 'deny' }])
  })

  it('exit 2 ignores stdout, even an allow JSON (bash)', async () => {
    const allow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }
    const { h, command } = await preToolUse('bash', { exit: 2, stdout: allow, stderr: 'blocked anyway' })
    expect(firstToolResult(h.model)).toEqual({ content: `PreToolUse:Bash hook error: [${command}]: blocked anyway`, isError: true })
  })

  it('exit 2 with empty stderr reads `No stderr output` (python)', async () => {
    const { h, command } = await preToolUse('python', { exit: 2 })
    expect(firstToolResult(h.model).content).toBe(`PreToolUse:Bash hook error: [${command}]: No stderr output`)
  })

  it.each<[Lang, number]>([
    ['bash', 1],
    ['node', 3]
  ])('exit %s %i: non-blocking error; the tool runs, stderr never reaches the model, the user is told', async (lang, code) => {
    const { h, command } = await preToolUse(lang, { exit: code, stderr: 'secret stderr' })
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(JSON.stringify(h.model.requests)).not.toContain('secret stderr')
    expect(hookResults(h)).toMatchObject([{ exitCode: code, outcomeKind: 'error', failureKind: 'nonzero_exit' }])
    expect(h.notices().join('\n')).toContain(`warn: PreToolUse hook [${command}]`)
    expect(h.notices().join('\n')).toContain(`failed (nonzero_exit): hook exited with code ${code}; stderr: secret stderr`)
  })

  it('exit 127 (missing command): non-blocking, the tool runs, the notice names the command and the shell error', async () => {
    const { h } = await preToolUse('bash', 'definitely-not-a-command-xyz --flag')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(hookResults(h)).toMatchObject([{ exitCode: 127, outcomeKind: 'error', failureKind: 'nonzero_exit' }])
    expect(h.notices().join('\n')).toMatch(/PreToolUse hook \[definitely-not-a-command-xyz --flag\] .* failed \(nonzero_exit\): hook exited with code 127; stderr: \/bin\/sh: 1: definitely-not-a-command-xyz: not found/)
  })

  it('exit 1 with a deny JSON on stdout still denies (node)', async () => {
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json says no' } }
    const { h } = await preToolUse('node', { exit: 1, stdout: deny })
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: json says no', isError: true })
    expect(hookResults(h)).toMatchObject([{ exitCode: 1, outcomeKind: 'block', decision: 'deny', failureKind: 'nonzero_exit' }])
  })

  it('a shell syntax error exits 2 and blocks like an intentional exit 2, with a notice that it looks like a shell error', async () => {
    const { h } = await preToolUse('bash', 'if then fi (')
    const result = firstToolResult(h.model)
    expect(result.isError).toBe(true)
    expect(result.content).toMatch(/^PreToolUse:Bash hook error: \[if then fi \(\]: \/bin\/sh: 1: Syntax error/)
    expect(h.notices().join('\n')).toMatch(/exited with code 2 and a shell error/)
  })

  it('a timeout is non-blocking: the tool runs and the user is told', async () => {
    const command = hookCommand('bash', { sleep: 5 })
    h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', { command, timeout: 0.3 }]) }, script: bashThenDone() })
    await h.run('go')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(hookResults(h)).toMatchObject([{ outcomeKind: 'error', failureKind: 'timeout' }])
    expect(h.notices().join('\n')).toContain('failed (timeout): hook timed out after 300 ms')
  })
})

describe('§4 UserPromptSubmit and SessionStart: plain stdout is context', () => {
  it('UserPromptSubmit plain stdout (bash) reaches the model as `UserPromptSubmit hook success: <stdout>`', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('bash', { stdout: 'today is Tuesday\n' })]) }, script: [{ text: 'ok' }] })
    await h.run('hello')
    expect(userTexts(h.model, 0)).toBe('hello\n\n<system-reminder>\nUserPromptSubmit hook success: today is Tuesday\n</system-reminder>')
  })

  it('UserPromptSubmit stdout starting with { that is not JSON (python) is an invalid_output failure, not context (stricter than Claude Code)', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('python', { stdout: '{not json}' })]) }, script: [{ text: 'ok' }] })
    await h.run('hello')
    expect(userTexts(h.model, 0)).toBe('hello')
    expect(h.notices().join('\n')).toContain('failed (invalid_output)')
  })

  it('UserPromptSubmit exit 2 (node) blocks the prompt: no model request, prompt/blocked with the spec wording, turn rejected', async () => {
    const command = hookCommand('node', { exit: 2, stderr: 'prompt mentions a secret' })
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', undefined, command]) }, script: [] })
    await h.run('my password is 123')
    expect(h.model.requests).toHaveLength(0)
    expect(h.events('prompt/blocked')).toMatchObject([
      {
        prompt: 'my password is 123',
        reason: `UserPromptSubmit operation blocked by hook:\n[${command}]: prompt mentions a secret\n\nOriginal prompt: my password is 123`,
        by: 'hook:UserPromptSubmit'
      }
    ])
    expect(h.events('turn/end')).toMatchObject([{ reason: 'rejected' }])
  })

  it('UserPromptSubmit exit 1 (bash) is ignored by the model', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', undefined, hookCommand('bash', { exit: 1, stdout: 'ignored', stderr: 'err' })]) }, script: [{ text: 'ok' }] })
    await h.run('hello')
    expect(userTexts(h.model, 0)).toBe('hello')
  })

  it('SessionStart plain stdout (node) reaches the model as `SessionStart:startup hook success: <stdout>`', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['SessionStart', undefined, hookCommand('node', { stdout: 'branch: main' })]) }, script: [{ text: 'ok' }] })
    await h.run('hello')
    expect(userTexts(h.model, 0)).toBe('<system-reminder>\nSessionStart:startup hook success: branch: main\n</system-reminder>\n\nhello')
  })

  it('SessionStart exit 2 (python) is non-blocking and not shown to the model; the user is told', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['SessionStart', undefined, hookCommand('python', { exit: 2, stderr: 'nope' })]) }, script: [{ text: 'ok' }] })
    await h.run('hello')
    expect(userTexts(h.model, 0)).toBe('hello')
    expect(h.events('hook/result')).toMatchObject([{ event: 'SessionStart', exitCode: 2, outcomeKind: 'error' }])
    expect(h.notices().join('\n')).toContain('which does not block SessionStart: nope')
  })
})
