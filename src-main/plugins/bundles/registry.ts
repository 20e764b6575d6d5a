// The installed bundles as recorded in the lock: list, enable/disable, remove, and turning the
// enabled ones into catalog entries (`bundle:<name>`) the profile can name.
import { rm } from 'node:fs/promises'
import { errorText } from '../../../src-shared/kernel'
import type { CatalogEntry } from '../profile'
import { loadBundleHost } from './host-entry'
import { bundleDir, readLock, withLock, writeLock, type LockEntry } from './lockfile'
import { BundleError, readManifest, type BundleManifest } from './manifest'
import { verifyInstalledBundle } from './verify'

export interface InstalledBundle extends LockEntry {
  dir: string
}

export async function listBundles(seamHome: string): Promise<InstalledBundle[]> {
  const lock = await readLock(seamHome)
  return lock.map((entry) => ({ ...entry, dir: bundleDir(seamHome, entry.name, entry.version) }))
}

export function setEnabled(seamHome: string, name: string, enabled: boolean): Promise<LockEntry> {
  return withLock(seamHome, async () => {
    const lock = await readLock(seamHome)
    const entry = lock.find((e) => e.name === name)
    if (!entry) throw new BundleError(`bundle ${name} is not installed`)
    const updated = { ...entry, enabled }
    if (entry.enabled !== enabled) await writeLock(seamHome, lock.map((e) => (e === entry ? updated : e)))
    return updated
  })
}

/** Removes the lock entry first (so the bundle is gone for the next boot even if deleting files fails), then its folder. */
export function removeBundle(seamHome: string, name: string): Promise<LockEntry> {
  return withLock(seamHome, async () => {
    const lock = await readLock(seamHome)
    const entry = lock.find((e) => e.name === name)
    if (!entry) throw new BundleError(`bundle ${name} is not installed`)
    await writeLock(seamHome, lock.filter((e) => e !== entry))
    await rm(bundleDir(seamHome, entry.name, entry.version), { recursive: true, force: true })
    return entry
  })
}

export function bundleCatalogKey(name: string): string {
  return `bundle:${name}`
}

export interface BundleCatalog {
  entries: Map<string, CatalogEntry>
  manifests: Map<string, BundleManifest>
  /** Bundles that could not be loaded, with why; the others still load. */
  errors: { name: string; error: string }[]
}

/**
 * Checks each enabled bundle's files against lock.json, re-checks its manifest and imports its host entry. Bundles with only a
 * client part have no catalog entry. A broken bundle is reported, not fatal.
 */
export async function loadBundleCatalog(seamHome: string, seamVersion: string): Promise<BundleCatalog> {
  const result: BundleCatalog = { entries: new Map(), manifests: new Map(), errors: [] }
  for (const bundle of await listBundles(seamHome)) {
    if (!bundle.enabled) continue
    try {
      await verifyInstalledBundle(bundle, bundle.dir)
      const manifest = await readManifest(bundle.dir, seamVersion)
      result.manifests.set(bundle.name, manifest)
      if (!manifest.host) continue
      const plugin = await loadBundleHost(bundle.dir, manifest)
      result.entries.set(bundleCatalogKey(bundle.name), {
        plugin,
        source: 'bundle',
        bundle: { name: bundle.name, version: bundle.version, dir: bundle.dir }
      })
    } catch (error) {
      result.errors.push({ name: bundle.name, error: errorText(error) })
    }
  }
  return result
}
