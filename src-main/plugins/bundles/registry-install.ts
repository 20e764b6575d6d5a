// `seam plugin install NAME[@RANGE]` and `seam plugin update [NAME]`: resolve from the npm
// registry the user's npm is set up for, pick the version (engines.seam checked before any
// download), download and verify the tarball against the registry's integrity, then hand the
// verified bytes to the bundle installer (install.ts), which records name, version, range,
// registry and integrity in the lock.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import semver from 'semver'
import type { MethodOutput } from '../../../src-shared/contract/ipc'
import type { InstallResult } from './install'
import { readLock, safeBundleName, type LockEntry, type RegistryRecord } from './lockfile'
import { BundleError } from './manifest'
import { chooseVersion, downloadTarball, enginesSeam, fetchPackument, parseRegistrySpec, type Choice, type Packument, type RegistrySpec } from './registry-client'
import { publicUrl, registryFor, type NpmOptions } from './registry-config'

/** Installs a verified tarball file (BundleShelf.install with `fromRegistry`). */
export type TarballInstaller = (
  file: string,
  fromRegistry: { source: string; registry: RegistryRecord; name: string; version: string }
) => Promise<InstallResult | { status: InstallResult['status']; message: string }>

export interface Resolved {
  spec: RegistrySpec
  packument: Packument
  choice: Choice
}

/** What `NAME[@RANGE]` resolves to, without downloading anything. */
export async function resolveFromRegistry(arg: string, npm: NpmOptions, seamVersion: string): Promise<Resolved> {
  const spec = parseRegistrySpec(arg)
  const packument = await fetchPackument(spec.name, npm)
  return { spec, packument, choice: chooseVersion(packument, spec, seamVersion) }
}

export interface RegistryInstallOutcome<R> {
  result: R
  resolved: Resolved
  /** Things the user should know (a sha1-only check). */
  notes: string[]
}

export async function installFromRegistry<R extends Awaited<ReturnType<TarballInstaller>>>(
  arg: string,
  npm: NpmOptions,
  seamVersion: string,
  install: (file: string, fromRegistry: Parameters<TarballInstaller>[1]) => Promise<R>
): Promise<RegistryInstallOutcome<R>> {
  const resolved = await resolveFromRegistry(arg, npm, seamVersion)
  const { result, notes } = await installChoice(resolved.spec, resolved, npm, install)
  return { result, resolved, notes }
}

async function installChoice<R>(
  spec: RegistrySpec,
  resolved: Omit<Resolved, 'spec'>,
  npm: NpmOptions,
  install: (file: string, fromRegistry: Parameters<TarballInstaller>[1]) => Promise<R>
): Promise<{ result: R; notes: string[] }> {
  const { version, range } = resolved.choice
  const tarball = await downloadTarball(spec.name, version, npm)
  const temp = await mkdtemp(path.join(tmpdir(), 'seam-registry-'))
  try {
    const file = path.join(temp, `${safeBundleName(spec.name)}-${version.version}.tgz`)
    await writeFile(file, tarball.data)
    const registry: RegistryRecord = { url: resolved.packument.registry, requested: spec.requested, range, integrity: tarball.integrity }
    const result = await install(file, {
      source: `${spec.name}@${spec.requested || range} from ${registry.url}`,
      registry,
      name: spec.name,
      version: version.version
    })
    return { result, notes: tarball.note ? [tarball.note] : [] }
  } finally {
    await rm(temp, { recursive: true, force: true })
  }
}

/** One line of `seam plugin update` (the contract's type, shared with the UI). */
export type UpdateReport = MethodOutput<'plugins/registry-update'>[number]

/**
 * Moves each registry-installed bundle (or the one named) to the highest version within its
 * recorded range whose engines.seam admits this Seam. Never moves down; a bundle that fails is
 * reported and the others still update.
 */
export async function updateFromRegistry<R>(
  seamHome: string,
  name: string | undefined,
  npm: NpmOptions,
  seamVersion: string,
  install: (file: string, fromRegistry: Parameters<TarballInstaller>[1]) => Promise<R>
): Promise<UpdateReport[]> {
  const lock = await readLock(seamHome)
  let targets: LockEntry[]
  if (name !== undefined) {
    const entry = lock.find((e) => e.name === name)
    if (!entry) throw new BundleError(`bundle ${name} is not installed`, 'NOT_FOUND')
    if (!entry.registry) throw new BundleError(`bundle ${name} was installed from a file (${entry.source}), not from a registry: install the new file to update it`)
    targets = [entry]
  } else {
    targets = lock.filter((e) => e.registry)
  }
  const reports: UpdateReport[] = []
  for (const entry of targets) {
    const record = entry.registry as RegistryRecord
    const base = { name: entry.name, from: entry.version, notes: [] as string[] }
    try {
      // The recorded registry, with the auth npm's settings give for it.
      const scope = entry.name.startsWith('@') ? entry.name.slice(0, entry.name.indexOf('/')) : undefined
      const options: NpmOptions = scope ? { ...npm, [`${scope}:registry`]: record.url } : { ...npm, registry: record.url }
      if (publicUrl(registryFor(entry.name, npm)) !== record.url) {
        base.notes.push(`${entry.name} came from ${record.url}, not the registry npm is now set to use for it (${publicUrl(registryFor(entry.name, npm))}); updating from ${record.url}`)
      }
      const spec: RegistrySpec = { name: entry.name, requested: record.requested, kind: 'range', fetchSpec: record.range }
      const packument = await fetchPackument(entry.name, options)
      const choice = chooseVersion(packument, spec, seamVersion)
      if (!semver.gt(choice.version.version, entry.version)) {
        reports.push({
          ...base,
          status: 'current',
          message: `${entry.name} is up to date: ${entry.version} (highest in ${record.range} that works with Seam ${seamVersion}: ${choice.version.version})`
        })
        continue
      }
      const { notes } = await installChoice(spec, { packument, choice: { version: choice.version, range: record.range } }, options, install)
      reports.push({
        ...base,
        to: choice.version.version,
        status: 'updated',
        notes: [...base.notes, ...notes],
        message: `${entry.name} ${entry.version} -> ${choice.version.version} (within ${record.range}, engines.seam ${enginesSeam(choice.version)})`
      })
    } catch (error) {
      reports.push({ ...base, status: 'failed', message: `${entry.name}: ${(error as Error).message}` })
    }
  }
  return reports
}
