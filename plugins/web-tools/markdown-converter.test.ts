// The converter worker as the host runs it: one long-lived worker thread, the bundled
// markdown-worker.ts (as the app builds it: self-contained), a time limit, a worker that dies, a
// cancelled turn. Real worker threads throughout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { documentationPage } from './test-pages'
import { ConversionError, MarkdownConverter, unpackedPath } from './markdown-converter'
import workerPath from './markdown-worker?modulePath'

const converters: MarkdownConverter[] = []
const dir = mkdtempSync(join(tmpdir(), 'seam-converter-'))
afterEach(() => converters.splice(0).forEach((c) => c.dispose()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function converter(options: Partial<ConstructorParameters<typeof MarkdownConverter>[0]> = {}): MarkdownConverter {
  const made = new MarkdownConverter({ workerPath, timeoutMs: 60_000, maxHeapMb: 512, ...options })
  converters.push(made)
  return made
}

describe('MarkdownConverter (HTML to Markdown in a worker thread)', () => {
  it('the worker bundle imports nothing but Node built-ins (it loads from outside the asar archive)', async () => {
    const { readFileSync } = await import('node:fs')
    const code = readFileSync(workerPath, 'utf8')
    const specifiers = [...code.matchAll(/(?:^|\n)\s*import\b[^'"]*['"]([^'"]+)['"]/g)].map((m) => m[1])
    expect(specifiers.length).toBeGreaterThan(0)
    expect(specifiers.filter((s) => !s!.startsWith('node:'))).toEqual([])
  })

  it('converts pages one after another in one long-lived worker, started on the first page', async () => {
    const made = converter()
    expect(made.started).toBe(0)
    const [a, b] = await Promise.all([made.convert('<h1>One</h1><script>x</script>', 1000), made.convert('<p>Two <em>words</em></p>', 1000)])
    expect(a).toEqual({ markdown: '# One', complete: true })
    expect(b).toEqual({ markdown: 'Two *words*', complete: true })
    const long = await made.convert(documentationPage(400_000), 10_000)
    expect(long.complete).toBe(false)
    expect(made.started).toBe(1)
  })

  it('a page past the time limit fails naming the setting; the worker is replaced and the next page converts', async () => {
    const made = converter({ timeoutMs: 1 })
    const failed = made.convert(documentationPage(2_000_000), Number.POSITIVE_INFINITY)
    await expect(failed).rejects.toThrow(ConversionError)
    await expect(failed).rejects.toThrow(/took longer than 1 ms \(the web-tools setting conversion\.timeoutMs\)/)
    const next = converter({ timeoutMs: 60_000 })
    await expect(next.convert('<p>ok</p>', 100)).resolves.toEqual({ markdown: 'ok', complete: true })
  })

  it('a worker that dies fails its page with a clear error, and the next page gets a new worker', async () => {
    const dying = join(dir, 'dying-worker.mjs')
    writeFileSync(dying, "import { parentPort } from 'node:worker_threads'\nparentPort.on('message', () => process.exit(3))\n")
    const made = converter({ workerPath: dying })
    await expect(made.convert('<p>x</p>', 100)).rejects.toThrow('the HTML converter stopped (exit code 3)')
    await expect(made.convert('<p>y</p>', 100)).rejects.toThrow('the HTML converter stopped (exit code 3)')
    expect(made.started).toBe(2)
  })

  it('a worker past its heap limit dies; the page fails naming conversion.maxHeapMb', async () => {
    const made = converter({ maxHeapMb: 32 })
    await expect(made.convert(documentationPage(8_000_000), Number.POSITIVE_INFINITY)).rejects.toThrow(/ran out of memory \(the web-tools setting conversion\.maxHeapMb is 32\)|stopped/)
    await expect(converter().convert('<p>after</p>', 100)).resolves.toMatchObject({ markdown: 'after' })
  })

  it('a cancelled turn abandons its page: a running one terminates the worker, a waiting one leaves the queue', async () => {
    const made = converter()
    const running = new AbortController()
    const waiting = new AbortController()
    const first = made.convert(documentationPage(3_000_000), Number.POSITIVE_INFINITY, running.signal)
    const second = made.convert('<p>queued</p>', 100, waiting.signal)
    const third = made.convert('<p>third</p>', 100)
    waiting.abort(new Error('second cancelled'))
    await expect(second).rejects.toThrow('second cancelled')
    running.abort(new Error('turn cancelled'))
    await expect(first).rejects.toThrow('turn cancelled')
    await expect(third).resolves.toEqual({ markdown: 'third', complete: true })
    expect(made.started).toBe(2)
  })

  it('in a packaged app, loads the bundle from app.asar.unpacked when it is there', () => {
    const packed = join(dir, 'resources', 'app.asar', 'out', 'main', 'chunks', 'markdown-worker-1.js')
    expect(unpackedPath(packed)).toBe(packed)
    mkdirSync(join(dir, 'resources', 'app.asar.unpacked', 'out', 'main', 'chunks'), { recursive: true })
    writeFileSync(join(dir, 'resources', 'app.asar.unpacked', 'out', 'main', 'chunks', 'markdown-worker-1.js'), '')
    expect(unpackedPath(packed)).toBe(join(dir, 'resources', 'app.asar.unpacked', 'out', 'main', 'chunks', 'markdown-worker-1.js'))
  })
})
