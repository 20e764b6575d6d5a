// What Seam remembers of the worktrees it made, one small file per worktree under
// `<Seam home>/worktrees/records/` (one file each, so two Seam processes creating worktrees at
// once never overwrite each other's entry). A record is written as `creating` before git runs and
// becomes `ready` after: a record still `creating` whose process is gone is a creation that was
// cut short (kill -9, a power loss), and `recover` undoes what it left.
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '@seam/sdk/node'

export const WorktreeFileRecordSchema = z.object({
  state: z.enum(['creating', 'ready']),
  pid: z.number().int(),
  sessionId: z.string(),
  name: z.string(),
  repo: z.string(),
  path: z.string(),
  branch: z.string(),
  base: z.string(),
  baseCommit: z.string(),
  /** Folders made to hold the worktree (removed again when a creation fails and they are empty). */
  madeFolders: z.array(z.string())
})
export type WorktreeFileRecord = z.infer<typeof WorktreeFileRecordSchema>

export class WorktreeRecords {
  readonly dir: string

  constructor(seamHome: string) {
    this.dir = path.join(seamHome, 'worktrees', 'records')
  }

  private fileOf(worktreePath: string): string {
    return path.join(this.dir, `${createHash('sha256').update(worktreePath).digest('hex').slice(0, 24)}.json`)
  }

  write(record: WorktreeFileRecord): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    writeFileAtomic(this.fileOf(record.path), JSON.stringify(record, null, 2) + '\n')
  }

  remove(worktreePath: string): void {
    rmSync(this.fileOf(worktreePath), { force: true })
  }

  get(worktreePath: string): WorktreeFileRecord | undefined {
    return this.all().find((record) => record.path === worktreePath)
  }

  /** Every readable record; a damaged file is skipped with its reason in `problems`. */
  all(problems: string[] = []): WorktreeFileRecord[] {
    let names: string[]
    try {
      names = readdirSync(this.dir)
    } catch {
      return [] // No worktree made yet.
    }
    const out: WorktreeFileRecord[] = []
    for (const name of names) {
      if (!name.endsWith('.json')) continue
      const file = path.join(this.dir, name)
      try {
        const parsed = WorktreeFileRecordSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
        if (parsed.success) out.push(parsed.data)
        else problems.push(`${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`)
      } catch (error) {
        problems.push(`${file}: ${(error as Error).message}`)
      }
    }
    return out
  }
}
