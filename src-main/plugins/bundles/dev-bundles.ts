// Dev bundles: how `seam plugin dev PATH` and every running Seam on the same Seam home talk.
//
//   <seamHome>/dev-bundles/registered.json   written by `seam plugin dev`: each bundle folder it
//                                             serves, the number of its last build, whether that
//                                             build succeeded (with the build's error) and its pid
//   <seamHome>/dev-bundles/host-<pid>.json    written by each running Host: what it loaded of each
//                                             dev bundle (build number, loaded or failed + error)
//
// Files in the Seam home, not a socket: the desktop app, web mode and `seam run` all read the
// same home, writing there needs the same rights as installing a bundle (no new door), and the
// app needs no port or token for it. Every write is atomic (temp file + rename); every read is
// checked with zod, and a malformed file is reported naming the field, never half-applied.
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { formatZodError } from '../../../src-shared/validation'
import { parseJsonFile, readJsonFile } from './json-file'
import { BundleError, packageNameSchema } from './manifest'
import { processAlive } from '../../process/process-alive'

export const devEntrySchema = z.strictObject({
  /** The bundle folder (absolute). */
  dir: z.string().refine((dir) => path.isAbsolute(dir), 'must be an absolute path'),
  name: packageNameSchema,
  /** Counts the builds of this dev session; a Host reloads when it changes. */
  build: z.number().int().nonnegative(),
  /** Whether that build succeeded; when not, `error` says why (file:line:column) and the last good build stays loaded. */
  ok: z.boolean(),
  error: z.string().optional(),
  /** The `seam plugin dev` process: an entry whose process is gone is ignored. */
  pid: z.number().int().positive(),
  at: z.string()
})
export type DevEntry = z.infer<typeof devEntrySchema>

const registeredSchema = z.strictObject({ version: z.literal(1), bundles: z.array(devEntrySchema) })

export const hostReportSchema = z.strictObject({
  name: packageNameSchema,
  dir: z.string(),
  build: z.number().int().nonnegative(),
  state: z.enum(['loaded', 'failed']),
  error: z.string().optional(),
  at: z.string()
})
export type HostReport = z.infer<typeof hostReportSchema>

const hostStateSchema = z.strictObject({ version: z.literal(1), pid: z.number().int().positive(), mode: z.string(), bundles: z.array(hostReportSchema) })
export type HostState = z.infer<typeof hostStateSchema>

export function devBundlesDir(seamHome: string): string {
  return path.join(seamHome, 'dev-bundles')
}

export function registeredPath(seamHome: string): string {
  return path.join(devBundlesDir(seamHome), 'registered.json')
}

async function writeAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 })
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** The registered dev bundles (an empty list when none was ever registered). */
export async function readRegistered(seamHome: string): Promise<DevEntry[]> {
  return (await readJsonFile(registeredSchema, registeredPath(seamHome)))?.bundles ?? []
}

/** Serialises read-modify-write of registered.json within this process. */
let registering: Promise<unknown> = Promise.resolve()

function editRegistered(seamHome: string, edit: (entries: DevEntry[]) => DevEntry[]): Promise<void> {
  const run = registering.then(async () => {
    const next = edit(await readRegistered(seamHome))
    await writeAtomic(registeredPath(seamHome), { version: 1, bundles: next })
  })
  registering = run.catch(() => undefined)
  return run
}

/** Adds or replaces the entry for `entry.dir`; entries of processes that are gone are dropped on the way. */
export async function registerDevBundle(seamHome: string, entry: DevEntry): Promise<void> {
  const parsed = devEntrySchema.safeParse(entry)
  if (!parsed.success) throw new BundleError(formatZodError('dev bundle entry', parsed.error))
  const checked = parsed.data
  return editRegistered(seamHome, (entries) => [...entries.filter((e) => e.dir !== checked.dir && e.name !== checked.name && isAlive(e.pid)), checked])
}

export function unregisterDevBundle(seamHome: string, dir: string): Promise<void> {
  return editRegistered(seamHome, (entries) => entries.filter((e) => e.dir !== dir))
}

export function hostStatePath(seamHome: string, pid: number): string {
  return path.join(devBundlesDir(seamHome), `host-${pid}.json`)
}

export async function writeHostState(seamHome: string, state: HostState): Promise<void> {
  const parsed = hostStateSchema.safeParse(state)
  if (!parsed.success) throw new BundleError(formatZodError('dev bundle host state', parsed.error))
  await writeAtomic(hostStatePath(seamHome, state.pid), parsed.data)
}

export async function removeHostState(seamHome: string, pid: number): Promise<void> {
  await rm(hostStatePath(seamHome, pid), { force: true })
}

/** What every running Host reported; files of Hosts that are gone, or unreadable, are skipped. */
export async function readHostStates(seamHome: string): Promise<HostState[]> {
  let names: string[]
  try {
    names = await readdir(devBundlesDir(seamHome))
  } catch {
    return []
  }
  const states: HostState[] = []
  for (const name of names) {
    const match = /^host-(\d+)\.json$/.exec(name)
    if (!match || !isAlive(Number(match[1]))) continue
    try {
      const file = path.join(devBundlesDir(seamHome), name)
      states.push(parseJsonFile(hostStateSchema, await readFile(file, 'utf8'), file))
    } catch {
      // Being replaced right now, or written by another Seam version: the next change re-reads it.
    }
  }
  return states
}

export function isAlive(pid: number): boolean {
  return pid === process.pid || processAlive(pid)
}
