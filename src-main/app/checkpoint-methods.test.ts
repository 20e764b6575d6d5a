// The checkpoint methods as the UI reaches them (issue 17, "Reviewing changes"): through the real
// router and host, malformed input answered naming the field, unknown turns and messages named.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createHost, type Host } from './host'

let home: string
let host: Host | undefined
const caller = { transport: 'web' as const }

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-ckpt-host-'))
})
afterEach(async () => {
  await host?.close()
  host = undefined
  await rm(home, { recursive: true, force: true })
})

it('validates checkpoint method inputs and names what the session does not have', async () => {
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
  const { router } = host
  const workspace = join(home, 'ws')
  await mkdir(workspace)
  await router.invoke('workspace/set', { path: workspace }, caller)
  const created = await router.invoke('sessions/create', {}, caller)
  if (!created.ok) throw new Error(created.error.message)
  const sessionId = (created.output as { id: string }).id

  expect(await router.invoke('checkpoints/rewind', { sessionId, messageSeq: 0 }, caller)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'messageSeq' } })
  expect(await router.invoke('checkpoints/revert', { sessionId: '../x', turnId: 't' }, caller)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'sessionId' } })
  expect(await router.invoke('checkpoints/revert', { sessionId, turnId: 't', extra: 1 }, caller)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'extra' } })
  expect(await router.invoke('checkpoints/rewind', { sessionId, messageSeq: 1 }, caller)).toEqual({
    ok: false,
    error: { code: 'INVALID_INPUT', field: 'messageSeq', message: 'event 1 is not a user message of this session' }
  })
  expect(await router.invoke('checkpoints/revert', { sessionId, turnId: 'nope' }, caller)).toEqual({
    ok: false,
    error: { code: 'INVALID_INPUT', field: 'turnId', message: 'turn nope changed no files this session kept checkpoints of' }
  })
  expect(await router.invoke('checkpoints/changes', { sessionId, turnId: 'nope' }, caller)).toEqual({ ok: true, output: { turnId: 'nope', files: [] } })
})
