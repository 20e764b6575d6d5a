// folders/list through the real router, with a real temporary home (HOME of the host's env): `~`
// is that home, not the host's working folder; nothing outside it is listed, links leading out
// included; hidden folders on request; an unreadable folder listed but not openable.
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FolderListing } from '../../src-shared/contract/ipc'
import { createHost, type Host } from './host'
import { expandHome } from './folder-browser'

let dir: string
let home: string
let outside: string
let host: Host
const caller = { transport: 'web' as const }

async function call<T>(method: string, input: unknown): Promise<T> {
  const reply = await host.router.invoke(method as never, input as never, caller)
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error)
  return reply.output as T
}

const list = (input: unknown) => call<FolderListing>('folders/list', input)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-folders-'))
  home = join(dir, 'home')
  outside = join(dir, 'elsewhere')
  await mkdir(join(home, 'projects', 'alpha'), { recursive: true })
  await mkdir(join(home, 'projects', 'beta'))
  await mkdir(join(home, '.config'))
  await mkdir(join(home, 'locked'))
  await writeFile(join(home, 'notes.txt'), 'not a folder')
  await mkdir(outside)
  await symlink(outside, join(home, 'escape'))
  await symlink(join(home, 'projects'), join(home, 'shortcut'))
  await chmod(join(home, 'locked'), 0o000)
  host = await createHost({ mode: 'web', env: { ...process.env, HOME: home, SEAM_HOME: join(dir, 'seam') } })
})

afterAll(async () => {
  await host?.close()
  await chmod(join(home, 'locked'), 0o755).catch(() => {})
  await rm(dir, { recursive: true, force: true })
})

describe('folders/list', () => {
  it('lists the home for `~` (and by default): folders only, sorted, hidden ones left out, the unreadable and the links out shown disabled', async () => {
    const listing = await list({ path: '~' })
    expect(await list({})).toEqual(listing)
    expect(listing).toMatchObject({ path: home, display: '~', parent: null, home, truncated: false })
    expect(listing.entries).toEqual([
      { name: 'escape', path: join(home, 'escape'), hidden: false, disabled: 'outside your home folder' },
      // root reads anything: the permission check is only meaningful for other users.
      { name: 'locked', path: join(home, 'locked'), hidden: false, ...(process.getuid?.() === 0 ? {} : { disabled: 'unreadable' }) },
      { name: 'projects', path: join(home, 'projects'), hidden: false },
      { name: 'shortcut', path: join(home, 'shortcut'), hidden: false }
    ])
    const withHidden = await list({ path: '~', hidden: true })
    expect(withHidden.entries.map((e) => [e.name, e.hidden])).toContainEqual(['.config', true])
  })

  it('expands `~/x` against the home, never the host\'s working folder; a relative path is from the home too; a link inside the home resolves', async () => {
    expect(process.cwd()).not.toBe(home)
    const projects = await list({ path: '~/projects' })
    expect(projects).toMatchObject({ path: join(home, 'projects'), display: '~/projects', parent: home })
    expect(projects.entries.map((e) => e.name)).toEqual(['alpha', 'beta'])
    expect((await list({ path: 'projects/alpha' })).display).toBe('~/projects/alpha')
    expect((await list({ path: join(home, 'projects') })).display).toBe('~/projects')
    expect((await list({ path: '~/shortcut' })).path).toBe(join(home, 'projects'))
    expect(expandHome('~', home)).toBe(home)
    expect(expandHome('~/a/../b', home)).toBe(join(home, 'b'))
  })

  it('refuses paths outside the home, links that lead out, files and missing folders, naming the field', async () => {
    await expect(list({ path: outside })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'path', message: expect.stringContaining('is outside your home folder') })
    await expect(list({ path: '/' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'path' })
    await expect(list({ path: '~/..' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'path' })
    await expect(list({ path: '~/escape' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(`it is a link to ${outside}`) })
    await expect(list({ path: '~/notes.txt' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('is a file, not a folder') })
    await expect(list({ path: '~/nope' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'path', message: `path: there is no folder "${join(home, 'nope')}"` })
    // The contract's zod check: wrong types and unknown keys are refused before the handler, naming the field.
    await expect(list({ path: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'path' })
    await expect(list({ path: '~', hidden: 'yes' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'hidden' })
    await expect(list({ path: '~', depth: 2 })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'depth' })
  })

  it('workspace/set takes `~/x` from the home as well', async () => {
    expect(await call('workspace/set', { path: '~/projects/alpha' })).toEqual({ path: join(home, 'projects', 'alpha') })
  })
})
