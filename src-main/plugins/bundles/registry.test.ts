import { mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Kernel } from '../../../src-shared/kernel'
import { hostSource, makeBundleDir, packTgz } from '../../../test-support/bundles'
import { loadBundleHost } from './host-entry'
import { installBundle } from './install'
import { bundleDir, readLock } from './lockfile'
import { listBundles, loadBundleCatalog, removeBundle, setEnabled } from './registry'

const SEAM_VERSION = '0.1.0'
let tmp: string
let seamHome: string

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'seam-registry-'))
  seamHome = path.join(tmp, 'home')
})
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true })
})

async function install(name: string, host: string | undefined, client?: string) {
  const dir = await makeBundleDir(path.join(tmp, `src-${name}`), { name, version: '1.0.0', host, client })
  const file = await packTgz(dir, path.join(tmp, `${name}.tgz`))
  return installBundle({ source: file, seamHome, seamVersion: SEAM_VERSION, verify: host === undefined ? undefined : (d, m) => loadBundleHost(d, m).then(() => undefined) })
}

describe('installed bundles', () => {
  it('lists, disables, enables and removes (lock first, then the folder)', async () => {
    await install('alpha', hostSource('alpha'))
    await install('beta', undefined, 'export default {}')
    expect((await listBundles(seamHome)).map((b) => [b.name, b.enabled, b.dir])).toEqual([
      ['alpha', true, bundleDir(seamHome, 'alpha', '1.0.0')],
      ['beta', true, bundleDir(seamHome, 'beta', '1.0.0')]
    ])
    await setEnabled(seamHome, 'alpha', false)
    expect((await readLock(seamHome)).find((b) => b.name === 'alpha')?.enabled).toBe(false)
    await setEnabled(seamHome, 'alpha', true)
    expect((await readLock(seamHome)).find((b) => b.name === 'alpha')?.enabled).toBe(true)
    await removeBundle(seamHome, 'alpha')
    expect((await listBundles(seamHome)).map((b) => b.name)).toEqual(['beta'])
    expect((await readdir(path.join(seamHome, 'plugins'))).sort()).toEqual(['beta@1.0.0', 'lock.json'])
    await expect(removeBundle(seamHome, 'alpha')).rejects.toThrow(/bundle alpha is not installed/)
    await expect(setEnabled(seamHome, 'nope', true)).rejects.toThrow(/bundle nope is not installed/)
  })

  it('turns enabled bundles with a host entry into catalog entries that a kernel can apply', async () => {
    const key = `__applies_${Math.random().toString(36).slice(2)}`
    await install('gamma', hostSource('gamma', key))
    await install('client-only', undefined, 'export default {}')
    await install('off', hostSource('off', key))
    await setEnabled(seamHome, 'off', false)
    const catalog = await loadBundleCatalog(seamHome, SEAM_VERSION)
    expect(catalog.errors).toEqual([])
    expect([...catalog.entries.keys()]).toEqual(['bundle:gamma'])
    expect([...catalog.manifests.keys()].sort()).toEqual(['client-only', 'gamma'])
    const kernel = new Kernel()
    kernel.plugin(catalog.entries.get('bundle:gamma')!.plugin, { level: 2 })
    expect((globalThis as Record<string, unknown>)[key]).toEqual([{ name: 'gamma', config: { level: 2 } }])
  })

  it('a host entry without a plugin default export fails the install with a clear message', async () => {
    await expect(install('broken', 'export const notDefault = 1\n')).rejects.toThrow(
      /broken@1\.0\.0 failed to load.*host entry host\.mjs must export default a plugin \(it has no default export\)/
    )
    await expect(install('noapply', 'export default { name: "x" }\n')).rejects.toThrow(/needs an apply/)
    await expect(install('throws', 'throw new Error("top-level boom")\n')).rejects.toThrow(/importing the host entry host\.mjs failed: top-level boom/)
    expect(await listBundles(seamHome)).toEqual([])
  })

  it('reports a bundle whose files went bad instead of failing the whole catalog', async () => {
    await install('good', hostSource('good'))
    await install('gone', hostSource('gone'))
    await rm(path.join(bundleDir(seamHome, 'gone', '1.0.0'), 'host.mjs'))
    const catalog = await loadBundleCatalog(seamHome, SEAM_VERSION)
    expect([...catalog.entries.keys()]).toEqual(['bundle:good'])
    // The missing file is caught by the integrity check before the manifest is read.
    expect(catalog.errors).toEqual([{ name: 'gone', error: expect.stringMatching(/bundle gone@1\.0\.0 was not loaded: its installed files do not match lock\.json/) }])
  })
})
