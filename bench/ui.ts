// Benchmark: the UI with long sessions and a fast stream (issue 5), in Chromium (found as npm test
// finds it) against the built web host (`out/`, built by `npm run bench`; this module builds nothing).
//
// - time to first render of a 10k-event session: from clicking it in the sessions sidebar to its
//   last row (the final assistant message) being in the transcript, one animation frame later.
//   Baseline: the same for a 10-event session, in the same run. Median of alternating rounds.
// - longest main-thread task while 2,000 tokens stream at 200 tokens/s (4-character chunks, 5 ms
//   apart, from a fake OpenAI-compatible server): the longest Long Tasks API entry, or for tasks
//   under 50 ms the longest lateness of a 5 ms timer. Baseline: the same page idle for as long as
//   the stream took.
// - longest gap between animation frames during that stream (what a user sees as a stall; it
//   bounds the longest task from above). Baseline: the same while idle.
// ratio = value / baseline (0 when the baseline is 0).
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Page } from 'playwright-core'
import { SessionEventSchema, type SessionEvent } from '../src-shared/session/events'
import { startFakeOpenAI } from '../test-support/fake-openai.mjs'
import { findChromium } from '../scripts/chromium.mjs'
import { line, type BenchLine } from './measure'

const BENCH = 'ui'
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const WEB_ENTRY = join(root, 'out', 'main', 'web.js')
const found = findChromium()
const CHROMIUM = found !== undefined && !('error' in found) ? found.path : '/usr/bin/chromium'

const BIG_EVENTS = 10_000
const SMALL_EVENTS = 10
const OPEN_ROUNDS = 3
const STREAM_CHUNKS = 2_000
const CHUNK_CHARS = 4
const CHUNK_DELAY_MS = 5
const STREAM_END = 'STREAM-END.'
const WAIT_MS = 60_000
const PROBE_INTERVAL_MS = 5

/** A session event without `seq` and `ts` (added when the log is written). */
type EventInput = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, 'seq' | 'ts'> : never) : never

export async function run(): Promise<BenchLine[]> {
  if (!existsSync(WEB_ENTRY)) throw new Error(`${WEB_ENTRY} is missing: build first (npm run build)`)
  const temp = await mkdtemp(join(tmpdir(), 'seam-bench-ui-'))
  const fake = await startFakeOpenAI(
    Array.from({ length: 20 }, () => ({ text: streamText(), chunkSize: CHUNK_CHARS, chunkDelayMs: CHUNK_DELAY_MS }))
  )
  let host: ChildProcess | undefined
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu', '--disable-quic'] })
  try {
    const seamHome = join(temp, 'seam')
    const workspace = join(temp, 'workspace')
    await mkdir(workspace, { recursive: true })
    await mkdir(join(temp, 'home'), { recursive: true })
    await mkdir(join(seamHome, 'sessions'), { recursive: true, mode: 0o700 })
    await writeFile(
      join(seamHome, 'settings.json'),
      JSON.stringify({ workspace, provider: { provider: 'openai-compatible', baseUrl: fake.url, model: 'bench-model' } })
    )
    const big = await writeSession(seamHome, '20250101-000000-000-0000b10c', 'bench 10k events', workspace, BIG_EVENTS)
    const small = await writeSession(seamHome, '20250101-000000-000-00005a11', 'bench 10 events', workspace, SMALL_EVENTS)

    const started = await startHost({ ...process.env, HOME: join(temp, 'home'), SEAM_HOME: seamHome, PORT: '0', SEAM_WEB_HOST: '127.0.0.1' })
    host = started.child
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
    await page.goto(started.url)
    await page.locator(`button[title="${big.title}"]`).waitFor({ timeout: WAIT_MS })

    // Time to first render: alternate the two sessions; the first open of each reads its file.
    const bigTimes: number[] = []
    const smallTimes: number[] = []
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      smallTimes.push(await openAndTime(page, small))
      bigTimes.push(await openAndTime(page, big))
    }

    // Streaming: in the small session, a prompt whose answer streams back.
    await page.locator(`button[title="${small.title}"]`).click()
    await page.getByText(small.marker).waitFor({ timeout: WAIT_MS })
    await installMonitors(page)
    await page.evaluate(() => window.__seamBench!.start())
    const streamStart = Date.now()
    const composer = page.getByRole('textbox', { name: 'Message' })
    await composer.fill('Stream a long answer, please.')
    await composer.press('Enter')
    await page.getByRole('log', { name: 'Transcript' }).getByText(STREAM_END).waitFor({ timeout: WAIT_MS })
    const streamMs = Date.now() - streamStart
    const streaming = await page.evaluate(() => window.__seamBench!.stop())

    await page.evaluate(() => window.__seamBench!.start())
    await page.waitForTimeout(streamMs)
    const idle = await page.evaluate(() => window.__seamBench!.stop())

    return [
      line(BENCH, 'first render of a 10k-event session', median(bigTimes), 'ms', median(smallTimes)),
      line(BENCH, 'longest main-thread task while 2000 tokens stream at 200/s', streaming.longestTask, 'ms', idle.longestTask),
      line(BENCH, 'longest frame gap while 2000 tokens stream at 200/s', streaming.longestFrameGap, 'ms', idle.longestFrameGap)
    ]
  } finally {
    await browser.close().catch(() => undefined)
    if (host) await stopProcess(host)
    await fake.close()
    await rm(temp, { recursive: true, force: true, maxRetries: 3 })
  }
}

interface SeededSession {
  id: string
  title: string
  /** Text of the last assistant message: when it is on screen, the session has rendered. */
  marker: string
}

/** Writes a valid session log of exactly `count` events (header, a few notices, then full turns). */
async function writeSession(seamHome: string, id: string, title: string, workspace: string, count: number): Promise<SeededSession> {
  const marker = `END-OF-SESSION-${id}`
  const perTurn = 7
  const notices = (count - 1) % perTurn
  const turns = (count - 1 - notices) / perTurn
  const inputs: EventInput[] = [
    { type: 'session/header', sessionId: id, version: 1, workspace, createdAt: Date.UTC(2025, 0, 1), title, model: { provider: 'openai-compatible', model: 'bench-model' } }
  ]
  for (let i = 0; i < notices; i++) inputs.push({ type: 'notice', level: 'info', text: `Seeded notice ${i + 1}.`, source: 'bench' })
  for (let t = 0; t < turns; t++) {
    const turnId = `turn-${t + 1}`
    const callId = `call_${t + 1}`
    const token = `tok-${t + 1}`
    const command = `ls -la src/module-${t % 50}`
    const last = t === turns - 1
    inputs.push(
      { type: 'turn/start', turnId },
      { type: 'user/message', turnId, content: `Question ${t + 1}: what is in src/module-${t % 50}? Please look and summarise.`, source: 'user' },
      { type: 'assistant/message', turnId, step: 0, text: `Let me list **src/module-${t % 50}** first.`, toolCalls: [{ id: callId, name: 'Bash', args: { command } }], stopReason: 'tool_use' },
      { type: 'tool/call', turnId, callId, token, name: 'Bash', args: { command } },
      {
        type: 'tool/result', turnId, callId, token, name: 'Bash',
        content: Array.from({ length: 6 }, (_, k) => `-rw-r--r-- 1 dev dev ${1000 + k * 37} Jan  1 00:00 file-${k}.ts`).join('\n') + '\n',
        isError: false, verdict: { outcome: 'allowed', stage: 'approval', approval: 'allowed-session' }, durationMs: 12
      },
      {
        type: 'assistant/message', turnId, step: 1, toolCalls: [], stopReason: 'end_turn',
        text: last ? marker : `The folder holds six TypeScript files. The largest is \`file-5.ts\`:\n\n\`\`\`ts\nexport const answer${t} = ${t}\n\`\`\`\n\nAnything else?`
      },
      { type: 'turn/end', turnId, reason: 'completed', steps: 2 }
    )
  }
  const start = Date.UTC(2025, 0, 1)
  const lines = inputs.map((input, i) => JSON.stringify(SessionEventSchema.parse({ ...input, seq: i + 1, ts: start + i * 10 })))
  if (lines.length !== count) throw new Error(`seeded ${lines.length} events, wanted ${count}`)
  await writeFile(join(seamHome, 'sessions', `${id}.jsonl`), lines.join('\n') + '\n', { mode: 0o600 })
  return { id, title, marker }
}

/** Clicks the session in the sidebar; ms until its last row is in the transcript and a frame has passed. */
async function openAndTime(page: Page, session: SeededSession): Promise<number> {
  const ms = await page.evaluate(
    async ({ title, marker, timeout }) => {
      const button = document.querySelector<HTMLButtonElement>(`[aria-label="Session list"] button[title="${title}"]`)
      if (!button) throw new Error(`no sidebar button for ${title}`)
      const rendered = () => document.querySelector('[role="log"][aria-label="Transcript"]')?.textContent?.includes(marker) === true
      const start = performance.now()
      button.click()
      await new Promise<void>((resolveDone, reject) => {
        const timer = setTimeout(() => reject(new Error(`${title} did not render within ${timeout} ms`)), timeout)
        const observer = new MutationObserver(() => {
          if (!rendered()) return
          observer.disconnect()
          clearTimeout(timer)
          resolveDone()
        })
        observer.observe(document.body, { subtree: true, childList: true, characterData: true })
      })
      await new Promise((resolveFrame) => requestAnimationFrame(resolveFrame))
      return performance.now() - start
    },
    { title: session.title, marker: session.marker, timeout: WAIT_MS }
  )
  if (!(await page.getByText(session.marker).isVisible())) throw new Error(`the last row of ${session.title} rendered out of view`)
  return ms
}

interface MonitorResult {
  longestTask: number
  longestFrameGap: number
}

declare global {
  interface Window {
    __seamBench?: { start(): void; stop(): MonitorResult }
  }
}

/**
 * Started and stopped from the bench: the longest task is the longest Long Tasks entry (tasks over
 * 50 ms) or, for shorter ones, the longest lateness of a 5 ms interval timer (the time the main
 * thread was busy when it should have fired); plus the longest gap between animation frames.
 */
async function installMonitors(page: Page): Promise<void> {
  await page.evaluate((PROBE_MS) => {
    let longestTask = 0
    let longestFrameGap = 0
    let running = false
    let lastFrame = 0
    let probe: ReturnType<typeof setInterval> | undefined
    let due = 0
    new PerformanceObserver((list) => {
      if (!running) return
      for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration)
    }).observe({ type: 'longtask' })
    const frame = (now: number) => {
      if (!running) return
      if (lastFrame > 0) longestFrameGap = Math.max(longestFrameGap, now - lastFrame)
      lastFrame = now
      requestAnimationFrame(frame)
    }
    window.__seamBench = {
      start() {
        longestTask = 0
        longestFrameGap = 0
        lastFrame = 0
        running = true
        requestAnimationFrame(frame)
        // Lateness of a 5 ms timer: how long the thread was busy when it should have fired.
        due = performance.now() + PROBE_MS
        probe = setInterval(() => {
          const now = performance.now()
          longestTask = Math.max(longestTask, now - due)
          due = now + PROBE_MS
        }, PROBE_MS)
      },
      stop() {
        running = false
        clearInterval(probe)
        return { longestTask, longestFrameGap }
      }
    }
  }, PROBE_INTERVAL_MS)
}

/** About 8,000 characters of Markdown (paragraphs and a code block) ending with STREAM_END. */
function streamText(): string {
  const words = ['the', 'session', 'stream', 'renders', 'tokens', 'quickly', 'while', 'markdown', 'blocks', 'grow', 'and', 'scroll']
  const total = STREAM_CHUNKS * CHUNK_CHARS - STREAM_END.length
  let text = ''
  let i = 0
  while (text.length < total) {
    text += words[i % words.length] + (i % 17 === 16 ? '.\n\n' : ' ')
    if (i === 400) text += '\n\n```ts\nconst streamed = true\nexport function f(n: number) { return n * 2 }\n```\n\n'
    i++
  }
  return text.slice(0, total) + STREAM_END
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function startHost(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [WEB_ENTRY], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => fail('did not print its URL within 20 s'), 20_000)
    function fail(why: string) {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`bench ui: the web host ${why}\n${output.slice(-2000)}`))
    }
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const match = /Seam web UI: (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    })
    child.once('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`}) before it was ready`))
  })
  return { child, url }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
