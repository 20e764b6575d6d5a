// Stop, every row of codex-hooks.md §5.1, end to end; plus Seam's cap on consecutive blocks.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCodexFixture, oneHook, printJson, reminder, userTexts, type CodexFixture, type CodexFixtureOptions } from './test-fixture'

let fixture: CodexFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

/** Blocks the first Stop of a turn only (the hook itself checks stop_hook_active, as Codex expects). */
const firstOnly = (block: string) => `tee -a "$PWD/../stop.jsonl" | grep -q '"stop_hook_active":false' && { echo >> "$PWD/../stop.jsonl"; ${block}; }; echo >> "$PWD/../stop.jsonl"; true`

async function stopTurn(command: string, options: Partial<CodexFixtureOptions> = {}): Promise<CodexFixture> {
  fixture = await createCodexFixture({
    project: { '.codex/hooks.json': oneHook('Stop', command) },
    script: [{ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' }, { text: 'fourth answer' }],
    ...options
  })
  await fixture.run('hello')
  return fixture
}

function stopInputs(f: CodexFixture): Array<Record<string, unknown>> {
  return readFileSync(path.join(f.root, 'stop.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('Stop (codex-hooks.md §5.1)', () => {
  it('exit 2 + stderr continues the same turn with a <hook_prompt> user message; the re-entry has stop_hook_active', async () => {
    const f = await stopTurn(firstOnly('echo "tests are failing, fix them" >&2; exit 2'), {
      user: { 'hooks.json': oneHook('UserPromptSubmit', 'true') }
    })
    expect(f.model.calls).toBe(2)
    const file = path.join(f.repo, '.codex', 'hooks.json')
    // Display order: the user-level hook is 0, this project Stop hook is 1.
    const prompt = `<hook_prompt hook_run_id="stop:1:${file}">tests are failing, fix them</hook_prompt>`
    expect(userTexts(f.model.requests[1])).toEqual(['hello', reminder(prompt)])
    expect(f.model.requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(f.ofType('steering/message')[0]).toMatchObject({ source: 'continuation', text: prompt, by: 'codex:Stop' })
    expect(f.ofType('turn/start')).toHaveLength(1)
    const inputs = stopInputs(f)
    expect(inputs.map((i) => i.stop_hook_active)).toEqual([false, true])
    expect(inputs[0]).toMatchObject({ hook_event_name: 'Stop', turn_id: 'turn-1', last_assistant_message: 'first answer' })
    expect(inputs[1].last_assistant_message).toBe('second answer')
    const results = f.ofType('hook/result').filter((e) => e.event === 'Stop')
    expect(results.map((r) => r.outcomeKind)).toEqual(['block', 'ok'])
  })

  it('{"decision":"block","reason":R} continues with R', async () => {
    const f = await stopTurn(firstOnly(printJson({ decision: 'block', reason: 'one more thing' })))
    expect(f.model.calls).toBe(2)
    expect(userTexts(f.model.requests[1])[1]).toContain('>one more thing</hook_prompt>')
  })

  it('continue:false ends the turn normally', async () => {
    const f = await stopTurn(printJson({ continue: false, stopReason: 'done' }))
    expect(f.model.calls).toBe(1)
    expect(f.ofType('turn/end')[0].reason).toBe('completed')
    expect(f.ofType('hook/result')[0].outcomeKind).toBe('ok')
  })

  const failing: Array<[string, string, string]> = [
    ['plain stdout', 'echo keep going', 'plain text'],
    ['hookSpecificOutput', printJson({ hookSpecificOutput: { hookEventName: 'Stop' } }), 'hookSpecificOutput'],
    ['exit 2 without stderr', 'exit 2', 'did not write a reason to stderr'],
    ['block without a reason', printJson({ decision: 'block' }), 'non-empty reason'],
    ['exit 1', 'exit 1', 'exited with code 1']
  ]
  for (const [name, command, mentions] of failing) {
    it(`${name}: failed, visible, and the turn ends normally`, async () => {
      const f = await stopTurn(command)
      expect(f.model.calls).toBe(1)
      const result = f.ofType('hook/result')[0]
      expect(result.outcomeKind).toBe('error')
      expect(result.errorMessage).toContain(mentions)
      expect(f.notices().some((text) => text.startsWith('Codex Stop hook failed') && text.includes(command))).toBe(true)
    })
  }
})

describe('Stop cap (Seam differs from Codex: a hook that always blocks is capped)', () => {
  it('honours stopBlockCap consecutive blocks, then ends the turn with a notice', async () => {
    const f = await stopTurn('echo "never done" >&2; exit 2', { config: { stopBlockCap: 2 } })
    expect(f.model.calls).toBe(3)
    expect(f.ofType('hook/result').filter((e) => e.event === 'Stop').map((e) => e.outcomeKind)).toEqual(['block', 'block', 'block'])
    expect(f.notices().some((text) => text.includes('blocked the end of this turn 2 times in a row') && text.includes('stopBlockCap = 2'))).toBe(true)
    expect(f.ofType('turn/end')[0].reason).toBe('completed')
  })

  it('the count starts over in the next turn', async () => {
    const f = await stopTurn('echo "never done" >&2; exit 2', { config: { stopBlockCap: 1 } })
    expect(f.model.calls).toBe(2)
    await f.run('again')
    expect(f.model.calls).toBe(4)
  })
})
