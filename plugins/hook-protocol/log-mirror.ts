// A JSON Lines file kept in step with a session's log, for hooks that read another tool's
// transcript format (Claude Code's transcript, Codex's rollout). Each sync appends the lines for
// the events the log gained since the last one; the file is created (0600) on the first sync.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { SessionEvent } from '@seam/sdk'

export class LogMirror {
  /** Events of the log already written. */
  private written = 0
  private created = false

  constructor(readonly path: string) {}

  /** Appends `linesFor(event)` for every new event; throws only when the file cannot be written. */
  sync(events: readonly SessionEvent[], linesFor: (event: SessionEvent) => readonly unknown[]): void {
    if (!this.created) {
      mkdirSync(path.dirname(this.path), { recursive: true, mode: 0o700 })
      writeFileSync(this.path, '', { mode: 0o600 })
      this.created = true
    }
    if (this.written >= events.length) return
    const lines: string[] = []
    for (const event of events.slice(this.written)) for (const line of linesFor(event)) lines.push(JSON.stringify(line))
    this.written = events.length
    if (lines.length > 0) appendFileSync(this.path, `${lines.join('\n')}\n`)
  }
}
