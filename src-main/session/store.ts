// Durable sessions (DESIGN.md "Sessions"): one append-only JSON Lines file per session,
// `<dir>/<sessionId>.jsonl`, created 0600 in a 0700 folder. The store creates, opens, lists,
// renames and deletes them; a SessionLog is the append side of one open session.
import { chmodSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { WorktreeShape, type SessionEvent } from '../../src-shared/session/events'
import { parseOrThrow } from '../../src-shared/validation'
import { checkSessionEvent } from './event-check'
import { checkpointFolderOf } from './checkpoint-store'
import { assertSessionId, isSessionId, newSessionId } from './ids'
import { childLogFolderOf } from './child-log'
import { readSessionFile, type ParsedSessionFile } from './load'
import { SessionLog } from './log'
import { SUMMARY_CACHE_FILE, SummaryCache } from './summary-cache'
import { scanSessionFile, summarizeEvents, summaryFromScan, type SessionSummary } from './summary'
import { searchSessions, SessionSearchIndex, type SessionSearchOptions, type SessionSearchResult } from './search'

export type { SessionSummary } from './summary'
export type { SessionSearchOptions, SessionSearchResult } from './search'
export { SessionLog, InvalidSessionEventError, type SessionAppendListener } from './log'
export { SessionFileError } from './load'

export const CreateSessionOptionsSchema = z.object({
  workspace: z.string().min(1),
  title: z.string().optional(),
  model: z.object({ provider: z.string(), model: z.string(), baseUrl: z.string().optional() }).optional(),
  /** An id made beforehand (`newSessionId`): a worktree session's hooks learn it before the log exists. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/).optional(),
  worktree: WorktreeShape.optional()
})
export type CreateSessionOptions = z.infer<typeof CreateSessionOptionsSchema>

const TitleSchema = z.string().trim().min(1).max(500)
const EXTENSION = '.jsonl'
const SCAN_CONCURRENCY = 16

export class SessionStore {
  /** Logs open through this store, by id: `open` hands out the live one instead of a second writer. */
  private readonly openLogs = new Map<string, SessionLog>()
  private readonly cache: SummaryCache
  private readonly searchIndex = new SessionSearchIndex()

  /**
   * `dir` is the sessions folder itself, e.g. `<seamHome>/sessions`. `redactLine` rewrites each
   * appended event's JSON line before it is recorded (the host's key redaction).
   */
  constructor(
    readonly dir: string,
    private readonly redactLine?: (line: string) => string
  ) {
    this.cache = new SummaryCache(join(dir, SUMMARY_CACHE_FILE))
  }

  static inSeamHome(seamHome: string): SessionStore {
    return new SessionStore(join(seamHome, 'sessions'))
  }

  pathOf(id: string): string {
    assertSessionId(id)
    return join(this.dir, `${id}${EXTENSION}`)
  }

  /** Creates the file with its header (event seq 1) on disk before returning. */
  create(options: CreateSessionOptions): SessionLog {
    const { workspace, title, model, worktree, id = newSessionId() } = parseOrThrow(CreateSessionOptionsSchema, options, 'session options')
    const path = this.pathOf(id)
    const now = Date.now()
    const check = checkSessionEvent({ type: 'session/header', seq: 1, ts: now, sessionId: id, version: 1, workspace, createdAt: now, title, model, worktree })
    if (!check.ok) throw new Error(`session header: ${check.field}: ${check.message}`)
    this.ensureDir()
    const line = `${JSON.stringify(check.event)}\n`
    // Whole or not at all, even under kill -9: the header goes to a hidden temp file that is then
    // linked into place (link, like O_EXCL, refuses an existing name), so a session file never
    // exists empty or with half a header.
    const temp = join(this.dir, `.${id}.creating`)
    writeFileSync(temp, line, { flag: 'wx', mode: 0o600 })
    try {
      linkSync(temp, path)
    } finally {
      rmSync(temp, { force: true })
    }
    const header = JSON.parse(line) as SessionEvent // as a reload yields it (no undefined keys)
    return this.track(new SessionLog({ id, path, events: [header], created: true, redactLine: this.redactLine, onClose: (log) => this.untrack(log) }))
  }

  /** Loads and validates the whole log, streaming it line by line. Throws `SessionFileError` (file, line, field) for a damaged file. */
  async open(id: string): Promise<SessionLog> {
    const path = this.pathOf(id)
    const live = this.openLogs.get(id)
    if (live !== undefined && !live.closed) return live
    // A log still closing here is read back once its last writes are out.
    if (live !== undefined) await live.close().catch(() => undefined)
    let parsed: ParsedSessionFile
    try {
      parsed = await readSessionFile(path, id)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`no session ${id} (${path} does not exist)`, { cause: error })
      throw error
    }
    // Another open() may have finished while this one read the file.
    const raced = this.openLogs.get(id)
    if (raced !== undefined && !raced.closed) return raced
    return this.track(new SessionLog({ id, path, ...parsed, redactLine: this.redactLine, onClose: (log) => this.untrack(log) }))
  }

  /** Every session, most recent activity first. Reads only what changed since the last list(). */
  async list(): Promise<SessionSummary[]> {
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const ids = names.filter((name) => name.endsWith(EXTENSION)).map((name) => name.slice(0, -EXTENSION.length)).filter(isSessionId)
    const summaries: SessionSummary[] = []
    for (let i = 0; i < ids.length; i += SCAN_CONCURRENCY) {
      const batch = await Promise.all(ids.slice(i, i + SCAN_CONCURRENCY).map((id) => this.summarize(id)))
      for (const summary of batch) if (summary !== undefined) summaries.push(summary)
    }
    await this.cache.retainOnly(new Set(ids))
    await this.cache.save()
    return summaries.sort((a, b) => b.lastActivity - a.lastActivity || (a.id < b.id ? 1 : -1))
  }

  /**
   * Sessions whose title or content (prompts, replies, tool names) hold every word of the query,
   * most recent first, each with the event to jump to. Streams each file once, then reads only
   * what was appended (search.ts).
   */
  async search(options: SessionSearchOptions): Promise<SessionSearchResult[]> {
    return searchSessions(this.searchIndex, await this.list(), (id) => this.pathOf(id), options)
  }

  /** Appends `session/renamed` and writes it out. */
  async rename(id: string, title: string): Promise<SessionEvent> {
    const checked = parseOrThrow(TitleSchema, title, 'session title')
    const wasOpen = this.openLogs.has(id)
    const log = await this.open(id)
    try {
      const event = log.append({ type: 'session/renamed', title: checked })
      await log.flush()
      return event
    } finally {
      if (!wasOpen) await log.close()
    }
  }

  /** Closes the session if it is open here, then removes its file and its checkpoint blobs. */
  async delete(id: string): Promise<void> {
    const path = this.pathOf(id)
    const live = this.openLogs.get(id)
    if (live !== undefined) await live.close().catch(() => undefined) // its data is being deleted anyway
    try {
      await rm(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`no session ${id} (${path} does not exist)`, { cause: error })
      throw error
    }
    // The file checkpoints go with it (revert and rewind read them from there).
    await rm(checkpointFolderOf(path), { recursive: true, force: true })
    // So do its subagents' logs, and its background tasks' output files (plugins/background-tasks
    // writes them to `<id>.tasks/` beside the log; a session deleted while open stops them first).
    await rm(childLogFolderOf(path), { recursive: true, force: true })
    await rm(taskOutputFolderOf(path), { recursive: true, force: true })
    await this.cache.delete(id)
    await this.cache.save()
  }

  private async summarize(id: string): Promise<SessionSummary | undefined> {
    const live = this.openLogs.get(id)
    if (live !== undefined) return summarizeEvents(id, live.events)
    const path = join(this.dir, `${id}${EXTENSION}`)
    try {
      const info = await stat(path)
      const scan = await scanSessionFile(path, info.size, info.mtimeMs, await this.cache.get(id))
      await this.cache.set(id, scan)
      return summaryFromScan(id, scan)
    } catch (error) {
      // Deleted between readdir and stat/read (by another process): it is simply no longer listed.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    // The folder holds transcripts: keep it private even when it existed before (no-op on Windows).
    chmodSync(this.dir, 0o700)
  }

  private track(log: SessionLog): SessionLog {
    this.openLogs.set(log.id, log)
    return log
  }

  private untrack(log: SessionLog): void {
    if (this.openLogs.get(log.id) === log) this.openLogs.delete(log.id)
  }
}

/** Where the background-tasks plugin keeps a session's task output files: `<id>.tasks/` beside its log. */
export function taskOutputFolderOf(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '') + '.tasks'
}
