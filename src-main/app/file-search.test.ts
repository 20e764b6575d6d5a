// The `@` picker's file search: the walker's ignore rules, fuzzy ranking, the caps, the per-
// workspace list reused for its time to live, and `files/search` through the real router
// (validated input naming the field).
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WorkspaceFileSearch } from './file-search'
import { createHost, type Host } from './host'

let root: string
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'seam-file-search-')))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

async function write(relative: string, content = 'x\n'): Promise<void> {
  await mkdir(dirname(join(root, relative)), { recursive: true })
  await writeFile(join(root, relative), content)
}

describe('WorkspaceFileSearch', () => {
  it('ranks files fuzzily with match positions, leaving out what the ignore files exclude', async () => {
    await mkdir(join(root, '.git'))
    await write('.gitignore', 'dist/\n*.secret\n')
    await write('src/composer/MentionPicker.tsx')
    await write('src/transcript/Message.tsx')
    await write('dist/MentionPicker.js')
    await write('keys.secret')
    const search = new WorkspaceFileSearch()
    const { files, truncated } = await search.search(root, 'mentpick', 10)
    expect(truncated).toBe(false)
    expect(files.map((f) => f.path)).toEqual(['src/composer/MentionPicker.tsx'])
    const indexes = files[0]!.indexes
    expect(indexes.map((i) => files[0]!.path[i]).join('').toLowerCase()).toBe('mentpick')
    expect((await search.search(root, 'secret', 10)).files).toEqual([])
  })

  it('an empty query lists the shallowest files first, up to the limit', async () => {
    await write('a/b/deep.txt')
    await write('top.txt')
    await write('a/mid.txt')
    const { files } = await new WorkspaceFileSearch().search(root, '', 2)
    expect(files.map((f) => f.path)).toEqual(['top.txt', 'a/mid.txt'])
  })

  it('walks at most maxFiles and says the list is truncated', async () => {
    for (let i = 0; i < 5; i++) await write(`f${i}.txt`)
    const result = await new WorkspaceFileSearch({ maxFiles: 3 }).search(root, 'f', 10)
    expect(result.truncated).toBe(true)
    expect(result.files.length).toBe(3)
  })

  it('reuses the walked list within its time to live and walks again after it, or after invalidate', async () => {
    let now = 1_000
    const search = new WorkspaceFileSearch({ ttlMs: 5_000, now: () => now })
    await write('first.ts')
    expect((await search.search(root, 'ts', 10)).files.map((f) => f.path)).toEqual(['first.ts'])
    await write('second.ts')
    now += 4_000
    expect((await search.search(root, 'ts', 10)).files.map((f) => f.path)).toEqual(['first.ts'])
    now += 2_000
    expect((await search.search(root, 'second', 10)).files.map((f) => f.path)).toEqual(['second.ts'])
    await write('third.ts')
    search.invalidate(root)
    expect((await search.search(root, 'third', 10)).files.map((f) => f.path)).toEqual(['third.ts'])
  })
})

describe('files/search through the router', () => {
  let host: Host | undefined
  afterEach(async () => {
    await host?.close()
    host = undefined
  })

  it('searches the window\'s workspace (or a session\'s) and names the field of a malformed input', async () => {
    const home = join(root, 'home')
    const workspace = join(root, 'ws')
    await mkdir(home, { recursive: true })
    await write('ws/.ignore', 'build/\n')
    await write('ws/src/app.ts')
    await write('ws/build/app.js')
    host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
    const caller = { transport: 'web' as const }
    const none = await host.router.invoke('files/search', { query: 'app' }, caller)
    expect(none).toMatchObject({ ok: false, error: { code: 'NO_WORKSPACE' } })
    await host.router.invoke('workspace/set', { path: workspace }, caller)
    const reply = await host.router.invoke('files/search', { query: 'app' }, caller)
    expect(reply).toEqual({ ok: true, output: { workspace, files: [{ path: 'src/app.ts', indexes: expect.any(Array) }], truncated: false } })
    const created = await host.router.invoke('sessions/create', {}, caller)
    const sessionId = created.ok ? (created.output as { id: string }).id : ''
    const bySession = await host.router.invoke('files/search', { sessionId, query: 'app', limit: 5 }, caller)
    expect(bySession).toMatchObject({ ok: true, output: { workspace, files: [{ path: 'src/app.ts' }] } })
    const bad = await host.router.invoke('files/search', { query: 'x', limit: 0 }, caller)
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'limit' } })
  })
})
