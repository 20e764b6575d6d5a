// Faults, end to end, under both failure policies: nothing hangs, nothing is lost (every run has
// its hook/invoked and hook/result, every failure a notice), and onFailure decides the call.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bashThenDone, createHarness, firstToolResult, hooksOf, type Harness } from './test-harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

type Policy = 'continue' | 'block'
const POLICIES: Policy[] = ['continue', 'block']

async function run(command: string, policy: Policy, extra: { timeout?: number; script?: ReturnType<typeof bashThenDone> } = {}): Promise<Harness> {
  const handler = { command, onFailure: policy, ...(extra.timeout !== undefined ? { timeout: extra.timeout } : {}) }
  h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', handler]) }, script: extra.script ?? bashThenDone() })
  await h.run('go')
  // Nothing lost: every invocation has its result.
  expect(h.events('hook/invoked').map((e) => e.invocationId)).toEqual(h.events('hook/result').map((e) => e.invocationId))
  expect(h.events('hook/invoked')).toHaveLength(1)
  return h
}

/** Alive = exists and is not a zombie. */
function isAlive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`
  if (!existsSync(stat)) return false
  try {
    const state = readFileSync(stat, 'utf8').replace(/^.*\) /s, '').charAt(0)
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

async function waitUntilDead(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!isAlive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return false
}

const RAN = { content: 'ran', isError: false }

describe.each(POLICIES)('S22 faults with onFailure: "%s"', (policy) => {
  const blocking = policy === 'block'

  it('missing command (exit 127)', async () => {
    const h = await run('no-such-command-xyz', policy)
    expect(h.events('hook/result')[0]).toMatchObject({ exitCode: 127, failureKind: 'nonzero_exit', outcomeKind: blocking ? 'block' : 'error' })
    expect(h.notices().join('\n')).toContain('PreToolUse hook [no-such-command-xyz]')
    if (blocking) {
      expect(firstToolResult(h.model)).toEqual({
        content: 'PreToolUse:Bash hook error: [no-such-command-xyz]: failed; blocking because onFailure is "block"\n/bin/sh: 1: no-such-command-xyz: not found',
        isError: true
      })
      expect(h.notices().join('\n')).toMatch(/^error: .*Blocked, because its onFailure is "block"\./m)
    } else {
      expect(firstToolResult(h.model)).toEqual(RAN)
    }
  })

  it('shell syntax error: /bin/sh exits 2, which blocks under either policy', async () => {
    const h = await run('echo "unclosed', policy)
    expect(firstToolResult(h.model).content).toMatch(/^PreToolUse:Bash hook error: \[echo "unclosed\]: \/bin\/sh: 1: Syntax error: Unterminated quoted string/)
    expect(h.notices().join('\n')).toContain('a shell error')
  })

  it('timeout', async () => {
    const h = await run('sleep 5', policy, { timeout: 0.3 })
    expect(h.events('hook/result')[0]).toMatchObject({ failureKind: 'timeout', signal: 'SIGTERM' })
    expect(h.notices().join('\n')).toContain('failed (timeout): hook timed out after 300 ms')
    expect(firstToolResult(h.model)).toEqual(blocking ? { content: 'PreToolUse:Bash hook error: [sleep 5]: timed out; blocking because onFailure is "block"', isError: true } : RAN)
  })

  it('a hook that ignores SIGTERM is killed after the grace period, with its children', async () => {
    const command = `echo $$ > term.pid; trap '' TERM; sleep 30 & echo $! > child.pid; wait; wait`
    const h = await run(command, policy, { timeout: 0.3 })
    expect(h.events('hook/result')[0]).toMatchObject({ failureKind: 'timeout' })
    for (const file of ['term.pid', 'child.pid']) {
      const pid = Number(readFileSync(join(h.workspace, file), 'utf8'))
      expect(await waitUntilDead(pid)).toBe(true)
    }
    expect(firstToolResult(h.model).isError).toBe(blocking)
  })

  it('a 1 MB stdin the hook never reads', async () => {
    const big = 'x'.repeat(1024 * 1024)
    const h = await run('exit 0', policy, { script: [{ toolCalls: [{ name: 'Bash', args: { command: 'echo ran', description: big } }] }, { text: 'done' }] })
    expect(h.events('hook/result')[0]).toMatchObject({ exitCode: 0, outcomeKind: 'ok' })
    expect(h.events('hook/invoked')[0].inputTruncated).toBe(true)
    expect(firstToolResult(h.model)).toEqual(RAN)
  })

  it('50 MB of stdout: captured up to the cap, drained, recorded as truncated; plain text is not a failure, but the cut gets a notice', async () => {
    const h = await run(`head -c 52428800 /dev/zero | tr '\\0' a`, policy)
    expect(h.events('hook/result')[0]).toMatchObject({ exitCode: 0, outcomeKind: 'ok', stdoutTruncated: true })
    expect(firstToolResult(h.model)).toEqual(RAN)
    expect(h.notices()).toContainEqual(expect.stringMatching(/^warn: PreToolUse hook \[.*\] \(.*\) printed more than 1048576 bytes on stdout: the rest was cut\.$/))
  })

  it('stdout that starts like JSON but does not parse: a visible invalid_output failure', async () => {
    const h = await run(`echo '{"hookSpecificOutput": {'`, policy)
    expect(h.events('hook/result')[0]).toMatchObject({ exitCode: 0, failureKind: 'invalid_output' })
    expect(h.notices().join('\n')).toContain('failed (invalid_output): hook stdout starts with "{" but is not valid JSON')
    expect(firstToolResult(h.model).isError).toBe(blocking)
  })

  it('JSON for another event (wrong hookEventName): a visible invalid_output failure', async () => {
    const h = await run(`echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}'`, policy)
    expect(h.events('hook/result')[0]).toMatchObject({ exitCode: 0, failureKind: 'invalid_output' })
    expect(h.notices().join('\n')).toContain('hook returned incorrect event name: expected "PreToolUse", got "PostToolUse"')
    expect(firstToolResult(h.model).isError).toBe(blocking)
  })

  it('50 MB of stdout that starts like JSON: a visible invalid_output error', async () => {
    const h = await run(`printf '{"x":"'; head -c 52428800 /dev/zero | tr '\\0' a`, policy)
    expect(h.events('hook/result')[0]).toMatchObject({ failureKind: 'invalid_output', stdoutTruncated: true })
    expect(h.notices().join('\n')).toContain('failed (invalid_output)')
    expect(firstToolResult(h.model).isError).toBe(blocking)
  })

  it('a grandchild that outlives the hook: the answer is used, the grandchild is killed, nothing waits for it', async () => {
    const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'said before leaving' } })
    const command = `sh -c 'echo $$ > grandchild.pid; exec sleep 30' & while [ ! -s grandchild.pid ]; do sleep 0.02; done; echo '${deny}'; exit 0`
    const h = await run(command, policy)
    expect(firstToolResult(h.model)).toEqual({ content: 'PreToolUse:Bash hook error: said before leaving', isError: true })
    const pid = Number(readFileSync(join(h.workspace, 'grandchild.pid'), 'utf8'))
    expect(await waitUntilDead(pid)).toBe(true)
  })

  it('invalid UTF-8 output is decoded with replacement characters, in JSON and on stderr', async () => {
    const h = await run(`printf '{"systemMessage":"bad \\377\\376 bytes"}'`, policy)
    expect(h.notices()).toContain('info: bad \uFFFD\uFFFD bytes')
    expect(firstToolResult(h.model)).toEqual(RAN)
    await h.cleanup()
    const h2 = await run(`printf 'stderr \\377' >&2; exit 2`, policy)
    expect(firstToolResult(h2.model).content).toBe(`PreToolUse:Bash hook error: [printf 'stderr \\377' >&2; exit 2]: stderr \uFFFD`)
  })
})
