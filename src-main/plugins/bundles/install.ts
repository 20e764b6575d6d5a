// Installing a bundle (a folder or an npm-pack .tgz) into <seamHome>/plugins. Everything happens
// in a staging folder first; only a fully checked bundle is renamed into place and recorded in
// the lock. A failed install leaves nothing behind. An upgrade keeps the old version installed
// and recorded until the caller's `verify` (which loads the new host entry) succeeds.
import { randomBytes } from 'node:crypto'
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { errorText } from '../../../src-shared/kernel'
import { checkArchiveEntries, checkTreeLinks, extractArchive, folderIntegrity, listArchive, sha512Integrity, type ArchiveLimits } from './archive'
import { bundleDir, pluginsDir, readLock, withLock, writeLock, type LockEntry, type RegistryRecord } from './lockfile'
import { BundleError, readManifest, type BundleManifest } from './manifest'

export interface InstallOptions {
  /** A bundle folder or a .tgz file. */
  source: string
  seamHome: string
  /** Seam's own version, checked against the bundle's engines.seam. */
  seamVersion: string
  /**
   * Called with the new bundle's folder before it becomes the recorded version (the host loads
   * the host entry here). A throw aborts the install; an older version stays active.
   */
  verify?: (dir: string, manifest: BundleManifest) => void | Promise<void>
  limits?: ArchiveLimits
  /**
   * Replace an installed bundle of the same name and version whose content differs. Without it
   * such a reinstall is refused (BUNDLE_CHANGED): same name and version should mean same code.
   */
  force?: boolean
  /** For a tarball fetched from a registry: what the lock records instead of the temp file's path, and what the tarball must contain. */
  fromRegistry?: { source: string; registry: RegistryRecord; name: string; version: string }
  /** An update: a bundle the user disabled stays disabled in its new version. */
  keepEnabledState?: boolean
}

export interface InstallResult {
  status: 'installed' | 'upgraded' | 'replaced' | 'unchanged'
  manifest: BundleManifest
  entry: LockEntry
  dir: string
  previous?: LockEntry
  message: string
}

export function installBundle(options: InstallOptions): Promise<InstallResult> {
  return withLock(options.seamHome, () => install(options))
}

async function install(options: InstallOptions): Promise<InstallResult> {
  const source = path.resolve(options.source)
  const plugins = pluginsDir(options.seamHome)
  let isFolder: boolean
  try {
    isFolder = (await stat(source)).isDirectory()
  } catch (error) {
    throw new BundleError(`cannot read bundle ${source}: ${errorText(error)}`)
  }
  await mkdir(plugins, { recursive: true })
  const staging = await mkdtemp(path.join(plugins, '.staging-'))
  const staged = path.join(staging, 'package')
  try {
    const integrity = isFolder ? await stageFolder(source, staged) : await stageArchive(source, staged, options.limits)
    const contentIntegrity = isFolder ? integrity : await folderIntegrity(staged)
    const manifest = await readManifest(staged, options.seamVersion)
    const wanted = options.fromRegistry
    if (wanted && (manifest.name !== wanted.name || manifest.version !== wanted.version)) {
      throw new BundleError(`the registry's tarball for ${wanted.name}@${wanted.version} holds ${manifest.name}@${manifest.version}; nothing was installed`)
    }
    const lock = await readLock(options.seamHome)
    const previous = lock.find((entry) => entry.name === manifest.name)
    const target = bundleDir(options.seamHome, manifest.name, manifest.version)
    const label = `${manifest.name}@${manifest.version}`
    const entry: LockEntry = {
      name: manifest.name,
      version: manifest.version,
      integrity,
      contentIntegrity,
      source: wanted?.source ?? source,
      ...(wanted ? { registry: wanted.registry } : {}),
      installedAt: new Date().toISOString(),
      enabled: options.keepEnabledState && previous ? previous.enabled : true
    }
    const others = lock.filter((e) => e.name !== manifest.name)

    if (previous && previous.version === manifest.version && (await exists(target))) {
      const installed = previous.contentIntegrity ?? previous.integrity
      const sameAsRecorded = installed === contentIntegrity || previous.integrity === integrity
      // The same content as recorded: nothing to do, unless the folder on disk was changed since
      // (then this reinstall restores it, which is how a tampered bundle is repaired).
      const onDisk = sameAsRecorded ? await folderIntegrity(target).catch(() => undefined) : undefined
      if (sameAsRecorded && onDisk === installed) {
        // The same bytes asked for by name (again, or after a file install): the lock records where they now come from and the range.
        const recorded = wanted && JSON.stringify(previous.registry) !== JSON.stringify(wanted.registry) ? { ...previous, source: wanted.source, registry: wanted.registry } : previous
        if (recorded !== previous) await writeLock(options.seamHome, [...others, recorded])
        return { status: 'unchanged', manifest, entry: recorded, dir: target, previous, message: `bundle ${label} is already installed with the same content; nothing to do` }
      }
      if (!sameAsRecorded && !options.force) {
        throw new BundleError(
          `bundle ${label} is already installed with different content (installed ${installed}, new ${contentIntegrity}); the same name and version should be the same code. Replace it only if you trust the new copy: install again with --force (or confirm the replacement in the UI).`,
          'BUNDLE_CHANGED'
        )
      }
      // Same version, different content, forced: check the new copy where it stands, then swap folders.
      await runVerify(options, staged, manifest)
      const aside = path.join(plugins, `.old-${randomBytes(6).toString('hex')}`)
      await rename(target, aside)
      try {
        await rename(staged, target)
        await writeLock(options.seamHome, [...others, { ...entry, enabled: previous.enabled }])
      } catch (error) {
        await rm(target, { recursive: true, force: true })
        await rename(aside, target)
        throw error
      }
      await rm(aside, { recursive: true, force: true })
      return {
        status: 'replaced',
        manifest,
        entry: { ...entry, enabled: previous.enabled },
        dir: target,
        previous,
        message: sameAsRecorded
          ? `bundle ${label} was restored: its installed files had changed (${onDisk ?? 'unreadable'}) and are again ${contentIntegrity}`
          : `bundle ${label} was replaced: its content was ${installed}, it is now ${contentIntegrity} (restart Seam to reload modules it already imported)`
      }
    }

    // A folder at the target that the lock does not point to is left over from a crash.
    await rm(target, { recursive: true, force: true })
    await rename(staged, target)
    try {
      await runVerify(options, target, manifest)
      await writeLock(options.seamHome, [...others, entry])
    } catch (error) {
      await rm(target, { recursive: true, force: true })
      throw error
    }
    if (previous && previous.version !== manifest.version) {
      await rm(bundleDir(options.seamHome, previous.name, previous.version), { recursive: true, force: true })
      return { status: 'upgraded', manifest, entry, dir: target, previous, message: `bundle ${manifest.name} ${previous.version} -> ${manifest.version} installed` }
    }
    return { status: 'installed', manifest, entry, dir: target, previous, message: `bundle ${label} installed` }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

async function runVerify(options: InstallOptions, dir: string, manifest: BundleManifest): Promise<void> {
  if (!options.verify) return
  try {
    await options.verify(dir, manifest)
  } catch (error) {
    throw new BundleError(`bundle ${manifest.name}@${manifest.version} failed to load, so it was not installed: ${errorText(error)}`)
  }
}

async function stageArchive(source: string, staged: string, limits?: ArchiveLimits): Promise<string> {
  // Read once: the bytes hashed, listed and extracted are the same bytes.
  const data = await readFile(source)
  const checked = checkArchiveEntries(await listArchive(data), limits)
  await mkdir(staged)
  await extractArchive(data, staged, checked)
  await checkTreeLinks(staged)
  return sha512Integrity(data)
}

async function stageFolder(source: string, staged: string): Promise<string> {
  await cp(source, staged, {
    recursive: true,
    verbatimSymlinks: true,
    // Version-control metadata is not part of a bundle.
    filter: (from) => path.basename(from) !== '.git'
  })
  await checkTreeLinks(staged)
  return folderIntegrity(staged)
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p)
    return true
  } catch {
    return false
  }
}
