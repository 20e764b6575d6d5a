import { createHash } from 'node:crypto'
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hostSource, makeBundleDir, packTgz, type BundleDirOptions, type CraftedEntry } from '../../../test-support/bundles'
import { installBundle } from './install'
import { bundleDir, lockPath, readLock } from './lockfile'

const SEAM_VERSION = '0.1.0'
let tmp: string
let seamHome: string

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'seam-bundles-'))
  seamHome = path.join(tmp, 'home')
})
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true })
})

async function bundle(options: Partial<BundleDirOptions> & { dirName?: string } = {}): Promise<string> {
  const name = options.name ?? 'seam-demo'
  return makeBundleDir(path.join(tmp, options.dirName ?? `src-${name.replace('/', '+')}-${options.version ?? '1.0.0'}`), {
    name,
    version: options.version ?? '1.0.0',
    host: options.host ?? hostSource(name),
    ...options
  })
}

async function tgz(options: Partial<BundleDirOptions> & { dirName?: string } = {}, extraEntries?: CraftedEntry[]): Promise<string> {
  const dir = await bundle(options)
  return packTgz(dir, path.join(tmp, `${path.basename(dir)}-${Math.random().toString(36).slice(2)}.tgz`), { extraEntries })
}

async function pluginsListing(): Promise<string[]> {
  try {
    return (await readdir(path.join(seamHome, 'plugins'))).sort()
  } catch {
    return []
  }
}

async function lockText(): Promise<string | undefined> {
  try {
    return await readFile(lockPath(seamHome), 'utf8')
  } catch {
    return undefined
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p)
    return true
  } catch {
    return false
  }
}

describe('installing a bundle', () => {
  it('installs an npm-pack tarball into plugins/<name>@<version> and records sha512 integrity, source and state', async () => {
    const file = await tgz({ name: '@acme/lint', version: '1.2.3', client: 'export default {}' })
    const result = await installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION })
    expect(result.status).toBe('installed')
    const dir = bundleDir(seamHome, '@acme/lint', '1.2.3')
    expect(path.basename(dir)).toBe('@acme+lint@1.2.3')
    expect(result.dir).toBe(dir)
    expect(await readFile(path.join(dir, 'host.mjs'), 'utf8')).toContain('@acme/lint')
    expect(result.manifest).toMatchObject({ name: '@acme/lint', version: '1.2.3', host: 'host.mjs', client: 'client.mjs', engines: '>=0.1.0' })
    const expected = `sha512-${createHash('sha512').update(await readFile(file)).digest('base64')}`
    const [entry] = await readLock(seamHome)
    expect(entry).toMatchObject({ name: '@acme/lint', version: '1.2.3', integrity: expected, source: path.resolve(file), enabled: true })
    expect(Number.isNaN(Date.parse(entry.installedAt))).toBe(false)
    expect(await pluginsListing()).toEqual(['@acme+lint@1.2.3', 'lock.json'])
  })

  it('installs a folder with a deterministic content hash; the same content again is a no-op with a message', async () => {
    const first = await bundle({ dirName: 'a', extraFiles: { 'lib/util.mjs': 'export const x = 1' } })
    const second = await bundle({ dirName: 'b', extraFiles: { 'lib/util.mjs': 'export const x = 1' } })
    const installed = await installBundle({ source: first, seamHome, seamVersion: SEAM_VERSION })
    expect(installed.entry.integrity).toMatch(/^sha512-/)
    const again = await installBundle({ source: second, seamHome, seamVersion: SEAM_VERSION })
    expect(again.status).toBe('unchanged')
    expect(again.message).toMatch(/already installed with the same content/)
    expect(again.entry.integrity).toBe(installed.entry.integrity)
    expect((await readLock(seamHome))[0].source).toBe(path.resolve(first))
  })

  it('refuses to replace the same version with different content unless forced, then reports both hashes (issue 13: Bundles)', async () => {
    const v1 = await tgz({ dirName: 'one', extraFiles: { 'data.txt': 'one' } })
    const v1b = await tgz({ dirName: 'two', extraFiles: { 'data.txt': 'two' } })
    const first = await installBundle({ source: v1, seamHome, seamVersion: SEAM_VERSION })
    const lockBefore = await lockText()
    const refused = installBundle({ source: v1b, seamHome, seamVersion: SEAM_VERSION })
    await expect(refused).rejects.toMatchObject({ code: 'BUNDLE_CHANGED', message: expect.stringContaining('--force') })
    expect(await lockText()).toBe(lockBefore)
    expect(await readFile(path.join(first.dir, 'data.txt'), 'utf8')).toBe('one')
    const result = await installBundle({ source: v1b, seamHome, seamVersion: SEAM_VERSION, force: true })
    expect(result.status).toBe('replaced')
    expect(result.message).toContain(first.entry.contentIntegrity!)
    expect(result.message).toContain(result.entry.contentIntegrity!)
    expect(first.entry.contentIntegrity).not.toBe(result.entry.contentIntegrity)
    expect(await readFile(path.join(result.dir, 'data.txt'), 'utf8')).toBe('two')
    expect((await readLock(seamHome))[0].source).toBe(path.resolve(v1b))
    expect(await pluginsListing()).toEqual(['lock.json', 'seam-demo@1.0.0'])
  })

  it('accepts a hard link to another file of the package', async () => {
    const file = await tgz({}, [{ path: 'package/copy.mjs', type: 'Link', linkpath: 'package/host.mjs' }])
    const result = await installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION })
    expect(await readFile(path.join(result.dir, 'copy.mjs'), 'utf8')).toBe(await readFile(path.join(result.dir, 'host.mjs'), 'utf8'))
  })

  it('accepts a symlink that stays inside the package', async () => {
    const file = await tgz({}, [{ path: 'package/alias.mjs', type: 'SymbolicLink', linkpath: 'host.mjs' }])
    const result = await installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION })
    expect((await lstat(path.join(result.dir, 'alias.mjs'))).isSymbolicLink()).toBe(true)
  })
})

describe('rejected archives (nothing written, lock untouched)', () => {
  const outside = () => path.join(tmp, 'outside-target')
  const cases: { name: string; entries: () => CraftedEntry[]; message: RegExp }[] = [
    { name: "an entry with '..'", entries: () => [{ path: 'package/../../evil.txt', content: 'x' }], message: /"package\/\.\.\/\.\.\/evil\.txt".*'\.\.'/ },
    { name: 'an entry with an absolute path', entries: () => [{ path: outside(), content: 'x' }], message: /absolute path/ },
    {
      name: 'a symlink pointing outside (relative)',
      entries: () => [{ path: 'package/leak', type: 'SymbolicLink', linkpath: '../../../etc/passwd' }],
      message: /"package\/leak" is a symlink pointing outside/
    },
    {
      name: 'a symlink pointing outside (absolute)',
      entries: () => [{ path: 'package/leak', type: 'SymbolicLink', linkpath: '/etc/passwd' }],
      message: /"package\/leak" is a symlink pointing outside/
    },
    {
      name: 'a hard link pointing outside',
      entries: () => [{ path: 'package/leak', type: 'Link', linkpath: '../outside-target' }],
      message: /"package\/leak" is a hard link pointing outside/
    },
    {
      name: 'a hard link to an absolute path',
      entries: () => [{ path: 'package/leak', type: 'Link', linkpath: '/etc/passwd' }],
      message: /"package\/leak" is a hard link pointing outside/
    },
    {
      name: 'an entry written through a symlink',
      entries: () => [
        { path: 'package/dir', type: 'SymbolicLink', linkpath: '.' },
        { path: 'package/dir/x.txt', content: 'x' }
      ],
      message: /"package\/dir\/x\.txt" lies under the link/
    },
    {
      name: 'a chain of symlinks that escapes although each link looks inside',
      entries: () => [
        { path: 'package/p/', type: 'Directory' },
        { path: 'package/p/q/', type: 'Directory' },
        { path: 'package/p/up', type: 'SymbolicLink', linkpath: '..' },
        { path: 'package/p/q/leak', type: 'SymbolicLink', linkpath: '../up/..' }
      ],
      message: /"p\/q\/leak" is a symlink pointing outside the bundle/
    },
    { name: 'an entry beside the package folder', entries: () => [{ path: 'other/x.txt', content: 'x' }], message: /outside the package folder "package\/"/ },
    { name: 'a device entry', entries: () => [{ path: 'package/dev', type: 'FIFO' }], message: /unsupported type/ }
  ]

  for (const testCase of cases) {
    it(`rejects ${testCase.name}`, async () => {
      await installBundle({ source: await tgz({ name: 'already-there' }), seamHome, seamVersion: SEAM_VERSION })
      const lockBefore = await lockText()
      const listingBefore = await pluginsListing()
      const file = await tgz({}, testCase.entries())
      await expect(installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION })).rejects.toThrow(testCase.message)
      expect(await lockText()).toBe(lockBefore)
      expect(await pluginsListing()).toEqual(listingBefore)
      expect(await exists(outside())).toBe(false)
      expect(await exists(path.join(tmp, 'evil.txt'))).toBe(false)
      expect(await exists(path.join(seamHome, 'evil.txt'))).toBe(false)
    })
  }

  it('rejects a folder bundle with a symlink pointing outside it', async () => {
    const dir = await bundle()
    await writeFile(path.join(tmp, 'secret.txt'), 'secret')
    await symlink(path.join('..', 'secret.txt'), path.join(dir, 'leak'))
    await expect(installBundle({ source: dir, seamHome, seamVersion: SEAM_VERSION })).rejects.toThrow(/"leak" is a symlink pointing outside/)
    expect(await pluginsListing()).toEqual([])
  })

  it('rejects something that is not a tar archive', async () => {
    const file = path.join(tmp, 'junk.tgz')
    await writeFile(file, 'definitely not gzip')
    await expect(installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION })).rejects.toThrow(/tar archive|archive is empty/)
    expect(await pluginsListing()).toEqual([])
  })
})

describe('rejected manifests', () => {
  const cases: { name: string; options: Partial<BundleDirOptions>; message: RegExp }[] = [
    { name: 'missing engines.seam', options: { enginesSeam: null }, message: /bundle seam-demo does not declare engines\.seam/ },
    {
      name: 'an incompatible engines range (both versions shown)',
      options: { enginesSeam: '^2.0.0' },
      message: /seam-demo@1\.0\.0 requires Seam \^2\.0\.0 \(engines\.seam\), but this is Seam 0\.1\.0/
    },
    { name: 'an engines range that is not semver', options: { enginesSeam: 'soon' }, message: /engines\.seam: not a valid semver range/ },
    { name: 'a missing declared host entry', options: { manifest: { seam: { host: 'dist/missing.mjs' } } }, message: /seam\.host: declared entry file does not exist \("dist\/missing\.mjs"\)/ },
    { name: 'a missing declared client entry', options: { manifest: { seam: { host: 'host.mjs', client: 'ui.mjs' } } }, message: /seam\.client: declared entry file does not exist/ },
    { name: 'an absolute entry path', options: { manifest: { seam: { host: '/etc/passwd.js' } } }, message: /seam\.host: must be a relative path/ },
    { name: 'an entry escaping the bundle', options: { manifest: { seam: { host: '../x.mjs' } } }, message: /seam\.host: escapes the bundle folder/ },
    { name: 'an entry that is not a module file', options: { manifest: { seam: { host: 'package.json' } } }, message: /seam\.host: must be an ES module/ },
    { name: 'no seam field', options: { manifest: { seam: undefined } }, message: /seam: / },
    { name: 'a seam field with neither entry', options: { manifest: { seam: {} } }, message: /seam: seam must name a host and\/or a client entry/ },
    { name: 'an unknown seam field', options: { manifest: { seam: { host: 'host.mjs', server: 'x.mjs' } } }, message: /seam: .*server/ },
    { name: 'an uppercase package name', options: { name: 'Seam-Demo' }, message: /name: not a valid npm package name/ },
    { name: 'a package name with a leading dot', options: { name: '.hidden' }, message: /name: not a valid npm package name/ },
    { name: 'a package name with a leading underscore', options: { name: '_private' }, message: /name: not a valid npm package name/ },
    { name: 'a package name that is too long', options: { name: 'a'.repeat(215) }, message: /name: a package name has at most 214 characters/ },
    { name: 'a version that is not semver', options: { version: '1.0' }, message: /version: not a valid semver version/ }
  ]
  for (const testCase of cases) {
    it(`rejects ${testCase.name}`, async () => {
      const file = await tgz({ dirName: 'bad', ...testCase.options })
      await expect(installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION })).rejects.toThrow(testCase.message)
      expect(await pluginsListing()).toEqual([])
    })
  }

  it('accepts a scoped name and a prerelease Seam inside the range', async () => {
    const file = await tgz({ name: '@scope/ok-name.v2', enginesSeam: '>=0.1.0-0 <0.2.0' })
    const result = await installBundle({ source: file, seamHome, seamVersion: '0.1.5-dev.1' })
    expect(result.status).toBe('installed')
  })
})

describe('upgrades', () => {
  it('keeps the old version installed and recorded until verify passes, then swaps and removes it', async () => {
    await installBundle({ source: await tgz({ version: '1.0.0' }), seamHome, seamVersion: SEAM_VERSION })
    const oldDir = bundleDir(seamHome, 'seam-demo', '1.0.0')
    const seenDuringVerify: { oldExists: boolean; lockVersion: string; newHasHost: boolean }[] = []
    const result = await installBundle({
      source: await tgz({ version: '1.1.0' }),
      seamHome,
      seamVersion: SEAM_VERSION,
      verify: async (dir) => {
        seenDuringVerify.push({
          oldExists: await exists(oldDir),
          lockVersion: (await readLock(seamHome))[0].version,
          newHasHost: await exists(path.join(dir, 'host.mjs'))
        })
      }
    })
    expect(seenDuringVerify).toEqual([{ oldExists: true, lockVersion: '1.0.0', newHasHost: true }])
    expect(result).toMatchObject({ status: 'upgraded', previous: { version: '1.0.0' } })
    expect((await readLock(seamHome)).map((e) => e.version)).toEqual(['1.1.0'])
    expect(await pluginsListing()).toEqual(['lock.json', 'seam-demo@1.1.0'])
  })

  it('keeps the old version when verify fails, and removes the new folder', async () => {
    await installBundle({ source: await tgz({ version: '1.0.0' }), seamHome, seamVersion: SEAM_VERSION })
    const lockBefore = await lockText()
    await expect(
      installBundle({
        source: await tgz({ version: '2.0.0' }),
        seamHome,
        seamVersion: SEAM_VERSION,
        verify: () => {
          throw new Error('host entry exploded')
        }
      })
    ).rejects.toThrow(/seam-demo@2\.0\.0 failed to load, so it was not installed: host entry exploded/)
    expect(await lockText()).toBe(lockBefore)
    expect(await pluginsListing()).toEqual(['lock.json', 'seam-demo@1.0.0'])
  })

  it('a failed first install leaves no folder and no lock', async () => {
    await expect(
      installBundle({
        source: await tgz(),
        seamHome,
        seamVersion: SEAM_VERSION,
        verify: () => Promise.reject(new Error('nope'))
      })
    ).rejects.toThrow(/nope/)
    expect(await pluginsListing()).toEqual([])
  })

  it('concurrent installs of different bundles both land in the lock', async () => {
    const [a, b] = await Promise.all([tgz({ name: 'bundle-a' }), tgz({ name: 'bundle-b' })])
    await Promise.all([
      installBundle({ source: a, seamHome, seamVersion: SEAM_VERSION }),
      installBundle({ source: b, seamHome, seamVersion: SEAM_VERSION })
    ])
    expect((await readLock(seamHome)).map((e) => e.name)).toEqual(['bundle-a', 'bundle-b'])
  })
})

describe('test fixture sanity', () => {
  it('packTgz without crafted entries produces a tarball rooted at package/', async () => {
    const dir = await bundle()
    await mkdir(path.join(dir, 'nested'))
    await writeFile(path.join(dir, 'nested', 'a.txt'), 'a')
    const file = await packTgz(dir, path.join(tmp, 'plain.tgz'))
    const result = await installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION })
    expect(await readFile(path.join(result.dir, 'nested', 'a.txt'), 'utf8')).toBe('a')
  })
})
