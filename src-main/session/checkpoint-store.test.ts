// The checkpoint blob store (issue 17: a checkpoint of each file before Write/Edit, stored with
// the session): content-addressed, deduplicated, capped, checked on read.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { CheckpointStore, checkpointFolderOf } from './checkpoint-store'
import { SessionStore } from './store'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-ckpt-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

it('keeps a file\'s bytes under their sha256 and reads them back exactly (binary too)', async () => {
  const store = new CheckpointStore(join(dir, 's.files'))
  const bytes = Buffer.from([0, 1, 2, 255, 10, 13])
  await writeFile(join(dir, 'bin'), bytes)
  const state = await store.capture(join(dir, 'bin'))
  expect(state).toEqual({ kind: 'file', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: 6 })
  if (state.kind !== 'file') throw new Error('expected a file state')
  expect(await store.blob(state.sha256)).toEqual(bytes)
})

it('keeps the same content once however often it is captured', async () => {
  const store = new CheckpointStore(join(dir, 's.files'))
  await writeFile(join(dir, 'a'), 'same')
  await writeFile(join(dir, 'b'), 'same')
  const a = await store.capture(join(dir, 'a'))
  const b = await store.capture(join(dir, 'b'))
  await store.capture(join(dir, 'a'))
  expect(a).toEqual(b)
  expect(await readdir(store.folder)).toHaveLength(1)
})

it('a missing file is absent; a folder, or a file over the cap, is unsaved with the reason and nothing is kept', async () => {
  const store = new CheckpointStore(join(dir, 's.files'), 10)
  expect(await store.capture(join(dir, 'nothing'))).toEqual({ kind: 'absent' })
  await mkdir(join(dir, 'folder'))
  expect(await store.capture(join(dir, 'folder'))).toEqual({ kind: 'unsaved', reason: 'it is not a regular file' })
  await writeFile(join(dir, 'big'), 'x'.repeat(11))
  expect(await store.capture(join(dir, 'big'))).toEqual({ kind: 'unsaved', reason: 'it is 11 bytes, over the 10 bytes checkpoint limit', size: 11 })
  expect(existsSync(store.folder)).toBe(false)
  await expect(store.restore(join(dir, 'big'), { kind: 'unsaved', reason: 'it is 11 bytes, over the 10 bytes checkpoint limit' })).rejects.toThrow(
    'its content was not kept (it is 11 bytes, over the 10 bytes checkpoint limit)'
  )
})

it('a blob whose content no longer matches its name is refused, not restored', async () => {
  const store = new CheckpointStore(join(dir, 's.files'))
  await writeFile(join(dir, 'a'), 'original')
  const state = await store.capture(join(dir, 'a'))
  if (state.kind !== 'file') throw new Error('expected a file state')
  await writeFile(join(store.folder, state.sha256), 'tampered')
  await expect(store.restore(join(dir, 'a'), state)).rejects.toThrow(/is damaged/)
  expect(await readFile(join(dir, 'a'), 'utf8')).toBe('original')
})

it('restores content (creating folders) and absence (removing the file)', async () => {
  const store = new CheckpointStore(join(dir, 's.files'))
  await writeFile(join(dir, 'a'), 'v1')
  const v1 = await store.capture(join(dir, 'a'))
  await rm(join(dir, 'a'))
  await store.restore(join(dir, 'deep', 'er', 'a'), v1)
  expect(await readFile(join(dir, 'deep', 'er', 'a'), 'utf8')).toBe('v1')
  await store.restore(join(dir, 'deep', 'er', 'a'), { kind: 'absent' })
  expect(existsSync(join(dir, 'deep', 'er', 'a'))).toBe(false)
  await store.restore(join(dir, 'never-there'), { kind: 'absent' })
})

it('deleting a session removes its checkpoint folder with it', async () => {
  const sessions = new SessionStore(join(dir, 'sessions'))
  const log = sessions.create({ workspace: dir })
  await log.close()
  const store = CheckpointStore.forLog(log.path)
  expect(store.folder).toBe(checkpointFolderOf(log.path))
  await writeFile(join(dir, 'a'), 'kept')
  await store.capture(join(dir, 'a'))
  expect((await sessions.list()).map((s) => s.id)).toEqual([log.id])
  await sessions.delete(log.id)
  expect(existsSync(store.folder)).toBe(false)
})
