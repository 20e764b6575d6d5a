// UserPromptSubmit and SessionStart, every row of codex-hooks.md §5.1, end to end.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCodexFixture, hooksJson, oneHook, printJson, reminder, type CodexFixture } from './test-fixture'
import { codexRolloutPath } from './rollout'

let fixture: CodexFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

async function withHooks(hooks: unknown, replies = 1): Promise<CodexFixture> {
  fixture = await createCodexFixture({ project: { '.codex/hooks.json': hooks }, script: Array.from({ length: replies }, (_, i) => ({ text: `answer ${i + 1}` })) })
  return fixture
}

function resultsOf(f: CodexFixture, event: string) {
  return f.ofType('hook/result').filter((e) => e.event === event)
}

describe('UserPromptSubmit (codex-hooks.md §5.1)', () => {
  it('plain stdout becomes context right after the prompt', async () => {
    const f = await withHooks(oneHook('UserPromptSubmit', 'echo "remember the style guide"'))
    await f.run('hello')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: `hello\n\n${reminder('remember the style guide')}` }])
  })

  it('additionalContext of several hooks: one context message each, in configured order', async () => {
    const f = await withHooks(
      hooksJson({
        UserPromptSubmit: [
          { hooks: [`sleep 0.3; ${printJson({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'first (slow)' } })}`] },
          { hooks: [printJson({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'second (fast)' } })] }
        ]
      })
    )
    await f.run('hello')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: `hello\n\n${reminder('first (slow)')}\n\n${reminder('second (fast)')}` }])
    expect(f.ofType('context/message').map((e) => e.text)).toEqual(['first (slow)', 'second (fast)'])
  })

  it('exit 2 + stderr drops the prompt: the model is not called, the turn ends rejected', async () => {
    const f = await withHooks(oneHook('UserPromptSubmit', 'echo "prompt refused" >&2; exit 2'))
    await f.run('hello')
    expect(f.model.calls).toBe(0)
    expect(f.ofType('prompt/blocked')[0]).toMatchObject({ prompt: 'hello', reason: 'prompt refused', by: 'codex:UserPromptSubmit' })
    expect(f.ofType('user/message')).toHaveLength(0)
    expect(f.ofType('turn/end')[0].reason).toBe('rejected')
    expect(resultsOf(f, 'UserPromptSubmit')[0]).toMatchObject({ outcomeKind: 'block', exitCode: 2 })
  })

  it('a JSON block drops the prompt; context returned with it reaches the next request, the dropped prompt never does', async () => {
    const block = printJson({ decision: 'block', reason: 'no secrets', hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'kept context' } })
    const f = await withHooks(oneHook('UserPromptSubmit', `if grep -q secret; then ${block}; fi`))
    await f.run('the secret is 42')
    expect(f.model.calls).toBe(0)
    expect(f.ofType('prompt/blocked')[0].reason).toBe('no secrets')
    await f.run('hello again')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: `${reminder('kept context')}\n\nhello again` }])
  })

  it('continue:false + stopReason has the same visible effect as a block', async () => {
    const f = await withHooks(oneHook('UserPromptSubmit', printJson({ continue: false, stopReason: 'not now' })))
    await f.run('hello')
    expect(f.model.calls).toBe(0)
    expect(f.ofType('prompt/blocked')[0]).toMatchObject({ prompt: 'hello', reason: 'not now' })
  })

  const failing: Array<[string, string, string]> = [
    ['exit 2 without stderr', 'exit 2', 'did not write a reason to stderr'],
    ['block without a reason', printJson({ decision: 'block' }), 'non-empty reason'],
    ['exit 1', 'exit 1', 'exited with code 1'],
    ['invalid JSON', "printf '{not json'", 'invalid UserPromptSubmit JSON output'],
    ['an unknown field', printJson({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'x', sessionTitle: 't' } }), 'sessionTitle']
  ]
  for (const [name, command, mentions] of failing) {
    it(`${name}: failed, visible, and the prompt proceeds`, async () => {
      const f = await withHooks(oneHook('UserPromptSubmit', command))
      await f.run('hello')
      expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: 'hello' }])
      const result = resultsOf(f, 'UserPromptSubmit')[0]
      expect(result.outcomeKind).toBe('error')
      expect(result.errorMessage).toContain(mentions)
      expect(f.notices().some((text) => text.startsWith('Codex UserPromptSubmit hook failed') && text.includes(command))).toBe(true)
    })
  }

  it('stdin has the prompt and the turn id; a matcher is ignored (with a warning) since UserPromptSubmit hooks always run', async () => {
    const f = await withHooks(oneHook('UserPromptSubmit', 'cat > "$PWD/../prompt.json"', 'NeverMatches'))
    await f.run('hello')
    const input = JSON.parse(readFileSync(path.join(f.root, 'prompt.json'), 'utf8'))
    expect(input).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'hello', turn_id: 'turn-1', session_id: f.log.id, cwd: f.workspace })
    expect(f.notices().some((text) => text.includes('matcher is ignored: UserPromptSubmit hooks always run'))).toBe(true)
  })
})

describe('SessionStart (codex-hooks.md §5.1)', () => {
  it('runs once, lazily at the first turn; plain stdout is context before the first prompt', async () => {
    const f = await withHooks(oneHook('SessionStart', 'echo "project uses pnpm"'), 2)
    expect(f.ofType('hook/invoked')).toHaveLength(0)
    await f.run('hello')
    await f.run('again')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: `${reminder('project uses pnpm')}\n\nhello` }])
    expect(f.ofType('hook/invoked').filter((e) => e.event === 'SessionStart')).toHaveLength(1)
  })

  it('additionalContext is context; stdin has source and no turn_id', async () => {
    const f = await withHooks(
      oneHook('SessionStart', `cat > "$PWD/../start.json"; ${printJson({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'from json' } })}`)
    )
    await f.run('hello')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: `${reminder('from json')}\n\nhello` }])
    const input = JSON.parse(readFileSync(path.join(f.root, 'start.json'), 'utf8'))
    expect(input).toEqual({
      session_id: f.log.id,
      transcript_path: codexRolloutPath({ sessionId: f.log.id, transcriptPath: f.log.path }),
      cwd: f.workspace,
      hook_event_name: 'SessionStart',
      model: 'scripted-1',
      permission_mode: 'default',
      source: 'startup'
    })
  })

  it('the matcher is tested against source', async () => {
    const f = await withHooks(
      hooksJson({ SessionStart: [{ matcher: 'resume', hooks: ['echo resumed'] }, { matcher: 'startup|clear', hooks: ['echo started'] }] })
    )
    await f.run('hello')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: `${reminder('started')}\n\nhello` }])
  })

  it('a resumed session runs the hooks whose matcher accepts resume', async () => {
    fixture = await createCodexFixture({
      source: 'resume',
      project: { '.codex/hooks.json': hooksJson({ SessionStart: [{ matcher: 'startup', hooks: ['echo fresh'] }, { matcher: 'resume', hooks: ['echo welcome back'] }] }) },
      script: [{ text: 'ok' }]
    })
    await fixture.run('hello')
    expect(fixture.model.requests[0].messages).toEqual([{ role: 'user', content: `${reminder('welcome back')}\n\nhello` }])
  })

  it('exit 2 is only a failure', async () => {
    const f = await withHooks(oneHook('SessionStart', 'echo "ignored" >&2; exit 2'))
    await f.run('hello')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: 'hello' }])
    expect(resultsOf(f, 'SessionStart')[0]).toMatchObject({ outcomeKind: 'error', failureKind: 'nonzero_exit' })
    expect(f.notices().some((text) => text.startsWith('Codex SessionStart hook failed'))).toBe(true)
  })

  it('continue:false drops the triggering turn; later turns work and SessionStart does not rerun', async () => {
    const f = await withHooks(oneHook('SessionStart', printJson({ continue: false, stopReason: 'setup incomplete' })))
    await f.run('first')
    expect(f.model.calls).toBe(0)
    expect(f.ofType('prompt/blocked')[0]).toMatchObject({ prompt: 'first', reason: 'setup incomplete', by: 'codex:SessionStart' })
    await f.run('second')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: 'second' }])
    expect(resultsOf(f, 'SessionStart')).toHaveLength(1)
  })

  it('suppressOutput is accepted with no visible effect', async () => {
    const f = await withHooks(oneHook('SessionStart', printJson({ suppressOutput: true })))
    await f.run('hello')
    expect(resultsOf(f, 'SessionStart')[0].outcomeKind).toBe('ok')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: 'hello' }])
  })

  it('decision is an unknown field: failed', async () => {
    const f = await withHooks(oneHook('SessionStart', printJson({ decision: 'block', reason: 'x' })))
    await f.run('hello')
    expect(resultsOf(f, 'SessionStart')[0]).toMatchObject({ outcomeKind: 'error', failureKind: 'invalid_output' })
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: 'hello' }])
  })
})
