// The host's side of HTML-to-Markdown: one long-lived worker thread per host, started on the
// first page and kept (its turndown rules and warmed-up code are reused), fed one page at a time.
// The host's event loop only posts the HTML and reads the Markdown back; the parse runs in the
// worker. A page that takes longer than `timeoutMs`, a worker that dies (out of its heap limit,
// say) and a cancelled turn each end that page's job: the worker is terminated (a synchronous
// parse cannot be interrupted otherwise) and the next page starts a new one.
import { existsSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { HtmlMarkdown } from './html-markdown'
import type { ConversionReply, ConversionRequest } from './markdown-protocol'

export interface MarkdownConverterOptions {
  /**
   * The worker's script: markdown-worker.ts as built (a self-contained ES module). Not a string when
   * the code was bundled by something that does not know `?modulePath` (Seam's sources in a plugin
   * author's own test run): then pages are converted in this thread, slower for the host but right.
   */
  workerPath: string | undefined
  /** A page whose conversion takes longer fails (the web-tools setting conversion.timeoutMs). */
  timeoutMs: number
  /** The worker's V8 old-space limit; past it the worker dies and the page fails (conversion.maxHeapMb). */
  maxHeapMb: number
}

/** Why a conversion failed, in words for the model (the caller wraps it in a tool error). */
export class ConversionError extends Error {}

interface Job {
  request: ConversionRequest
  signal: AbortSignal | undefined
  resolve: (result: HtmlMarkdown) => void
  reject: (error: unknown) => void
  onAbort: () => void
}

export class MarkdownConverter {
  private worker: Worker | undefined
  private readonly queue: Job[] = []
  private running: { job: Job; timer: NodeJS.Timeout; worker: Worker } | undefined
  private nextId = 1
  private disposed = false
  /** Workers started so far (a test reads it: one per host, a new one only after a failure). */
  started = 0

  constructor(private readonly options: MarkdownConverterOptions) {}

  convert(html: string, maxChars: number, signal?: AbortSignal): Promise<HtmlMarkdown> {
    if (this.disposed) return Promise.reject(new ConversionError('the HTML converter has been shut down'))
    signal?.throwIfAborted()
    if (typeof this.options.workerPath !== 'string') return import('./html-markdown').then(({ htmlToMarkdown }) => htmlToMarkdown(html, maxChars))
    return new Promise<HtmlMarkdown>((resolve, reject) => {
      const job: Job = { request: { id: this.nextId++, html, maxChars }, signal, resolve, reject, onAbort: () => this.abandon(job) }
      signal?.addEventListener('abort', job.onAbort, { once: true })
      this.queue.push(job)
      this.pump()
    })
  }

  /** Terminates the worker; pending pages fail. */
  dispose(): void {
    this.disposed = true
    for (const job of this.queue.splice(0)) this.settle(job, undefined, new ConversionError('the HTML converter has been shut down'))
    if (this.running) this.fail(new ConversionError('the HTML converter has been shut down'))
    void this.worker?.terminate()
    this.worker = undefined
  }

  private pump(): void {
    if (this.running || this.disposed) return
    const job = this.queue.shift()
    if (!job) {
      // Idle: the worker must not keep a finished CLI run alive.
      this.worker?.unref()
      return
    }
    const worker = this.ensureWorker()
    worker.ref()
    const timer = setTimeout(
      () => this.fail(new ConversionError(`converting the page to Markdown took longer than ${this.options.timeoutMs} ms (the web-tools setting conversion.timeoutMs)`)),
      this.options.timeoutMs
    )
    this.running = { job, timer, worker }
    worker.postMessage(job.request)
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker
    // Only reached for queued pages, and convert() queues them only when workerPath is a string.
    const worker = new Worker(unpackedPath(this.options.workerPath!), { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb }, stdout: false, stderr: false })
    this.started++
    worker.on('message', (reply: ConversionReply) => {
      const running = this.running
      if (!running || running.worker !== worker || running.job.request.id !== reply.id) return
      clearTimeout(running.timer)
      this.running = undefined
      if (reply.ok) this.settle(running.job, { markdown: reply.markdown, complete: reply.complete })
      else this.settle(running.job, undefined, new ConversionError(`the HTML converter failed: ${reply.error}`))
      this.pump()
    })
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.worker !== worker) return
      const why = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it ran out of memory (the web-tools setting conversion.maxHeapMb is ${this.options.maxHeapMb})` : error.message
      this.lost(worker, new ConversionError(`the HTML converter stopped: ${why}`))
    })
    worker.on('exit', (code) => {
      if (this.worker === worker) this.lost(worker, new ConversionError(`the HTML converter stopped (exit code ${code})`))
    })
    this.worker = worker
    return worker
  }

  /** The worker died by itself: the page it had fails, the next starts a new worker. */
  private lost(worker: Worker, error: ConversionError): void {
    this.worker = undefined
    if (this.running?.worker === worker) {
      clearTimeout(this.running.timer)
      const { job } = this.running
      this.running = undefined
      this.settle(job, undefined, error)
    }
    this.pump()
  }

  /** Ends the running page with `error`: its worker is terminated, the queue goes on with a new one. */
  private fail(error: unknown): void {
    const running = this.running
    if (!running) return
    clearTimeout(running.timer)
    this.running = undefined
    if (this.worker === running.worker) this.worker = undefined
    void running.worker.terminate()
    this.settle(running.job, undefined, error)
    this.pump()
  }

  /** The caller gave up (its turn was cancelled): a waiting page leaves the queue, a running one is terminated. */
  private abandon(job: Job): void {
    const reason: unknown = job.signal?.reason ?? new Error('aborted')
    if (this.running?.job === job) return this.fail(reason)
    const index = this.queue.indexOf(job)
    if (index >= 0) {
      this.queue.splice(index, 1)
      this.settle(job, undefined, reason)
    }
  }

  /** Ends a job with its result, or (result undefined) with `error`. */
  private settle(job: Job, result: HtmlMarkdown | undefined, error?: unknown): void {
    job.signal?.removeEventListener('abort', job.onAbort)
    if (result) job.resolve(result)
    else job.reject(error)
  }
}

/**
 * In the packaged app the bundle sits in `app.asar.unpacked` (packaging/electron-builder.config.mjs
 * unpacks it): the worker then loads from a plain folder and needs nothing of Electron's asar
 * support in worker threads.
 */
export function unpackedPath(path: string): string {
  const unpacked = path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2')
  return unpacked !== path && existsSync(unpacked) ? unpacked : path
}
