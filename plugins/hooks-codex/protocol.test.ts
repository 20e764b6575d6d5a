// The process side of codex-hooks.md §5-§6, end to end: /bin/bash -c in the session directory with
// the inherited environment, timeouts, signals, concurrency (and Seam's cap), configured-order
// aggregation, and async handlers.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCodexFixture, hooksJson, oneHook, printJson, shellQuote, toolMessage, type CodexFixture } from './test-fixture'

let fixture: CodexFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

function contexts(f: CodexFixture): string[] {
  return f.ofType('context/message').map((e) => e.text)
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('how a hook runs', () => {
  it('/bin/bash -c in the session directory, with Seam\'s own environment', async () => {
    process.env.SEAM_CODEX_HOOK_TEST = 'inherited'
    try {
      fixture = await createCodexFixture({ project: { '.codex/hooks.json': oneHook('UserPromptSubmit', 'echo "shell=$0 cwd=$(pwd) env=$SEAM_CODEX_HOOK_TEST"') }, script: [{ text: 'ok' }] })
      await fixture.run('hello')
      expect(contexts(fixture)).toEqual([`shell=/bin/bash cwd=${fixture.workspace} env=inherited`])
    } finally {
      delete process.env.SEAM_CODEX_HOOK_TEST
    }
  })

  it('a hook past its timeout is killed and fails open', async () => {
    fixture = await createCodexFixture({
      project: { '.codex/hooks.json': hooksJson({ UserPromptSubmit: [{ hooks: [{ command: 'sleep 5; echo late', timeout: 1 }] }] }) },
      script: [{ text: 'ok' }]
    })
    await fixture.run('hello')
    expect(fixture.model.requests[0].messages).toEqual([{ role: 'user', content: 'hello' }])
    expect(fixture.ofType('hook/result')[0]).toMatchObject({ outcomeKind: 'error', failureKind: 'timeout' })
    expect(fixture.notices().some((text) => text.startsWith('Codex UserPromptSubmit hook failed') && text.includes('timed out'))).toBe(true)
  })

  it('a hook killed by a signal fails open', async () => {
    fixture = await createCodexFixture({ project: { '.codex/hooks.json': oneHook('UserPromptSubmit', 'kill -9 $$') }, script: [{ text: 'ok' }] })
    await fixture.run('hello')
    expect(fixture.ofType('hook/result')[0]).toMatchObject({ outcomeKind: 'error', failureKind: 'signal', errorMessage: 'hook exited without a status code' })
    expect(fixture.model.calls).toBe(1)
  })
})

describe('several hooks', () => {
  /** Each hook marks itself started, then waits (bounded) for the other: "both" only when they overlap. */
  const barrier = (root: string, me: string, other: string) =>
    `touch ${shellQuote(path.join(root, me))}; for i in $(seq 1 60); do [ -e ${shellQuote(path.join(root, other))} ] && { echo both; exit 0; }; sleep 0.05; done; echo alone`

  it('run concurrently', async () => {
    fixture = await createCodexFixture({ script: [{ text: 'ok' }] })
    await fixture.write('repo/.codex/hooks.json', hooksJson({ UserPromptSubmit: [{ hooks: [barrier(fixture.root, 'a', 'b'), barrier(fixture.root, 'b', 'a')] }] }))
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['both', 'both'])
  })

  it('wait for a slot over the concurrency cap (and never fail because of it)', async () => {
    fixture = await createCodexFixture({ config: { concurrency: 1 }, script: [{ text: 'ok' }] })
    await fixture.write('repo/.codex/hooks.json', hooksJson({ UserPromptSubmit: [{ hooks: [barrier(fixture.root, 'a', 'b'), barrier(fixture.root, 'b', 'a')] }] }))
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['alone', 'both'])
    expect(fixture.ofType('hook/result').map((e) => e.outcomeKind)).toEqual(['ok', 'ok'])
  })

  it('are combined in configured order, not completion order: the first blocker\'s reason wins', async () => {
    const deny = (reason: string) => printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })
    fixture = await createCodexFixture({
      project: { '.codex/hooks.json': hooksJson({ PreToolUse: [{ hooks: [`sleep 0.3; ${deny('slow first')}`] }, { hooks: [deny('fast second')] }] }) },
      script: [{ toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'echo hi' } }] }, { text: 'ok' }]
    })
    await fixture.run('go')
    expect(toolMessage(fixture.model.requests[1], 'c1')?.content).toBe('Command blocked by PreToolUse hook: slow first. Command: echo hi')
  })

  it('identical handlers in two groups both run (no de-duplication)', async () => {
    fixture = await createCodexFixture({
      project: { '.codex/hooks.json': hooksJson({ UserPromptSubmit: [{ hooks: ['echo same'] }, { hooks: ['echo same'] }] }) },
      script: [{ text: 'ok' }]
    })
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['same', 'same'])
  })
})

describe('async handlers', () => {
  it('are not awaited, their decision is ignored, and their context reaches the first request after they finish', async () => {
    const answer = printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'async deny', additionalContext: 'async context' } })
    fixture = await createCodexFixture({
      project: { '.codex/hooks.json': hooksJson({ PreToolUse: [{ hooks: [{ command: `sleep 0.2; ${answer}`, async: true }] }] }) },
      script: [{ toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'echo ran > ran.txt' } }] }, { text: 'ok' }, { text: 'second turn' }]
    })
    await fixture.run('go')
    expect(existsSync(path.join(fixture.workspace, 'ran.txt'))).toBe(true)
    await waitFor(() => contexts(fixture!).includes('async context'), 'the async context')
    await fixture.run('next')
    expect(JSON.stringify(fixture.model.requests[2].messages)).toContain('async context')
    expect(fixture.ofType('hook/result')[0]).toMatchObject({ event: 'PreToolUse', outcomeKind: 'block' })
  })
})
