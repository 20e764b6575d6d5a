// Which process holds a session open right now, for the other Seam processes on the machine (a
// window's Board showing a session that `seam run` in a terminal, another window or `seam acp`
// runs). Each process that opens a session writes `<sessions>/live/<id>.json` with its pid and
// that pid's start time, and removes it on close. A kill -9 leaves the file behind, so a reader
// trusts it only while that pid still runs *and* started when the file says (a pid reused by an
// unrelated process does not count): a stale file reads as "not running", with no timer or
// heartbeat needed in the holder.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../app/atomic-file'
import { assertSessionId } from './ids'
import { processAlive } from '../process/process-alive'

const HolderSchema = z.object({
  pid: z.number().int().positive(),
  /** The holder's start time as the OS counts it (Linux: /proc/<pid>/stat field 22); absent where not readable. */
  started: z.string().optional(),
  since: z.number()
})
export type SessionHolder = z.infer<typeof HolderSchema>

export class SessionPresence {
  readonly dir: string

  constructor(sessionsDir: string) {
    this.dir = join(sessionsDir, 'live')
  }

  fileOf(id: string): string {
    assertSessionId(id)
    return join(this.dir, `${id}.json`)
  }

  /** This process holds `id` open (written before its first turn can run). */
  hold(id: string): void {
    const started = processStarted(process.pid)
    writeFileAtomic(this.fileOf(id), JSON.stringify({ pid: process.pid, ...(started !== undefined ? { started } : {}), since: Date.now() }) + '\n')
  }

  /** This process closed `id`: its file goes, unless another process holds the session now. */
  release(id: string): void {
    if (this.read(id)?.pid === process.pid) rmSync(this.fileOf(id), { force: true })
  }

  /** The live process holding `id` open, other than this one; undefined when none (or its file is stale). */
  holder(id: string): SessionHolder | undefined {
    const holder = this.read(id)
    if (!holder || holder.pid === process.pid || !processAlive(holder.pid)) return undefined
    const now = procStat(holder.pid)
    // An exited holder nobody reaped yet (a zombie) runs nothing.
    if (now?.state === 'Z' || now?.state === 'X') return undefined
    if (holder.started !== undefined && now?.started !== holder.started) return undefined
    return holder
  }

  private read(id: string): SessionHolder | undefined {
    try {
      const parsed = HolderSchema.safeParse(JSON.parse(readFileSync(this.fileOf(id), 'utf8')))
      return parsed.success ? parsed.data : undefined
    } catch {
      return undefined // None, or half of a file no writer leaves (atomic writes): nobody holds it.
    }
  }
}

/** When `pid` started, in the OS's own units (Linux's /proc); undefined where that is not readable. */
export function processStarted(pid: number): string | undefined {
  return procStat(pid)?.started
}

function procStat(pid: number): { state: string; started: string | undefined } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] ?? '', started: fields[19] }
  } catch {
    return undefined
  }
}
