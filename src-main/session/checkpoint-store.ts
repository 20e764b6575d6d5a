// The session's checkpoint blobs: file contents kept so that a change a tool made can be taken
// back, in `<sessions>/<id>.files/`, each blob named by the sha256 of its bytes (so the same
// content is kept once however often it is checkpointed). A blob is written to a temp file,
// synced, renamed into place and its folder synced, before any event names it: an event in the
// log never points at a blob that a crash could have lost. Blobs are read back checked against
// their name. Files past `maxFileBytes` are not kept: their state is `unsaved` with the reason.
import { createHash, randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { FileState } from '../../src-shared/session/checkpoint-events'
import { writeFileAtomic, type AtomicWriteOptions } from '../tools/builtin/atomic-write'

/** Files bigger than this are not checkpointed (their revert is refused with the reason). */
export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 8 * 1024 * 1024

const FOLDER_SUFFIX = '.files'
const SHA256 = /^[0-9a-f]{64}$/

/** The blob folder of the session whose log is at `logPath` (`<id>.jsonl` -> `<id>.files`). */
export function checkpointFolderOf(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '') + FOLDER_SUFFIX
}

export class CheckpointStore {
  private folderReady: Promise<void> | undefined

  constructor(
    readonly folder: string,
    readonly maxFileBytes: number = DEFAULT_CHECKPOINT_MAX_FILE_BYTES
  ) {}

  static forLog(logPath: string, maxFileBytes?: number): CheckpointStore {
    return new CheckpointStore(checkpointFolderOf(logPath), maxFileBytes)
  }

  /** The state of `file` now, its content kept as a durable blob (deduplicated) when it has one. */
  async capture(file: string): Promise<FileState> {
    const read = await this.read(file)
    if (read.state.kind !== 'file' || read.bytes === undefined) return read.state
    await this.keep(read.state.sha256, read.bytes)
    return read.state
  }

  /** The state of `file` now, without keeping anything (to compare with an earlier state). */
  async observe(file: string): Promise<FileState> {
    return (await this.read(file)).state
  }

  /** A kept blob's bytes, checked against its name. */
  async blob(sha256: string): Promise<Buffer> {
    if (!SHA256.test(sha256)) throw new Error(`not a checkpoint name: ${sha256}`)
    let bytes: Buffer
    try {
      bytes = await fs.readFile(path.join(this.folder, sha256))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`the checkpoint ${sha256.slice(0, 12)}… is missing from ${this.folder}`)
      throw error
    }
    if (digest(bytes) !== sha256) throw new Error(`the checkpoint ${sha256.slice(0, 12)}… in ${this.folder} is damaged (its content does not match its name)`)
    return bytes
  }

  /** The bytes of a state, or null for `absent`; throws for `unsaved` (there is nothing to go back to). */
  async contentOf(state: FileState): Promise<Buffer | null> {
    if (state.kind === 'absent') return null
    if (state.kind === 'unsaved') throw new Error(`its content was not kept (${state.reason})`)
    return this.blob(state.sha256)
  }

  /**
   * Puts `file` back into `state`: its kept content written atomically, or the file removed for
   * `absent`. `options` name the temp file and hold the fault hook (called before the rename or unlink).
   */
  async restore(file: string, state: FileState, options: AtomicWriteOptions = {}): Promise<void> {
    const content = await this.contentOf(state)
    if (content === null) {
      try {
        const info = await fs.lstat(file)
        if (info.isDirectory()) throw new Error(`${file} is a folder now; it was not removed`)
        options.beforeRename?.()
        await fs.unlink(file)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
      return
    }
    await fs.mkdir(path.dirname(file), { recursive: true })
    await writeFileAtomic(file, content, options)
  }

  private async read(file: string): Promise<{ state: FileState; bytes?: Buffer }> {
    let handle: fs.FileHandle
    try {
      handle = await fs.open(file, constants.O_RDONLY)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return { state: { kind: 'absent' } }
      return { state: { kind: 'unsaved', reason: `it could not be read (${code ?? (error as Error).message})` } }
    }
    try {
      const info = await handle.stat()
      if (!info.isFile()) return { state: { kind: 'unsaved', reason: 'it is not a regular file' } }
      if (info.size > this.maxFileBytes) return { state: { kind: 'unsaved', reason: tooLarge(info.size, this.maxFileBytes), size: info.size } }
      const bytes = await handle.readFile()
      // It may have grown between stat and read.
      if (bytes.length > this.maxFileBytes) return { state: { kind: 'unsaved', reason: tooLarge(bytes.length, this.maxFileBytes), size: bytes.length } }
      return { state: { kind: 'file', sha256: digest(bytes), size: bytes.length }, bytes }
    } catch (error) {
      return { state: { kind: 'unsaved', reason: `it could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` } }
    } finally {
      await handle.close()
    }
  }

  /** Writes the blob unless it is already there (same name, same content): temp, sync, rename, sync the folder. */
  private async keep(sha256: string, bytes: Buffer): Promise<void> {
    await this.ensureFolder()
    const target = path.join(this.folder, sha256)
    try {
      await fs.access(target)
      return
    } catch {
      // not kept yet
    }
    const temp = path.join(this.folder, `.${sha256}.${randomBytes(4).toString('hex')}.tmp`)
    try {
      const handle = await fs.open(temp, 'wx', 0o600)
      try {
        await handle.writeFile(bytes)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await fs.rename(temp, target)
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined)
      throw error
    }
    await syncFolder(this.folder)
  }

  private ensureFolder(): Promise<void> {
    this.folderReady ??= (async () => {
      let created = false
      try {
        await fs.mkdir(this.folder, { mode: 0o700 })
        created = true
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      if (created) await syncFolder(path.dirname(this.folder))
    })()
    this.folderReady.catch(() => {
      this.folderReady = undefined
    })
    return this.folderReady
  }
}

function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

function tooLarge(size: number, max: number): string {
  return `it is ${formatBytes(size)}, over the ${formatBytes(max)} checkpoint limit`
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`
  if (n >= 1024) return `${(n / 1024).toFixed(1).replace(/\.0$/, '')} KiB`
  return `${n} bytes`
}

/** Makes new names in a folder durable (where the platform can open a folder). */
export async function syncFolder(dir: string): Promise<void> {
  let handle: fs.FileHandle
  try {
    handle = await fs.open(dir, 'r')
  } catch {
    return
  }
  try {
    await handle.sync()
  } catch {
    // Some file systems refuse fsync on a folder; the rename is then as durable as they make it.
  } finally {
    await handle.close()
  }
}
