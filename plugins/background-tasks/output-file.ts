// A background task's output file: stdout and stderr together (one pipe for a command started in
// the background: src-main/tools/builtin/bash.ts), appended as they come. A task that floods it
// is capped: once the file passes `maxBytes` by a quarter, it is rewritten (atomically) as a
// one-line notice plus its last `maxBytes`, so it stays between `maxBytes` and 1.25 x `maxBytes`
// and a reader always finds the newest output.
// Readers address output by logical offset (bytes ever written), so "what is new since the last
// read" survives a rewrite.
import { mkdir, open, readFile, rename, stat, writeFile, type FileHandle } from 'node:fs/promises'
import path from 'node:path'

export class TaskOutputFile {
  /** Bytes ever appended (the logical end). */
  private written = 0
  /** Bytes ever appended that are in the file. */
  private onDisk = 0
  /** Logical offset of the first output byte the file still holds (after the notice). */
  private keptFrom = 0
  /** Bytes of the notice line at the top of a capped file. */
  private noticeBytes = 0
  private handle: Promise<FileHandle>
  private queue: Promise<void> = Promise.resolve()
  private failure: Error | undefined

  constructor(
    readonly path: string,
    private readonly maxBytes: number
  ) {
    this.handle = mkdir(path.substring(0, path.lastIndexOf('/')) || '/', { recursive: true }).then(() => open(this.path, 'a'))
    // Surfaced by the next append or flush, never as an unhandled rejection.
    this.handle.catch((error: Error) => (this.failure = error))
  }

  /** Appends text; writes are serialised in call order. */
  append(text: string): void {
    if (text === '') return
    const bytes = Buffer.from(text, 'utf8')
    this.written += bytes.length
    this.queue = this.queue.then(async () => {
      if (this.failure) return
      try {
        const handle = await this.handle
        await handle.write(bytes)
        this.onDisk += bytes.length
        if (this.fileBytes() > this.maxBytes + this.maxBytes / 4) await this.keepTail()
      } catch (error) {
        this.failure = error as Error
      }
    })
  }

  /** Resolves once everything appended so far is in the file; rejects when writing failed. */
  async flushed(): Promise<void> {
    await this.queue
    if (this.failure) throw this.failure
  }

  /** Whether output was dropped to respect the cap. */
  get capped(): boolean {
    return this.keptFrom > 0
  }

  get size(): number {
    return this.written
  }

  /** The output from logical offset `from` to the end (what the file still holds of it), and the end offset. */
  readFrom(from: number): Promise<{ text: string; end: number; dropped: boolean }> {
    // In the write queue, so no rewrite moves the bytes while they are read.
    const read = this.queue.then(async () => {
      if (this.failure) throw this.failure
      const end = this.onDisk
      const start = Math.max(from, this.keptFrom)
      if (start >= end) return { text: '', end, dropped: from < this.keptFrom }
      const handle = await open(this.path, 'r')
      try {
        const buffer = Buffer.alloc(end - start)
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.noticeBytes + (start - this.keptFrom))
        return { text: buffer.subarray(0, bytesRead).toString('utf8'), end, dropped: from < this.keptFrom }
      } finally {
        await handle.close()
      }
    })
    this.queue = read.then(
      () => undefined,
      () => undefined
    )
    return read
  }

  /** The last `maxChars` characters of the output. */
  async tail(maxChars: number): Promise<string> {
    const { text } = await this.readFrom(Math.max(0, this.written - maxChars * 4))
    // A cut in the middle of a character decodes to U+FFFD at the start: dropped with the slice.
    return text.length > maxChars ? text.slice(-maxChars) : text
  }

  async close(): Promise<void> {
    await this.queue
    await (await this.handle.catch(() => undefined))?.close().catch(() => undefined)
  }

  private fileBytes(): number {
    return this.noticeBytes + (this.onDisk - this.keptFrom)
  }

  /** Rewrites the file as the notice plus the last `maxBytes` of output, cut at a line start when one is near. */
  private async keepTail(): Promise<void> {
    const handle = await this.handle
    await handle.close()
    const whole = await readFile(this.path)
    let cut = Math.max(this.noticeBytes, whole.length - this.maxBytes)
    const newline = whole.indexOf(10, cut)
    if (newline !== -1 && newline - cut < 4096) cut = newline + 1
    this.keptFrom = this.onDisk - (whole.length - cut)
    const megabytes = Math.round((this.maxBytes / (1024 * 1024)) * 100) / 100
    const notice = Buffer.from(`[Seam: this output passed ${megabytes} MB; earlier output was dropped, the last ${megabytes} MB are kept]\n`)
    this.noticeBytes = notice.length
    const temp = path.join(path.dirname(this.path), `.${path.basename(this.path)}.${process.pid}.tmp`)
    await writeFile(temp, Buffer.concat([notice, whole.subarray(cut)]))
    await rename(temp, this.path)
    this.handle = open(this.path, 'a')
    await this.handle
  }
}

/** Whether a path exists as a file (for a resumed session's ended tasks). */
export async function fileExists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}

/** A background agent's output file (its final text, written whole when it ends): its last `maxChars` characters, '' while it is empty or gone. */
export async function agentOutput(file: string, maxChars: number): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text.length > maxChars ? text.slice(-maxChars) : text
}
