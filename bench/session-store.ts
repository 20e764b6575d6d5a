// Benchmark: durable session logs (src-main/session), each figure against a bare loop doing the
// same I/O in the same run (ratio = value / baseline):
// - append throughput: 100k realistic events appended 10 per tick through a SessionLog (validation,
//   group commit: one write per tick, listeners told after the write) against a bare loop that
//   stringifies each event and appends it with its own appendFileSync;
// - latency from append() to the listener (median and p99 of 2,000 single events, each alone in
//   its tick) against a bare setImmediate + appendFileSync + callback;
// - load time of 10k, 100k and 1M realistic events (SessionStore.open: streamed, validated)
//   against a bare streaming reader (readline + JSON.parse per line, no validation); 1M events is
//   about 0.9 GB, past V8's longest string, which the old whole-file loader could not open;
// - the heap a load peaks at (sampled while it runs) against what the loaded events retain.
import { appendFileSync, closeSync, createReadStream, openSync } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { createWriteStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { SessionEventInput } from '../src-shared/host/agent'
import { SessionStore } from '../src-main/session/store'
import { line, type BenchLine } from './measure'

const APPEND_EVENTS = 100_000
const PER_TICK = 10
const LATENCY_SAMPLES = 2_000
const LOAD_SIZES = [10_000, 100_000, 1_000_000]
const BENCH = 'session-store'

export async function run(): Promise<BenchLine[]> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-bench-sessions-'))
  try {
    const store = new SessionStore(join(dir, 'sessions'))
    const rows: BenchLine[] = []
    rows.push(...(await appendThroughput(store, dir)))
    rows.push(...(await appendLatency(store, dir)))
    const gc = exposeGc()
    for (const size of LOAD_SIZES) rows.push(...(await loadOf(store, size, gc)))
    return rows
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function appendThroughput(store: SessionStore, dir: string): Promise<BenchLine[]> {
  const inputs = [...realisticEvents(APPEND_EVENTS)]
  const log = store.create({ workspace: '/home/dev/project', title: 'bench' })
  let heard = 0
  log.onAppend(() => heard++)
  let started = performance.now()
  for (let i = 0; i < inputs.length; i++) {
    log.append(inputs[i])
    if ((i + 1) % PER_TICK === 0) await tick()
  }
  await log.flush()
  const appendMs = performance.now() - started
  if (heard !== inputs.length) throw new Error(`listener heard ${heard} events, expected ${inputs.length}`)
  await log.close()

  const fd = openSync(join(dir, 'bare.jsonl'), 'a', 0o600)
  started = performance.now()
  for (let i = 0; i < inputs.length; i++) {
    appendFileSync(fd, `${JSON.stringify({ ...inputs[i], seq: i + 2, ts: Date.now() })}\n`)
    if ((i + 1) % PER_TICK === 0) await tick()
  }
  const bareMs = performance.now() - started
  closeSync(fd)
  const perSecond = (ms: number): number => Math.round(inputs.length / (ms / 1000))
  return [row(`append throughput (100k events, ${PER_TICK} per tick, vs an appendFileSync per event)`, perSecond(appendMs), 'events/s', perSecond(bareMs))]
}

async function appendLatency(store: SessionStore, dir: string): Promise<BenchLine[]> {
  const log = store.create({ workspace: '/home/dev/project', title: 'latency' })
  const input: SessionEventInput = { type: 'notice', level: 'info', text: 'a notice of ordinary length for the latency probe', source: 'bench' }
  let resolveHeard: () => void = () => undefined
  log.onAppend(() => resolveHeard())
  const ours: number[] = []
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const heard = new Promise<void>((resolve) => (resolveHeard = resolve))
    const started = process.hrtime.bigint()
    log.append(input)
    await heard
    ours.push(Number(process.hrtime.bigint() - started) / 1000)
  }
  await log.close()
  const fd = openSync(join(dir, 'latency.jsonl'), 'a', 0o600)
  const bare: number[] = []
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const started = process.hrtime.bigint()
    const text = `${JSON.stringify({ ...input, seq: i + 2, ts: Date.now() })}\n`
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        appendFileSync(fd, text)
        resolve()
      })
    )
    bare.push(Number(process.hrtime.bigint() - started) / 1000)
  }
  closeSync(fd)
  return [
    row('append to listener latency (median)', round(quantile(ours, 0.5)), 'us', round(quantile(bare, 0.5))),
    row('append to listener latency (p99)', round(quantile(ours, 0.99)), 'us', round(quantile(bare, 0.99)))
  ]
}

async function loadOf(store: SessionStore, size: number, gc: () => void): Promise<BenchLine[]> {
  const label = size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`
  const { id, path } = await writeSession(store, size)
  const bytes = (await stat(path)).size
  const rounds = size >= 1_000_000 ? 1 : 3
  const ours: number[] = []
  const bare: number[] = []
  let heap = { peak: 0, retained: 0 }
  for (let r = 0; r < rounds; r++) {
    gc()
    const before = process.memoryUsage().heapUsed
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2)
    let started = performance.now()
    let loaded = await store.open(id)
    ours.push(performance.now() - started)
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().heapUsed)
    if (loaded.events.length !== size) throw new Error(`loaded ${loaded.events.length} events, expected ${size}`)
    gc()
    heap = { peak: peak - before, retained: process.memoryUsage().heapUsed - before }
    await loaded.close()
    loaded = undefined as never
    gc()
    started = performance.now()
    const parsed = await bareLoad(path)
    bare.push(performance.now() - started)
    if (parsed !== size) throw new Error(`bare reader parsed ${parsed} lines, expected ${size}`)
  }
  await rm(path)
  return [
    row(`load time (${label} events, ${mb(bytes)} MB)`, round(median(ours)), 'ms', round(median(bare))),
    row(`load heap peak vs retained (${label} events)`, mb(heap.peak), 'MB', mb(heap.retained))
  ]
}

/** A session of `size` realistic events, written straight to its file (seq and ts filled in). */
async function writeSession(store: SessionStore, size: number): Promise<{ id: string; path: string }> {
  const log = store.create({ workspace: '/home/dev/project', title: `load ${size}` })
  await log.close()
  const out = createWriteStream(log.path, { flags: 'a' })
  let seq = 1
  let batch = ''
  for (const input of realisticEvents(size - 1)) {
    batch += `${JSON.stringify({ ...input, seq: ++seq, ts: 1_700_000_000_000 + seq })}\n`
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
      batch = ''
    }
  }
  await new Promise<void>((resolve, reject) => out.end(batch, () => resolve()).once('error', reject))
  return { id: log.id, path: log.path }
}

const row = (metric: string, value: number, unit: string, baseline: number): BenchLine => line(BENCH, metric, value, unit, baseline)
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Lines parsed by a bare streaming reader: readline over a read stream, JSON.parse each line. */
async function bareLoad(path: string): Promise<number> {
  let count = 0
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (text !== '') {
      JSON.parse(text)
      count++
    }
  }
  return count
}

function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc
  if (existing !== undefined) return existing
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const round = (n: number): number => Math.round(n * 100) / 100
const mb = (bytes: number): number => round(bytes / (1024 * 1024))

/** A coding session's rhythm: a prompt, then steps of assistant text + 1-2 tool calls and their results. */
function* realisticEvents(count: number): Generator<SessionEventInput> {
  let random = 42
  const next = (): number => {
    random = (random * 1103515245 + 12345) % 2147483648
    return random / 2147483648
  }
  const words = 'the of function return const file test error value session tool result model import export async await type interface string number'.split(' ')
  const prose = (length: number): string => {
    let text = ''
    while (text.length < length) text += `${words[Math.floor(next() * words.length)]} `
    return text.slice(0, length)
  }
  let turn = 0
  let call = 0
  let emitted = 0
  while (emitted < count) {
    const out: SessionEventInput[] = []
    const turnId = `turn-${++turn}`
    out.push({ type: 'user/message', turnId, content: prose(80 + Math.floor(next() * 400)), source: 'user' })
    const steps = 1 + Math.floor(next() * 4)
    for (let step = 0; step < steps; step++) {
      const calls = Array.from({ length: 1 + Math.floor(next() * 2) }, () => {
        const id = `call_${++call}`
        return next() < 0.5
          ? { id, name: 'Bash', args: { command: `npm test -- ${prose(30).trim().replace(/ /g, '-')}`, description: prose(40) } }
          : { id, name: 'Read', args: { file_path: `/home/dev/project/src/${prose(20).trim().replace(/ /g, '/')}.ts` } }
      })
      out.push({ type: 'assistant/message', turnId, step, text: prose(Math.floor(next() * 600)), toolCalls: calls, stopReason: 'tool_use' })
      for (const c of calls) out.push({ type: 'tool/call', turnId, callId: c.id, token: `tok-${c.id}`, name: c.name, args: c.args })
      for (const c of calls) {
        out.push({
          type: 'tool/result',
          turnId,
          callId: c.id,
          token: `tok-${c.id}`,
          name: c.name,
          content: prose(200 + Math.floor(next() * next() * 6000)),
          isError: next() < 0.1,
          verdict: { outcome: 'allowed', stage: 'approval', approval: 'allowed-session' },
          durationMs: Math.floor(next() * 3000)
        })
      }
    }
    out.push({ type: 'assistant/message', turnId, step: steps, text: prose(100 + Math.floor(next() * 800)), toolCalls: [], stopReason: 'end_turn' })
    for (const event of out) {
      if (emitted++ === count) return
      yield event
    }
  }
}
