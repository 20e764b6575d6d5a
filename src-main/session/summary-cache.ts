// The list() cache: one `.summaries.json` beside the session files, mapping a session id to its
// last FileScan. It is only an accelerator: every entry is checked against the file's size and
// mtime before use, so a stale, missing or corrupt cache costs a rescan, never a wrong summary.
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { z } from 'zod'
import { FileScanSchema, type FileScan } from './summary'

const CacheFileSchema = z.object({ version: z.literal(1), files: z.record(z.string(), FileScanSchema) })

export const SUMMARY_CACHE_FILE = '.summaries.json'

let tempCounter = 0

export class SummaryCache {
  private entries: Map<string, FileScan> | undefined
  private dirty = false

  constructor(private readonly file: string) {}

  async get(id: string): Promise<FileScan | undefined> {
    return (await this.load()).get(id)
  }

  async set(id: string, scan: FileScan): Promise<void> {
    const entries = await this.load()
    if (entries.get(id) === scan) return
    entries.set(id, scan)
    this.dirty = true
  }

  async delete(id: string): Promise<void> {
    if ((await this.load()).delete(id)) this.dirty = true
  }

  /** Forgets sessions whose files are gone. */
  async retainOnly(ids: ReadonlySet<string>): Promise<void> {
    const entries = await this.load()
    for (const id of entries.keys()) {
      if (!ids.has(id)) {
        entries.delete(id)
        this.dirty = true
      }
    }
  }

  async save(): Promise<void> {
    if (!this.dirty || this.entries === undefined) return
    this.dirty = false
    const body = JSON.stringify({ version: 1, files: Object.fromEntries(this.entries) })
    const temp = `${this.file}.${process.pid}.${++tempCounter}.tmp`
    try {
      await writeFile(temp, body, { mode: 0o600 })
      await rename(temp, this.file)
    } catch {
      // A cache that cannot be written only makes the next list() slower; the sessions are unaffected.
      this.dirty = true
      await rm(temp, { force: true }).catch(() => undefined)
    }
  }

  private async load(): Promise<Map<string, FileScan>> {
    if (this.entries !== undefined) return this.entries
    let entries = new Map<string, FileScan>()
    try {
      const parsed = CacheFileSchema.safeParse(JSON.parse(await readFile(this.file, 'utf8')))
      if (parsed.success) entries = new Map(Object.entries(parsed.data.files))
    } catch {
      // Missing or unreadable cache: start empty, every file is scanned once.
    }
    this.entries ??= entries
    return this.entries
  }
}
