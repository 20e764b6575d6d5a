// "Model-visible means logged": what a resumed session sends the model is rebuilt from the file alone.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { ModelMessage } from '../../src-shared/model'
import { deriveModelMessages } from './history'
import { SessionStore } from './store'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-resume-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

it('rebuilds the request messages of a written session from disk alone', async () => {
  const store = SessionStore.inSeamHome(root)
  const log = store.create({ workspace: '/w', model: { provider: 'anthropic', model: 'claude' } })
  const verdict = { outcome: 'allowed', stage: 'pre-execute' } as const
  log.append({ type: 'context/message', text: 'CLAUDE.md: use tabs', source: 'hook:SessionStart' })
  log.append({ type: 'turn/start', turnId: 't1' })
  log.append({ type: 'user/message', turnId: 't1', content: 'fix the bug in a.ts', source: 'user' })
  await log.flush() // turn boundary
  log.append({ type: 'assistant/message', turnId: 't1', step: 0, text: 'Reading both files.', toolCalls: [{ id: 'r1', name: 'Read', args: { file_path: '/w/a.ts' } }, { id: 'r2', name: 'Read', args: { file_path: '/w/b.ts' } }] })
  log.append({ type: 'tool/call', turnId: 't1', callId: 'r1', token: 'k1', name: 'Read', args: { file_path: '/w/a.ts' } })
  log.append({ type: 'tool/call', turnId: 't1', callId: 'r2', token: 'k2', name: 'Read', args: { file_path: '/w/b.ts' } })
  log.append({ type: 'tool/result', turnId: 't1', callId: 'r2', token: 'k2', name: 'Read', content: 'export const b = 2', isError: false, verdict, durationMs: 2 })
  log.append({ type: 'tool/result', turnId: 't1', callId: 'r1', token: 'k1', name: 'Read', content: 'export const a = b +', isError: false, verdict, durationMs: 3 })
  log.append({ type: 'context/message', turnId: 't1', text: 'a.ts has a syntax error', source: 'hook:PostToolBatch' })
  log.append({ type: 'assistant/message', turnId: 't1', step: 1, text: 'Fixing.', toolCalls: [{ id: 'e1', name: 'Edit', args: { file_path: '/w/a.ts', old_string: 'b +', new_string: 'b + 1' } }] })
  await log.flush() // before a tool with side effects
  log.append({ type: 'tool/call', turnId: 't1', callId: 'e1', token: 'k3', name: 'Edit', args: { file_path: '/w/a.ts', old_string: 'b +', new_string: 'b + 1' } })
  log.append({ type: 'tool/result', turnId: 't1', callId: 'e1', token: 'k3', name: 'Edit', content: 'edited', isError: false, verdict, durationMs: 4 })
  log.append({ type: 'assistant/message', turnId: 't1', step: 2, text: 'Fixed: `a = b + 1`.', toolCalls: [] })
  log.append({ type: 'turn/end', turnId: 't1', reason: 'completed', steps: 3 })
  log.append({ type: 'turn/start', turnId: 't2' })
  log.append({ type: 'prompt/blocked', turnId: 't2', prompt: 'rm -rf /', reason: 'no', by: 'policy' })
  log.append({ type: 'turn/end', turnId: 't2', reason: 'rejected' })
  log.append({ type: 'turn/start', turnId: 't3' })
  log.append({ type: 'user/message', turnId: 't3', content: 'thanks, now add a test', source: 'user' })
  const live = deriveModelMessages(log.events)
  await log.close()

  const reopened = await new SessionStore(store.dir).open(log.id)
  const fromDisk = deriveModelMessages(reopened.events)
  await reopened.close()

  const expected: ModelMessage[] = [
    { role: 'user', content: '<system-reminder>\nCLAUDE.md: use tabs\n</system-reminder>\n\nfix the bug in a.ts' },
    {
      role: 'assistant',
      text: 'Reading both files.',
      toolCalls: [
        { id: 'r1', name: 'Read', args: { file_path: '/w/a.ts' } },
        { id: 'r2', name: 'Read', args: { file_path: '/w/b.ts' } }
      ]
    },
    { role: 'tool', callId: 'r1', toolName: 'Read', content: 'export const a = b +', isError: false },
    { role: 'tool', callId: 'r2', toolName: 'Read', content: 'export const b = 2', isError: false },
    { role: 'user', content: '<system-reminder>\na.ts has a syntax error\n</system-reminder>' },
    { role: 'assistant', text: 'Fixing.', toolCalls: [{ id: 'e1', name: 'Edit', args: { file_path: '/w/a.ts', old_string: 'b +', new_string: 'b + 1' } }] },
    { role: 'tool', callId: 'e1', toolName: 'Edit', content: 'edited', isError: false },
    { role: 'assistant', text: 'Fixed: `a = b + 1`.', toolCalls: [] },
    { role: 'user', content: 'thanks, now add a test' }
  ]
  expect(fromDisk).toStrictEqual(expected)
  expect(fromDisk).toStrictEqual(live)
})
