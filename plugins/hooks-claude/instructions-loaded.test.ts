// InstructionsLoaded (claude-code-hooks.md "Other events", §6.0): fired for each memory file the
// instructions plugin delivers, before SessionStart, with file_path, memory_type, load_reason
// and no prompt_id.
import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import instructions from '../instructions/index'
import { createHarness, hookCommand, hooksOf, type Harness } from './test-harness'
import { claudeTranscriptPath } from './transcript'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

describe('InstructionsLoaded (§6 Other events)', () => {
  it('fires per CLAUDE.md with file_path, memory_type, load_reason (include + parent_file_path for an import), before SessionStart and without prompt_id', async () => {
    let home = ''
    h = await createHarness({
      user: {
        hooks: hooksOf(
          ['InstructionsLoaded', undefined, hookCommand('bash', { record: 'events.jsonl' })],
          ['SessionStart', undefined, hookCommand('node', { record: 'events.jsonl' })]
        )
      },
      script: [{ text: 'ok' }],
      setup(kernel) {
        // The harness's home; the workspace files are written before the first prompt.
        home = join(kernel.getService('workspace')?.root ?? '', '..', 'home')
        kernel.plugin(instructions, { home, codex: { enabled: false } })
      }
    })
    writeFileSync(join(h.workspace, 'CLAUDE.md'), 'project rules, see @more.md')
    writeFileSync(join(h.workspace, 'more.md'), 'more rules')
    mkdirSync(join(home, '.claude'), { recursive: true })
    writeFileSync(join(home, '.claude', 'CLAUDE.md'), 'my rules')
    await h.run('go')
    const records = h.records('events.jsonl')
    // Started before SessionStart's hook (the hook/invoked records, in start order; the processes themselves race).
    expect(h.events('hook/invoked').map((e) => e.event)).toEqual(['InstructionsLoaded', 'InstructionsLoaded', 'InstructionsLoaded', 'SessionStart'])
    const loaded = records.filter((r) => r.hook_event_name === 'InstructionsLoaded')
    expect(loaded.map((r) => [r.file_path, r.memory_type, r.load_reason, r.parent_file_path]).sort()).toEqual(
      [
        [join(home, '.claude', 'CLAUDE.md'), 'User', 'session_start', undefined],
        [join(h.workspace, 'CLAUDE.md'), 'Project', 'session_start', undefined],
        [join(h.workspace, 'more.md'), 'Project', 'include', join(h.workspace, 'CLAUDE.md')]
      ].sort()
    )
    for (const input of loaded) {
      expect(input).toMatchObject({ session_id: h.log.id, transcript_path: claudeTranscriptPath({ sessionId: h.log.id, transcriptPath: h.log.path }), cwd: h.workspace })
      expect(input).not.toHaveProperty('prompt_id')
      expect(input).not.toHaveProperty('permission_mode')
    }
    expect(h.events('hook/invoked').filter((e) => e.event === 'InstructionsLoaded')).toHaveLength(3)
  })
})
