// Sessions of any size open (issue 11): SessionStore.open() streams the file line by line, so no
// string ever holds the whole file. The proof is a session file larger than V8's longest string
// (buffer.constants.MAX_STRING_LENGTH, 512 MiB on 64-bit), streamed through a FIFO so that the
// test neither writes half a gigabyte to disk nor retains it: its lines are padded with JSON
// whitespace, which the parser skips, so the events themselves stay small. Realistic sizes
// (10k, 100k, 1M events) are in bench/session-store.ts.
import { spawn, spawnSync } from 'node:child_process'
import { constants } from 'node:buffer'
import { mkdirSync } from 'node:fs'
import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { SessionStore } from './store'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-load-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const LINE_BYTES = 1 << 20

/** Writes a valid session of `lines` events, each line padded to 1 MiB, into `fifo`. */
function writeSessionInto(fifo: string, id: string, lines: number): Promise<number> {
  const source = `
    const { createWriteStream } = require('node:fs')
    const [fifo, id, lines, lineBytes] = [process.argv[1], process.argv[2], Number(process.argv[3]), Number(process.argv[4])]
    const out = createWriteStream(fifo)
    const padded = (json) => Buffer.from(json.slice(0, -1) + ' '.repeat(lineBytes - Buffer.byteLength(json) - 1) + '}\\n')
    let seq = 1
    const header = padded(JSON.stringify({ type: 'session/header', seq: seq++, ts: 1, sessionId: id, version: 1, workspace: '/w', createdAt: 1 }))
    let written = header.length
    const next = () => {
      while (seq <= lines) {
        const line = padded(JSON.stringify({ type: 'notice', seq: seq++, ts: 2, level: 'info', text: 'n' + seq, source: 'load.test' }))
        written += line.length
        if (!out.write(line)) return out.once('drain', next)
      }
      out.end(() => process.stdout.write(String(written)))
    }
    out.write(header)
    next()
  `
  const child = spawn(process.execPath, ['-e', source, fifo, id, String(lines), String(LINE_BYTES)], { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(Number(output)) : reject(new Error(`writer exited ${code}`))))
  })
}

it('opens a session file larger than the longest string V8 can hold, streaming it line by line', async () => {
  const store = SessionStore.inSeamHome(root)
  mkdirSync(store.dir, { recursive: true })
  const id = '20260101-000000-000-0123abcd'
  const lines = Math.ceil(constants.MAX_STRING_LENGTH / LINE_BYTES) + 8
  const made = spawnSync('mkfifo', [store.pathOf(id)])
  expect(made.status).toBe(0)
  const [log, bytes] = await Promise.all([store.open(id), writeSessionInto(store.pathOf(id), id, lines)])
  expect(bytes).toBeGreaterThan(constants.MAX_STRING_LENGTH)
  expect(log.events).toHaveLength(lines)
  expect(log.events[0]).toMatchObject({ type: 'session/header', sessionId: id })
  expect(log.events.at(-1)).toMatchObject({ type: 'notice', seq: lines, text: `n${lines + 1}` })
  expect(log.warnings).toEqual([])
  await log.close()
}, 120_000)

it('reads lines that cross chunk boundaries (multi-byte characters split, lines longer than a chunk) exactly, and still repairs a torn last line', async () => {
  const store = SessionStore.inSeamHome(root)
  const log = store.create({ workspace: '/w' })
  const contents = ['ü✓'.repeat(300_000), 'short', '€'.repeat(1_200_000), 'x'.repeat(LINE_BYTES - 200), '日本語'.repeat(100)]
  for (const content of contents) log.append({ type: 'user/message', turnId: 't', content, source: 'user' })
  await log.close()
  await appendFile(log.path, '{"type":"notice","seq":7,"ts":1,"lev') // a write cut short by a crash

  const reopened = await store.open(log.id)
  expect(reopened.events.map((e) => (e.type === 'user/message' ? e.content : e.type))).toEqual(['session/header', ...contents])
  expect(reopened.warnings).toEqual([expect.stringMatching(/:7: ignored a torn last line \(36 bytes, not valid JSON\)/)])
  reopened.append({ type: 'notice', level: 'info', text: 'after the repair', source: 'test' })
  await reopened.close()
  const again = await store.open(log.id)
  expect(again.warnings).toEqual([])
  expect(again.events.at(-1)).toMatchObject({ seq: 7, text: 'after the repair' })
  await again.close()
})
