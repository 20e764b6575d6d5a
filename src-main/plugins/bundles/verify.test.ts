// Installed bundles load only while their files are what was installed (issue 13: Bundles): a
// host.js changed after install is refused with an error naming the bundle and how to reinstall,
// and reinstalling the recorded content repairs it.
import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hostSource, makeBundleDir, packTgz } from '../../../test-support/bundles'
import { installBundle } from './install'
import { readLock } from './lockfile'
import { loadBundleCatalog } from './registry'

const SEAM_VERSION = '0.1.0'
let tmp: string
let seamHome: string

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'seam-verify-'))
  seamHome = path.join(tmp, 'home')
})
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true })
})

async function installTgz(name: string): Promise<{ dir: string; source: string }> {
  const dir = await makeBundleDir(path.join(tmp, `src-${name}`), { name, version: '1.0.0', host: hostSource(name) })
  const source = await packTgz(dir, path.join(tmp, `${name}.tgz`))
  const result = await installBundle({ source, seamHome, seamVersion: SEAM_VERSION })
  return { dir: result.dir, source }
}

describe('installed bundle integrity', () => {
  it('records the installed tree\'s hash and loads an untouched bundle', async () => {
    await installTgz('seam-ok')
    const [entry] = await readLock(seamHome)
    expect(entry.contentIntegrity).toMatch(/^sha512-/)
    const catalog = await loadBundleCatalog(seamHome, SEAM_VERSION)
    expect(catalog.errors).toEqual([])
    expect(catalog.entries.has('bundle:seam-ok')).toBe(true)
  })

  it('a host entry changed after install is refused, naming the bundle and how to reinstall; reinstalling repairs it', async () => {
    const { dir, source } = await installTgz('seam-tampered')
    await appendFile(path.join(dir, 'host.mjs'), '\nglobalThis.__seamTampered = true\n')
    const catalog = await loadBundleCatalog(seamHome, SEAM_VERSION)
    expect(catalog.entries.has('bundle:seam-tampered')).toBe(false)
    expect(catalog.errors).toHaveLength(1)
    expect(catalog.errors[0].name).toBe('seam-tampered')
    expect(catalog.errors[0].error).toMatch(/bundle seam-tampered@1\.0\.0 was not loaded: its installed files do not match lock\.json/)
    expect(catalog.errors[0].error).toContain(`seam plugin install ${source} --force`)
    expect((globalThis as { __seamTampered?: boolean }).__seamTampered).toBeUndefined()

    const repaired = await installBundle({ source, seamHome, seamVersion: SEAM_VERSION })
    expect(repaired.status).toBe('replaced')
    expect(repaired.message).toContain('restored')
    expect((await loadBundleCatalog(seamHome, SEAM_VERSION)).errors).toEqual([])
  })
})
