// PreCompact, PostCompact and SessionEnd (codex-hooks.md §3, §4, §5.1) end to end: real hook
// processes, the agent's own compaction against the scripted model.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCodexFixture, hooksJson, printJson, type CodexFixture } from './test-fixture'
import { codexRolloutPath } from './rollout'

let fixture: CodexFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

const record = (file: string) => `cat >> "$PWD/../${file}"; echo >> "$PWD/../${file}"`
const inputs = (f: CodexFixture, file: string) =>
  readFileSync(path.join(f.root, file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)

describe('PreCompact and PostCompact', () => {
  it('run around a manual compaction with trigger (also the matcher target); SessionStart runs again with source compact', async () => {
    fixture = await createCodexFixture({
      project: {
        '.codex/hooks.json': hooksJson({
          PreCompact: [{ matcher: 'manual', hooks: [record('pre.jsonl')] }, { matcher: 'auto', hooks: [record('pre-auto.jsonl')] }],
          PostCompact: [{ hooks: [record('post.jsonl')] }],
          SessionStart: [{ hooks: [record('start.jsonl')] }]
        })
      },
      script: [{ text: 'first answer' }, { text: 'the summary' }]
    })
    const f = fixture
    await f.run('hello')
    const outcome = await f.agent.compact('keep the decisions')
    expect(outcome.compacted).toBe(true)
    const common = { session_id: f.log.id, transcript_path: codexRolloutPath({ sessionId: f.log.id, transcriptPath: f.log.path }), cwd: f.workspace, model: 'scripted-1', permission_mode: 'default' }
    expect(inputs(f, 'pre.jsonl')).toEqual([{ ...common, hook_event_name: 'PreCompact', turn_id: null, trigger: 'manual' }])
    expect(inputs(f, 'post.jsonl')).toEqual([{ ...common, hook_event_name: 'PostCompact', turn_id: null, trigger: 'manual' }])
    expect(() => inputs(f, 'pre-auto.jsonl')).toThrow()
    expect(inputs(f, 'start.jsonl').map((input) => input.source)).toEqual(['startup', 'compact'])
  })

  it('PreCompact continue:false cancels the compaction with its stop reason: no summary request, no PostCompact; exit 2 only fails', async () => {
    fixture = await createCodexFixture({
      project: {
        '.codex/hooks.json': hooksJson({
          PreCompact: [{ hooks: ['echo "not now" >&2; exit 2', printJson({ continue: false, stopReason: 'keep the whole history' })] }],
          PostCompact: [{ hooks: [record('post.jsonl')] }]
        })
      },
      script: [{ text: 'first answer' }, { text: 'never used' }]
    })
    const f = fixture
    await f.run('hello')
    const requests = f.model.requests.length
    const outcome = await f.agent.compact()
    expect(outcome).toMatchObject({ compacted: false, reason: expect.stringContaining('keep the whole history') })
    expect(f.model.requests.length).toBe(requests)
    expect(() => inputs(f, 'post.jsonl')).toThrow()
    expect(f.ofType('hook/result').filter((e) => e.event === 'PreCompact').map((e) => e.outcomeKind).sort()).toEqual(['error', 'ok'])
  })
})

describe('SessionEnd', () => {
  it('runs when the session ends, with reason "other" and no model or permission_mode; what it prints has no effect', async () => {
    fixture = await createCodexFixture({ project: { '.codex/hooks.json': hooksJson({ SessionEnd: [{ hooks: [`${record('end.jsonl')}; echo ignored`] }] }) }, script: [{ text: 'ok' }] })
    const f = fixture
    await f.run('hello')
    await f.agent.close('closed')
    expect(inputs(f, 'end.jsonl')).toEqual([
      { session_id: f.log.id, transcript_path: codexRolloutPath({ sessionId: f.log.id, transcriptPath: f.log.path }), cwd: f.workspace, hook_event_name: 'SessionEnd', reason: 'other' }
    ])
  })
})
