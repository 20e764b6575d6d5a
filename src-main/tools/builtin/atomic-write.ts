// Writes a file so readers see either the old or the new content, never a torn mix: a temp file
// in the same directory, flushed, then renamed over the target.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { errnoCode } from './text-files'

export interface AtomicWriteOptions {
  /**
   * Names the temp file `.<name>.<tempTag>.tmp` instead of `.<name>.<pid>.<random>.tmp`, so whoever
   * knows the tag can find and remove it after a crash (a journaled restore: src-main/checkpoints).
   */
  tempTag?: string
  /** Called with the temp file written and synced, right before the rename (a test's fault hook). */
  beforeRename?: () => void
}

/**
 * Writes `content` (text as UTF-8, or bytes) to `filePath` atomically. An existing target keeps its permission bits; a
 * symlink is followed (the file it points to is replaced, the link stays).
 */
export async function writeFileAtomic(filePath: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const target = await realTarget(filePath)
  const mode = await existingMode(target)
  const temp = tempPathFor(target, options.tempTag ?? `${process.pid}.${randomBytes(4).toString('hex')}`)
  try {
    const handle = await openTemp(temp, mode ?? 0o666, options.tempTag !== undefined)
    try {
      await (typeof content === 'string' ? handle.writeFile(content, 'utf8') : handle.writeFile(content))
      if (mode !== undefined) await handle.chmod(mode)
      await handle.sync()
    } finally {
      await handle.close()
    }
    options.beforeRename?.()
    await fs.rename(temp, target)
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => {
      // The temp file may never have been created; nothing else to clean up.
    })
    throw error
  }
}

/**
 * Creates the temp file exclusively. A tagged one may be left over from an interrupted run with the
 * same tag (a journaled restore finished again): removed and created anew, paying the extra
 * unlink only then, not on every write.
 */
async function openTemp(temp: string, mode: number, tagged: boolean): Promise<fs.FileHandle> {
  try {
    return await fs.open(temp, 'wx', mode)
  } catch (error) {
    if (!tagged || errnoCode(error) !== 'EEXIST') throw error
    await fs.rm(temp, { force: true })
    return fs.open(temp, 'wx', mode)
  }
}

/** The temp file `writeFileAtomic` writes next to `target` (already resolved by `realTarget`) for `tag`. */
export function tempPathFor(target: string, tag: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${tag}.tmp`)
}

/** The file a write to `filePath` replaces: the symlink's target, or the path itself. */
export async function realTarget(filePath: string): Promise<string> {
  try {
    return await fs.realpath(filePath)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return filePath
    throw error
  }
}

async function existingMode(filePath: string): Promise<number | undefined> {
  try {
    return (await fs.stat(filePath)).mode & 0o7777
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
}
