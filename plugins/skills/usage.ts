// How often each skill was invoked, kept in Seam's home (`skills/usage.json`), so the listing keeps
// the descriptions of the skills a user relies on when the budget is short (Claude Code trims the
// least-used first). A missing or broken file counts nothing; it is rewritten whole (atomic) on use,
// re-read first under a lock shared by Seam's processes, so sessions running at once (the desktop
// app, `seam run`s) each add their uses instead of writing over the others'.
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { withFileLockSync, writeFileAtomic } from '@seam/sdk/node'

const UsageFileSchema = z.object({
  version: z.literal(1),
  skills: z.record(z.string(), z.object({ uses: z.number().int().nonnegative(), lastUsed: z.number() }))
})
type UsageFile = z.infer<typeof UsageFileSchema>

/** The lock is held for one read and one write of a small file; longer means a stuck process. */
const LOCK_PATIENCE_MS = 5_000

export class SkillUsage {
  private data: UsageFile | undefined
  /** Why the file was not read, once (for a notice). */
  problem: string | undefined

  constructor(readonly file: string | undefined) {}

  uses(name: string): number {
    return this.load().skills[name]?.uses ?? 0
  }

  /** Counts one invocation and writes the file; a failed write is kept in `problem`, not thrown. */
  record(name: string, now = Date.now()): void {
    const counted = (): UsageFile => {
      const data = this.load()
      data.skills[name] = { uses: (data.skills[name]?.uses ?? 0) + 1, lastUsed: now }
      return data
    }
    const file = this.file
    if (!file) {
      counted()
      return
    }
    try {
      withFileLockSync(
        `${file}.lock`,
        () => {
          this.data = undefined // What other processes counted since this one read it.
          writeFileAtomic(file, `${JSON.stringify(counted(), null, 2)}\n`)
        },
        { patienceMs: LOCK_PATIENCE_MS }
      )
    } catch (error) {
      this.problem = `skill usage could not be saved to ${file}: ${(error as Error).message}`
    }
  }

  private load(): UsageFile {
    if (this.data) return this.data
    this.data = { version: 1, skills: {} }
    if (!this.file) return this.data
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch {
      return this.data
    }
    try {
      const parsed = UsageFileSchema.safeParse(JSON.parse(text))
      if (parsed.success) this.data = parsed.data
      else this.problem = `${this.file} is not a skill usage file (${parsed.error.issues[0].path.join('.') || 'root'}: ${parsed.error.issues[0].message}); counting from zero`
    } catch (error) {
      this.problem = `${this.file} is not JSON (${(error as Error).message}); counting from zero`
    }
    return this.data
  }
}
