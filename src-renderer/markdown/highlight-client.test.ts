// The window's side of highlighting: one request in the worker at a time, withdrawn requests
// never sent (a streaming block asks again on every delta), failures reported, not hidden. The
// Worker here records what it is sent: the browser's worker is the edge this file talks to
// (e2e/reading.spec.ts runs the real one).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { HighlightReply, HighlightRequest } from './highlight-messages'

class RecordingWorker {
  static started: RecordingWorker[] = []
  sent: HighlightRequest[] = []
  onmessage: ((event: MessageEvent<HighlightReply>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null
  constructor(readonly url: URL, readonly options: WorkerOptions) {
    RecordingWorker.started.push(this)
  }
  terminated = false
  postMessage(request: HighlightRequest): void {
    this.sent.push(request)
  }
  terminate(): void {
    this.terminated = true
  }
  reply(data: HighlightReply): void {
    this.onmessage?.({ data } as MessageEvent<HighlightReply>)
  }
}

const tokens = (text: string) => [[{ content: text, color: '#000000', dark: '#ffffff' }]]

async function loadClient() {
  vi.resetModules()
  return import('./highlight-client')
}

beforeEach(() => {
  RecordingWorker.started = []
  vi.stubGlobal('Worker', RecordingWorker)
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('highlight (window side)', () => {
  it('sends one request at a time to a module worker and answers each from its reply', async () => {
    const { highlight } = await loadClient()
    const first = highlight('const a = 1', 'typescript')
    const second = highlight('print(1)', 'python')
    expect(RecordingWorker.started).toHaveLength(1)
    const worker = RecordingWorker.started[0]
    expect(worker.options).toMatchObject({ type: 'module' })
    expect(worker.sent.map((r) => r.code)).toEqual(['const a = 1'])

    worker.reply({ id: worker.sent[0].id, lines: tokens('const a = 1') })
    await expect(first).resolves.toEqual(tokens('const a = 1'))
    expect(worker.sent.map((r) => r.code)).toEqual(['const a = 1', 'print(1)'])
    worker.reply({ id: worker.sent[1].id, lines: null })
    await expect(second).resolves.toBeNull()
  })

  it('never sends a request withdrawn while it waited, so a streaming block costs one tokenisation per answer', async () => {
    const { highlight } = await loadClient()
    const busy = highlight('a', 'typescript')
    const stale: AbortController[] = []
    for (const text of ['ab', 'abc', 'abcd']) {
      const withdraw = new AbortController()
      void highlight(text, 'typescript', withdraw.signal)
      stale.push(withdraw)
    }
    for (const withdraw of stale) withdraw.abort()
    const latest = highlight('abcde', 'typescript')
    const worker = RecordingWorker.started[0]
    worker.reply({ id: worker.sent[0].id, lines: tokens('a') })
    await busy
    expect(worker.sent.map((r) => r.code)).toEqual(['a', 'abcde'])
    worker.reply({ id: worker.sent[1].id, lines: tokens('abcde') })
    await expect(latest).resolves.toEqual(tokens('abcde'))
  })

  it('answers null without a worker for a fence that is not highlighted', async () => {
    const { highlight } = await loadClient()
    await expect(highlight('plain', null)).resolves.toBeNull()
    expect(RecordingWorker.started).toHaveLength(0)
  })

  it('fails what waits when the worker stops, says so on the console, ends it, and starts a fresh worker for the next block', async () => {
    const { highlight } = await loadClient()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const running = highlight('x', 'typescript')
    const waiting = highlight('y', 'typescript')
    RecordingWorker.started[0].onerror?.({ message: 'blocked by CSP' } as ErrorEvent)
    await expect(running).rejects.toThrow('the code highlighter stopped: blocked by CSP')
    await expect(waiting).rejects.toThrow('blocked by CSP')
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('blocked by CSP'))

    expect(RecordingWorker.started[0].terminated).toBe(true)

    const again = highlight('z', 'typescript')
    expect(RecordingWorker.started).toHaveLength(2)
    const fresh = RecordingWorker.started[1]
    fresh.reply({ id: fresh.sent[0].id, lines: tokens('z') })
    await expect(again).resolves.toEqual(tokens('z'))
  })

  it('gives up after three workers failed: later blocks stay plain without starting another', async () => {
    const { highlight } = await loadClient()
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    for (let i = 0; i < 3; i++) {
      const request = highlight(`x${i}`, 'typescript')
      RecordingWorker.started[i].onerror?.({ message: 'blocked' } as ErrorEvent)
      await expect(request).rejects.toThrow('blocked')
    }
    await expect(highlight('y', 'typescript')).rejects.toThrow('the code highlighter stopped: blocked')
    expect(RecordingWorker.started).toHaveLength(3)
  })

  it('reports a worker-side failure as that request\'s error and goes on with the next', async () => {
    const { highlight } = await loadClient()
    const bad = highlight('x', 'typescript')
    const next = highlight('y', 'typescript')
    const worker = RecordingWorker.started[0]
    worker.reply({ id: worker.sent[0].id, error: 'grammar failed to load' })
    await expect(bad).rejects.toThrow('grammar failed to load')
    worker.reply({ id: worker.sent[1].id, lines: tokens('y') })
    await expect(next).resolves.toEqual(tokens('y'))
  })
})
