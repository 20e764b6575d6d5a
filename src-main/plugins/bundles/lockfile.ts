// <seamHome>/plugins/lock.json: what is installed, from where, with which integrity, and whether
// it is enabled. Written atomically (temp file + rename), so a crash leaves the old or the new
// file, never half of one.
import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { readJsonFile } from './json-file'
import { packageNameSchema } from './manifest'

export const lockEntrySchema = z.strictObject({
  name: packageNameSchema,
  version: z.string().min(1),
  /** The installed source: the .tgz file's bytes, or the folder's tree. */
  integrity: z.string().regex(/^sha512-[A-Za-z0-9+/]+={0,2}$/, 'expected sha512-<base64>'),
  /** The installed folder's tree (folderIntegrity), checked every time the bundle is loaded. */
  contentIntegrity: z.string().regex(/^sha512-[A-Za-z0-9+/]+={0,2}$/, 'expected sha512-<base64>').optional(),
  source: z.string().min(1),
  /** Set for bundles installed by name from an npm registry (`seam plugin install NAME[@RANGE]`); older locks have none. */
  registry: z
    .strictObject({
      /** The registry the package came from (no credentials). */
      url: z.string().url(),
      /** What followed NAME@ on the command line ('' for a bare name). */
      requested: z.string(),
      /** The semver range `seam plugin update` stays within. */
      range: z.string().min(1),
      /** The registry's own hash of the tarball that was checked (dist.integrity, or sha1 from dist.shasum). */
      integrity: z.string().regex(/^(sha512|sha384|sha256|sha1)-[A-Za-z0-9+/]+={0,2}$/, 'expected <algorithm>-<base64>')
    })
    .optional(),
  installedAt: z.string().min(1),
  enabled: z.boolean()
})

export type LockEntry = z.infer<typeof lockEntrySchema>
export type RegistryRecord = NonNullable<LockEntry['registry']>

const lockFileSchema = z.strictObject({
  lockfileVersion: z.literal(1),
  bundles: z.array(lockEntrySchema)
})

export function pluginsDir(seamHome: string): string {
  return path.join(seamHome, 'plugins')
}

export function lockPath(seamHome: string): string {
  return path.join(pluginsDir(seamHome), 'lock.json')
}

/** `@scope/name` -> `@scope+name`: one folder level, still readable. */
export function safeBundleName(name: string): string {
  return name.replace('/', '+')
}

export function bundleDir(seamHome: string, name: string, version: string): string {
  return path.join(pluginsDir(seamHome), `${safeBundleName(name)}@${version}`)
}

/** The installed bundles, sorted by name. A missing lock file means none. */
export async function readLock(seamHome: string): Promise<LockEntry[]> {
  return (await readJsonFile(lockFileSchema, lockPath(seamHome)))?.bundles ?? []
}

export async function writeLock(seamHome: string, bundles: readonly LockEntry[]): Promise<void> {
  const file = lockPath(seamHome)
  await mkdir(path.dirname(file), { recursive: true })
  const sorted = [...bundles].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const text = `${JSON.stringify({ lockfileVersion: 1, bundles: sorted }, null, 2)}\n`
  const temp = `${file}.tmp-${randomBytes(6).toString('hex')}`
  try {
    const handle = await open(temp, 'w', 0o644)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** Serialises lock changes per Seam home within this process (read-modify-write must not interleave). */
const queues = new Map<string, Promise<unknown>>()

export function withLock<T>(seamHome: string, work: () => Promise<T>): Promise<T> {
  const key = path.resolve(seamHome)
  const previous = queues.get(key) ?? Promise.resolve()
  const run = previous.then(work, work)
  const settled = run.then(
    () => undefined,
    () => undefined
  )
  queues.set(key, settled)
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key)
  })
  return run
}
