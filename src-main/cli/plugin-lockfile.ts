// A new bundle's package-lock.json, cut from the running Seam's own lockfile. The scaffold pins
// the versions Seam itself installs (plugin-templates.ts), so every package the bundle needs is
// already in npm's cache from Seam's install: with a lockfile naming them (version and integrity),
// `npm install` fetches nothing, even offline. Without one, npm must ask the registry for each
// package's metadata, which `npm ci` never caches.
//
// The entries are copied with their paths in Seam's tree (hoisting included), starting from the
// bundle's own dependencies and the vendored SDK's, following each dependency as Node resolves it:
// the nearest `node_modules` above the dependent. When something is missing or does not match,
// no lockfile is written and `npm install` resolves as it always does.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import semver from 'semver'
import { z } from 'zod'
import { formatZodError } from '../../src-shared/validation'
import { readArchiveFile, sha512Integrity } from '../plugins/bundles/archive'

const LockEntrySchema = z
  .object({
    version: z.string().optional(),
    integrity: z.string().optional(),
    link: z.boolean().optional(),
    optional: z.boolean().optional(),
    dependencies: z.record(z.string(), z.string()).optional(),
    optionalDependencies: z.record(z.string(), z.string()).optional(),
    peerDependencies: z.record(z.string(), z.string()).optional(),
    peerDependenciesMeta: z.record(z.string(), z.looseObject({ optional: z.boolean().optional() })).optional()
  })
  .loose()
type LockEntry = z.infer<typeof LockEntrySchema>

const LockfileSchema = z.object({ lockfileVersion: z.number().int().min(2), packages: z.record(z.string(), LockEntrySchema) })

export interface BundleManifest {
  name: string
  version: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

export interface VendoredPackage {
  /** The dependency spec in the bundle's package.json (`file:vendor/…tgz`). */
  spec: string
  /** The tarball's bytes, for its integrity. */
  tarball: Buffer
  /** The package.json inside the tarball. */
  manifest: { name: string; version: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }
}

export type LockfileResult = { ok: true; text: string } | { ok: false; reason: string }

/** Seam's own lockfile: the checkout's, else the one npm keeps inside an installed tree. */
export function seamLockfile(seamRoot: string): string | undefined {
  for (const candidate of [path.join(seamRoot, 'package-lock.json'), path.join(seamRoot, 'node_modules', '.package-lock.json')]) {
    if (existsSync(candidate)) return candidate
  }
  return undefined
}

/** The parent folder in lockfile keys: `a/node_modules/@s/b` -> `a`, `node_modules/x` -> ``. */
function parentLocation(location: string): string | undefined {
  if (location === '') return undefined
  const at = location.lastIndexOf('node_modules/')
  return at <= 0 ? '' : location.slice(0, at - 1)
}

function resolveFrom(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir: string | undefined = from; dir !== undefined; dir = parentLocation(dir)) {
    const key = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`
    if (packages[key] !== undefined) return key
  }
  return undefined
}

/**
 * The bundle's lockfile, or why there is none. `vendored` packages (the SDK) are taken from their
 * tarballs instead of Seam's tree, where they are workspace links.
 */
export function bundleLockfile(seamLockText: string, bundle: BundleManifest, vendored: VendoredPackage[]): LockfileResult {
  let source: z.infer<typeof LockfileSchema>
  try {
    const parsed = LockfileSchema.safeParse(JSON.parse(seamLockText))
    if (!parsed.success) return { ok: false, reason: formatZodError("Seam's lockfile", parsed.error) }
    source = parsed.data
  } catch (error) {
    return { ok: false, reason: `Seam's lockfile is not JSON: ${(error as Error).message}` }
  }
  const byName = new Map(vendored.map((v) => [v.manifest.name, v]))
  const packages: Record<string, unknown> = {
    '': { name: bundle.name, version: bundle.version, dependencies: bundle.dependencies, devDependencies: bundle.devDependencies }
  }
  const queue: Array<{ from: string; name: string; range: string; optional: boolean }> = []
  const follow = (from: string, entry: Pick<LockEntry, 'dependencies' | 'optionalDependencies' | 'peerDependencies' | 'peerDependenciesMeta'>) => {
    for (const [name, range] of Object.entries(entry.dependencies ?? {})) queue.push({ from, name, range, optional: false })
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) queue.push({ from, name, range, optional: true })
    // npm installs peers too; an optional one only when something else brings it.
    for (const [name, range] of Object.entries(entry.peerDependencies ?? {})) {
      if (entry.peerDependenciesMeta?.[name]?.optional !== true) queue.push({ from, name, range, optional: false })
    }
  }
  for (const [name, range] of Object.entries({ ...bundle.devDependencies, ...bundle.dependencies })) {
    const own = byName.get(name)
    if (own !== undefined) {
      if (range !== own.spec) return { ok: false, reason: `${name}: the bundle asks for ${range}, not ${own.spec}` }
      const location = `node_modules/${name}`
      packages[location] = {
        version: own.manifest.version,
        resolved: own.spec,
        integrity: sha512Integrity(own.tarball),
        dev: true,
        ...(own.manifest.dependencies ? { dependencies: own.manifest.dependencies } : {}),
        ...(own.manifest.peerDependencies ? { peerDependencies: own.manifest.peerDependencies } : {})
      }
      follow(location, own.manifest)
    } else queue.push({ from: '', name, range, optional: false })
  }
  for (let edge = queue.shift(); edge !== undefined; edge = queue.shift()) {
    const location = resolveFrom(source.packages, edge.from, edge.name)
    const entry = location === undefined ? undefined : source.packages[location]
    if (location === undefined || entry === undefined || entry.link === true || entry.version === undefined || entry.integrity === undefined) {
      if (edge.optional) continue // a platform's binary Seam's tree does not list: npm skips it too
      return { ok: false, reason: `${edge.name}@${edge.range} (needed by ${edge.from || bundle.name}) is not in Seam's lockfile` }
    }
    if (!semver.satisfies(entry.version, edge.range, { includePrerelease: true })) {
      return { ok: false, reason: `${edge.name}@${edge.range} (needed by ${edge.from || bundle.name}): Seam has ${entry.version}` }
    }
    if (location in packages) continue
    // Every package of a new bundle is a development one; npm recomputes these flags anyway.
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry as LockEntry & Record<'dev' | 'devOptional' | 'peer', unknown>
    packages[location] = { ...kept, dev: true }
    follow(location, entry)
  }
  // npm's own order: by path, the root ('') first.
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return { ok: true, text: `${JSON.stringify({ name: bundle.name, version: bundle.version, lockfileVersion: 3, requires: true, packages: sorted }, null, 2)}\n` }
}

const PackedManifestSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  dependencies: z.record(z.string(), z.string()).optional(),
  peerDependencies: z.record(z.string(), z.string()).optional()
})

/** The lockfile for the bundle in `bundleDir`, whose `spec` dependency is the tarball `file`. */
export async function bundleLockfileFor(seamRoot: string, bundleDir: string, vendored: { spec: string; file: string }): Promise<LockfileResult> {
  const lock = seamLockfile(seamRoot)
  if (lock === undefined) return { ok: false, reason: `no package-lock.json in ${seamRoot}` }
  const tarball = readFileSync(vendored.file)
  const packed = await readArchiveFile(tarball, 'package.json')
  if (packed === undefined) return { ok: false, reason: `${vendored.file} has no package.json` }
  const manifest = PackedManifestSchema.safeParse(JSON.parse(packed.toString('utf8')))
  if (!manifest.success) return { ok: false, reason: formatZodError(`${vendored.file}: package.json`, manifest.error) }
  const bundle = JSON.parse(readFileSync(path.join(bundleDir, 'package.json'), 'utf8')) as BundleManifest
  return bundleLockfile(readFileSync(lock, 'utf8'), bundle, [{ spec: vendored.spec, tarball, manifest: manifest.data }])
}
