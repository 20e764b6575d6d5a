// Talking to an npm registry for bundles: the packument (a package's versions), choosing the
// version to install (the highest in the range whose engines.seam admits this Seam, decided
// before any tarball is requested), downloading a tarball and checking it against the
// registry's integrity. HTTP, auth headers, proxies and TLS settings are npm-registry-fetch's
// (npm's own client), given the options from registry-config.ts.
import { createHash } from 'node:crypto'
import npmFetch from 'npm-registry-fetch'
import npa from 'npm-package-arg'
import semver from 'semver'
import { z } from 'zod'
import { formatZodError } from '../../../src-shared/validation'
import { BundleError, fitsSeam, packageNameSchema } from './manifest'
import { publicUrl, registryFor, type NpmOptions } from './registry-config'

export const ABBREVIATED = 'application/vnd.npm.install-v1+json'

/** What the user asked for: `name`, `name@range`, `name@version` or `name@tag`. */
export interface RegistrySpec {
  name: string
  /** What followed the `@`, or '' for a bare name. */
  requested: string
  kind: 'range' | 'version' | 'tag'
  /** The range, version or dist-tag. A bare name is the tag `latest`. */
  fetchSpec: string
}

export function parseRegistrySpec(arg: string): RegistrySpec {
  let parsed: ReturnType<typeof npa>
  try {
    parsed = npa(arg)
  } catch (error) {
    throw new BundleError(`"${arg}" is not a package name or name@range: ${(error as Error).message}`)
  }
  if (!parsed.name || (parsed.type !== 'range' && parsed.type !== 'version' && parsed.type !== 'tag')) {
    throw new BundleError(`"${arg}" is not a registry package (NAME or NAME@RANGE); install from a file or folder by its path`)
  }
  const name = packageNameSchema.safeParse(parsed.name)
  if (!name.success) throw new BundleError(formatZodError(`package name "${parsed.name}"`, name.error))
  // A bare name (npm reads it as the range `*`) means "the newest that works": the `latest` tag, checked for fit.
  if (!arg.includes('@', 1)) return { name: name.data, requested: '', kind: 'tag', fetchSpec: 'latest' }
  return { name: name.data, requested: parsed.rawSpec, kind: parsed.type, fetchSpec: parsed.fetchSpec ?? parsed.rawSpec }
}

const distSchema = z.object({
  tarball: z.string().url('dist.tarball must be a URL'),
  integrity: z.string().min(1).optional(),
  shasum: z.string().regex(/^[0-9a-f]{40}$/i, 'dist.shasum must be a sha1 hex digest').optional()
})

const versionSchema = z.object({
  name: z.string().optional(),
  version: z.string(),
  description: z.string().optional(),
  engines: z.unknown().optional(),
  deprecated: z.union([z.string(), z.boolean()]).optional(),
  dist: distSchema
})

const packumentSchema = z.object({
  name: z.string(),
  'dist-tags': z.record(z.string(), z.string()).default({}),
  versions: z.record(z.string(), versionSchema).default({})
})

export type PackumentVersion = z.infer<typeof versionSchema>
export interface Packument extends z.infer<typeof packumentSchema> {
  /** The registry it came from (credentials removed). */
  registry: string
}

/** engines.seam of one version, or undefined when it declares none (or not as a string). */
export function enginesSeam(version: PackumentVersion): string | undefined {
  const engines = version.engines
  if (engines && typeof engines === 'object' && !Array.isArray(engines)) {
    const seam = (engines as Record<string, unknown>).seam
    if (typeof seam === 'string') return seam
  }
  return undefined
}

function packumentUrl(name: string, options: NpmOptions): string {
  // npm's escaping: the scope's slash is %2f, the @ stays.
  return `${registryFor(name, options)}${name.replace('/', '%2f')}`
}

/**
 * The package's versions. Asks for the abbreviated document (which carries engines on npm's
 * registry and verdaccio); falls back to the full one when the abbreviated answer has no
 * engines on any version (a registry that leaves them out).
 */
export async function fetchPackument(name: string, options: NpmOptions): Promise<Packument> {
  const registry = publicUrl(registryFor(name, options))
  const get = async (accept: string) => {
    let raw: unknown
    try {
      raw = await npmFetch.json(packumentUrl(name, options), { ...options, spec: name, headers: { accept } })
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode
      if (status === 404) throw new BundleError(`${name} is not in the registry ${registry}`, 'NOT_FOUND')
      if (status === 401 || status === 403) {
        throw new BundleError(`the registry ${registry} refused access to ${name} (${status}): check the auth token for it in your .npmrc (//host/:_authToken=...)`, 'REGISTRY_AUTH')
      }
      throw new BundleError(`fetching ${name} from ${registry} failed: ${(error as Error).message}`)
    }
    const parsed = packumentSchema.safeParse(raw)
    if (!parsed.success) throw new BundleError(formatZodError(`the registry's document for ${name}`, parsed.error))
    if (parsed.data.name !== name) throw new BundleError(`the registry ${registry} answered for ${name} with the package ${parsed.data.name}`)
    return { ...parsed.data, registry }
  }
  const abbreviated = await get(`${ABBREVIATED}; q=1.0, application/json; q=0.8, */*`)
  const versions = Object.values(abbreviated.versions)
  if (versions.length > 0 && versions.every((v) => v.engines === undefined)) return get('application/json')
  return abbreviated
}

export interface Choice {
  version: PackumentVersion
  /** The semver range recorded for `seam plugin update`. */
  range: string
}

/**
 * The version to install: for a range, the highest satisfying version whose engines.seam admits
 * `seamVersion`; for a dist-tag, the version it points at (if it fits). Throws, listing what
 * exists, when nothing fits.
 */
export function chooseVersion(packument: Packument, spec: RegistrySpec, seamVersion: string): Choice {
  const all = Object.values(packument.versions).filter((v) => semver.valid(v.version) !== null)
  const fits = (v: PackumentVersion) => {
    const range = enginesSeam(v)
    return range !== undefined && fitsSeam(range, seamVersion)
  }
  const describe = (v: PackumentVersion) => `${v.version} (engines.seam ${enginesSeam(v) ?? 'not declared'})`
  const fitting = all.filter(fits).sort((a, b) => semver.rcompare(a.version, b.version))
  const hint = fitting.length > 0 ? `; versions that work with Seam ${seamVersion}: ${listed(fitting.map((v) => v.version))}` : `; no version of ${spec.name} works with Seam ${seamVersion}`

  if (spec.kind === 'tag') {
    const tagged = packument['dist-tags'][spec.fetchSpec]
    const version = tagged === undefined ? undefined : packument.versions[tagged]
    if (!version) {
      throw new BundleError(`${spec.name} has no dist-tag "${spec.fetchSpec}" in ${packument.registry} (tags: ${Object.keys(packument['dist-tags']).join(', ') || 'none'})`, 'NO_MATCH')
    }
    if (fits(version)) return { version, range: spec.requested === '' ? `^${version.version}` : spec.fetchSpec }
    // A bare name means "the newest that works": fall back from `latest` to the highest fitting release.
    if (spec.requested === '') {
      const release = fitting.find((v) => semver.prerelease(v.version) === null)
      if (release) return { version: release, range: `^${release.version}` }
    }
    throw new BundleError(`${spec.name}@${spec.requested || 'latest'} is ${describe(version)}, which does not admit Seam ${seamVersion}${hint}`, 'ENGINES')
  }

  const range = spec.fetchSpec
  if (semver.validRange(range) === null) throw new BundleError(`"${range}" is not a valid semver range`)
  const matching = all.filter((v) => semver.satisfies(v.version, range)).sort((a, b) => semver.rcompare(a.version, b.version))
  if (matching.length === 0) {
    throw new BundleError(`${spec.name} has no version matching ${range} in ${packument.registry} (versions: ${listed(all.map((v) => v.version).sort(semver.compare))})`, 'NO_MATCH')
  }
  const chosen = matching.find(fits)
  if (!chosen) {
    throw new BundleError(`no version of ${spec.name} matching ${range} admits Seam ${seamVersion}: ${listed(matching.map(describe))}${hint}`, 'ENGINES')
  }
  return { version: chosen, range }
}

function listed(items: string[], max = 12): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`
}

export interface VerifiedTarball {
  data: Buffer
  /** The registry's hash that was checked, e.g. `sha512-...` (or `sha1-...` from dist.shasum). */
  integrity: string
  /** Set when only a sha1 shasum was available. */
  note?: string
}

const STRONG = ['sha512', 'sha384', 'sha256'] as const

/** Checks bytes against dist.integrity (the strongest sha2 it lists), else dist.shasum (sha1). Throws with both hashes on mismatch. */
export function verifyTarball(data: Buffer, dist: PackumentVersion['dist'], label: string): VerifiedTarball {
  if (dist.integrity) {
    const entries = dist.integrity.trim().split(/\s+/).map((item) => {
      const dash = item.indexOf('-')
      return { algorithm: item.slice(0, dash), digest: item.slice(dash + 1).split('?')[0], raw: item }
    })
    const best = STRONG.map((algorithm) => entries.find((e) => e.algorithm === algorithm)).find((e) => e !== undefined)
    if (best) {
      const actual = createHash(best.algorithm).update(data).digest('base64')
      if (actual !== best.digest) {
        throw new BundleError(
          `the tarball of ${label} does not match the registry's integrity: expected ${best.algorithm}-${best.digest}, got ${best.algorithm}-${actual}; nothing was installed`,
          'INTEGRITY'
        )
      }
      return { data, integrity: `${best.algorithm}-${best.digest}` }
    }
    if (!dist.shasum) throw new BundleError(`the registry's integrity for ${label} (${dist.integrity}) uses no algorithm Seam accepts (sha512, sha384, sha256); nothing was installed`, 'INTEGRITY')
  }
  if (dist.shasum) {
    const expected = dist.shasum.toLowerCase()
    const actual = createHash('sha1').update(data).digest('hex')
    if (actual !== expected) {
      throw new BundleError(`the tarball of ${label} does not match the registry's sha1 shasum: expected ${expected}, got ${actual}; nothing was installed`, 'INTEGRITY')
    }
    const integrity = `sha1-${Buffer.from(expected, 'hex').toString('base64')}`
    return { data, integrity, note: `the registry gives no dist.integrity for ${label}, only a sha1 shasum (a weak hash); the tarball matched it` }
  }
  throw new BundleError(`the registry gives no integrity or shasum for ${label}, so its tarball cannot be checked; nothing was installed`, 'INTEGRITY')
}

/** Downloads a version's tarball (auth as npm would send it) and verifies it. */
export async function downloadTarball(name: string, version: PackumentVersion, options: NpmOptions, maxBytes = 256 * 1024 * 1024): Promise<VerifiedTarball> {
  const label = `${name}@${version.version}`
  let data: Buffer
  try {
    const response = await npmFetch(version.dist.tarball, { ...options, spec: name, headers: { accept: '*/*' } })
    const length = Number(response.headers.get('content-length') ?? '0')
    if (length > maxBytes) throw new BundleError(`the tarball of ${label} is ${length} bytes (at most ${maxBytes} accepted)`)
    data = await response.buffer()
  } catch (error) {
    if (error instanceof BundleError) throw error
    throw new BundleError(`downloading ${label} from ${publicUrl(version.dist.tarball)} failed: ${(error as Error).message}`)
  }
  if (data.length > maxBytes) throw new BundleError(`the tarball of ${label} is ${data.length} bytes (at most ${maxBytes} accepted)`)
  return verifyTarball(data, version.dist, label)
}
