// A Write or Edit stopped between creating its temp file and renaming it into place (kill -9, a
// power cut) leaves `.<name>.seam-write-<tag>.tmp` beside the file. The tag comes from the call's
// token, which the session log holds from before the tool ran, so when a session that stopped
// mid-turn is loaded, its calls without a result name exactly the temp files to remove: Seam never
// deletes a file it cannot show is its own.
import { rm } from 'node:fs/promises'
import type { SessionEvent } from '../../../src-shared/session/events'
import { realTarget, tempPathFor } from './atomic-write'
import { resolveToolPath } from './paths'

/** The tools that write through `writeFileAtomic` with a call's tag. */
const WRITING_TOOLS = new Set(['Write', 'Edit'])

/**
 * Test-only fault hook: with `SEAM_TEST_WRITE_KILL_BEFORE_RENAME=1`, Write and Edit kill their own
 * process (SIGKILL) with the temp file written, right before the rename, so a test can stop a real
 * `seam run` at that point.
 */
export const WRITE_KILL_ENV = 'SEAM_TEST_WRITE_KILL_BEFORE_RENAME'

/** The temp-file tag of the write made by the call with `token` (`call_<uuid>`): short, and the same on every run. */
export function writeTempTag(token: string): string {
  return `seam-write-${token.replace(/^call_/, '').replace(/[^A-Za-z0-9]/g, '').slice(0, 16)}`
}

/** For `writeFileAtomic`'s `beforeRename`: the test fault hook when it is set, else nothing. */
export function writeFaultHook(): (() => void) | undefined {
  return process.env[WRITE_KILL_ENV] === '1' ? () => process.kill(process.pid, 'SIGKILL') : undefined
}

/**
 * Removes the temp files of the writing calls of turn `turnId` that have no result (the turn was
 * interrupted). Relative paths are taken against `cwd`, as the tools took them. Returns the temp
 * files removed; one that cannot be removed is reported through `warn` and the rest go on.
 */
export async function sweepInterruptedWrites(events: readonly SessionEvent[], turnId: string, cwd: string, warn: (message: string) => void): Promise<string[]> {
  const open = new Map<string, { token: string; filePath: string }>()
  for (const event of events) {
    if (event.type === 'tool/call' && event.turnId === turnId && WRITING_TOOLS.has(event.name) && typeof event.args.file_path === 'string') {
      open.set(event.callId, { token: event.token, filePath: event.args.file_path })
    } else if (event.type === 'tool/result' && event.turnId === turnId) {
      open.delete(event.callId)
    }
  }
  const removed: string[] = []
  for (const { token, filePath } of open.values()) {
    try {
      const temp = tempPathFor(await realTarget(resolveToolPath(cwd, filePath)), writeTempTag(token))
      if (await removeIfPresent(temp)) removed.push(temp)
    } catch (error) {
      warn(`could not remove the temp file of an interrupted write to ${filePath}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return removed
}

async function removeIfPresent(file: string): Promise<boolean> {
  try {
    await rm(file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
