// A bundle's package.json, checked before anything from it runs: a valid npm name, a semver
// version, an engines.seam range that admits this Seam, and host/client entries that are ES
// modules inside the bundle.
import { lstat, readFile, realpath } from 'node:fs/promises'
import path from 'node:path'
import semver from 'semver'
import { z } from 'zod'
import { formatZodError } from '../../../src-shared/validation'

export interface BundleManifest {
  name: string
  version: string
  /** The engines.seam range. */
  engines: string
  description?: string
  /** Entry paths relative to the bundle folder, normalised with forward slashes. */
  host?: string
  client?: string
}

export class BundleError extends Error {
  /** A machine-readable reason the UI acts on (e.g. BUNDLE_CHANGED: offer to replace). */
  readonly code?: string
  constructor(message: string, code?: string) {
    super(message)
    this.name = 'BundleError'
    if (code !== undefined) this.code = code
  }
}

/**
 * npm's rules: lowercase, URL-safe characters, no leading dot or underscore, an optional
 * `@scope/`, at most 214 characters.
 */
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/
const RESERVED_NAMES = new Set(['node_modules', 'favicon.ico'])

export const packageNameSchema = z
  .string()
  .max(214, 'a package name has at most 214 characters')
  .regex(NPM_NAME, 'not a valid npm package name (lowercase letters, digits, - . _ ~, optionally @scope/, no leading . or _)')
  .refine((name) => !RESERVED_NAMES.has(name), 'this package name is reserved')

const entryPathSchema = z.string().min(1, 'an entry path cannot be empty')

const manifestSchema = z.object({
  name: packageNameSchema,
  version: z.string().refine((v) => semver.valid(v) !== null, 'not a valid semver version'),
  description: z.string().optional(),
  engines: z.record(z.string(), z.unknown()).optional(),
  seam: z
    .strictObject(
      { host: entryPathSchema.optional(), client: entryPathSchema.optional() },
      { error: (issue) => (issue.code === 'invalid_type' ? 'seam must be an object with host and/or client' : undefined) }
    )
    .refine((seam) => seam.host !== undefined || seam.client !== undefined, 'seam must name a host and/or a client entry')
})

/** Reads and checks `<dir>/package.json`. Throws a BundleError naming the field. */
export async function readManifest(dir: string, seamVersion: string): Promise<BundleManifest> {
  const file = path.join(dir, 'package.json')
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new BundleError(code === 'ENOENT' ? 'the bundle has no package.json' : `package.json is not valid JSON: ${(error as Error).message}`)
  }
  const parsed = manifestSchema.safeParse(raw)
  if (!parsed.success) throw new BundleError(formatZodError('invalid bundle package.json', parsed.error))
  const pkg = parsed.data
  const label = `bundle ${pkg.name}@${pkg.version}`

  const range = pkg.engines?.seam
  if (range === undefined) throw new BundleError(`bundle ${pkg.name} does not declare engines.seam (the range of Seam versions it works with)`)
  if (typeof range !== 'string' || semver.validRange(range) === null) {
    throw new BundleError(`invalid bundle package.json: engines.seam: not a valid semver range (${JSON.stringify(range)})`)
  }
  if (!fitsSeam(range, seamVersion)) {
    throw new BundleError(`${label} requires Seam ${range} (engines.seam), but this is Seam ${seamVersion}`)
  }

  const manifest: BundleManifest = { name: pkg.name, version: pkg.version, engines: range }
  if (pkg.description !== undefined) manifest.description = pkg.description
  if (pkg.seam.host !== undefined) manifest.host = await checkEntry(dir, pkg.seam.host, 'seam.host', label)
  if (pkg.seam.client !== undefined) manifest.client = await checkEntry(dir, pkg.seam.client, 'seam.client', label)
  return manifest
}

/** Whether an engines.seam range admits this Seam (prereleases of Seam count as their version). */
export function fitsSeam(range: string, seamVersion: string): boolean {
  return semver.validRange(range) !== null && semver.satisfies(seamVersion, range, { includePrerelease: true })
}

/** An entry must be a relative path to an existing .js/.mjs file that stays inside the bundle. */
async function checkEntry(dir: string, entry: string, field: string, label: string): Promise<string> {
  const fail = (why: string): never => {
    throw new BundleError(`${label}: ${field}: ${why} (${JSON.stringify(entry)})`)
  }
  if (path.isAbsolute(entry) || path.posix.isAbsolute(entry) || path.win32.isAbsolute(entry)) fail('must be a relative path')
  if (entry.includes('\\')) fail('must use forward slashes')
  const normal = path.posix.normalize(entry)
  if (normal === '..' || normal.startsWith('../')) fail('escapes the bundle folder')
  if (!/\.m?js$/.test(normal)) fail('must be an ES module file ending in .js or .mjs')
  const full = path.join(dir, normal)
  try {
    const info = await lstat(full)
    const real = await realpath(full)
    const root = await realpath(dir)
    if (!isInside(root, real)) fail('is a link that points outside the bundle folder')
    if (!info.isFile() && !(await lstat(real)).isFile()) fail('is not a file')
  } catch (error) {
    if (error instanceof BundleError) throw error
    fail('declared entry file does not exist')
  }
  return normal
}

export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target)
  if (relative === '') return true
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)
}
