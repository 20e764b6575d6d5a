// Code blocks ask for tokens here; the work runs in a worker (highlight.worker.ts) so the window
// never waits on a grammar. One request is in the worker at a time and a block that changed
// (a block still streaming) withdraws its older request before it is sent, so a fast stream
// costs one tokenisation per answer, not one per delta. The unit tests' DOM has no Worker: there
// the same code runs on this thread (a branch the build drops, so shiki ships once, in the worker).
import { languageFor, type CodeToken } from './languages'
import type { HighlightReply, HighlightRequest } from './highlight-messages'

export { languageFor, type CodeToken }

interface Pending {
  request: HighlightRequest
  resolve: (lines: CodeToken[][] | null) => void
  reject: (error: Error) => void
}

/** Workers started at most per page: one that keeps failing (a blocked script) is not started again for every block. */
const MAX_STARTS = 3

let worker: Worker | undefined
let starts = 0
let lastFailure: Error | undefined
let nextId = 1
let inFlight: Pending | undefined
const queue: Pending[] = []

function startWorker(): Worker {
  const started = new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module', name: 'highlighter' })
  started.onmessage = (event: MessageEvent<HighlightReply>) => {
    const done = inFlight
    if (!done || done.request.id !== event.data.id) return
    inFlight = undefined
    if ('error' in event.data) done.reject(new Error(event.data.error))
    else done.resolve(event.data.lines)
    sendNext()
  }
  // A worker that cannot start (a script blocked, a syntax error) fails every request: the blocks
  // stay plain text and the console says why, rather than highlighting silently moving back here.
  started.onerror = (event) => {
    const failure = new Error(`the code highlighter stopped: ${event.message || 'the worker could not start'}`)
    console.error(failure.message)
    started.terminate()
    lastFailure = failure
    for (const pending of [...(inFlight ? [inFlight] : []), ...queue.splice(0)]) pending.reject(failure)
    inFlight = undefined
    worker = undefined
  }
  return started
}

function sendNext(): void {
  if (inFlight) return
  if (!worker && starts >= MAX_STARTS) {
    for (const pending of queue.splice(0)) pending.reject(lastFailure ?? new Error('the code highlighter stopped'))
    return
  }
  const next = queue.shift()
  if (!next) return
  inFlight = next
  if (!worker) {
    starts++
    worker = startWorker()
  }
  worker.postMessage(next.request)
}

/**
 * Tokens for `code` in `language` (null when it is not one we highlight). Aborting `signal`
 * withdraws a request the worker has not started; its promise then never settles.
 */
export function highlight(code: string, language: string | null, signal?: AbortSignal): Promise<CodeToken[][] | null> {
  if (!language) return Promise.resolve(null)
  if (import.meta.env.MODE === 'test' && typeof Worker === 'undefined') return import('./highlight').then((engine) => engine.highlightCode(code, language))
  return new Promise((resolve, reject) => {
    const pending: Pending = { request: { id: nextId++, code, language }, resolve, reject }
    queue.push(pending)
    signal?.addEventListener('abort', () => {
      const at = queue.indexOf(pending)
      if (at >= 0) queue.splice(at, 1)
    }, { once: true })
    sendNext()
  })
}
