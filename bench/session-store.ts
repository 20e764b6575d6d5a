// Benchmark: durable session logs (src-main/session). Appends 100k realistic events through a
// SessionLog (flush every 100, as a busy loop would at step boundaries), then loads the file back.
// Each figure is compared with a bare loop doing the same I/O in the same run:
// - append: JSON.stringify + one writeSync per 100 lines (no validation, no bookkeeping);
// - load: readFile + split lines + JSON.parse each (no validation).
// ratio = value / baseline. Target: load time ratio <= 1.3.
import { closeSync, openSync, writeSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { SessionEventInput } from '../src-shared/host/agent'
import { SessionStore } from '../src-main/session/store'
import { line, type BenchLine } from './measure'

const EVENTS = 100_000
const FLUSH_EVERY = 100
const LOAD_ROUNDS = 5
const BENCH = 'session-store'

export async function run(): Promise<BenchLine[]> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-bench-sessions-'))
  try {
    const inputs = realisticEvents(EVENTS - 1) // + the header
    const store = new SessionStore(join(dir, 'sessions'))

    const log = store.create({ workspace: '/home/dev/project', title: 'bench' })
    let started = performance.now()
    for (let i = 0; i < inputs.length; i++) {
      log.append(inputs[i])
      if ((i + 1) % FLUSH_EVERY === 0) await log.flush()
    }
    await log.close()
    const appendMs = performance.now() - started

    const barePath = join(dir, 'bare.jsonl')
    const fd = openSync(barePath, 'a', 0o600)
    started = performance.now()
    let batch: string[] = []
    for (let i = 0; i < inputs.length; i++) {
      batch.push(`${JSON.stringify({ ...inputs[i], seq: i + 2, ts: Date.now() })}\n`)
      if (batch.length === FLUSH_EVERY) {
        writeSync(fd, batch.join(''))
        batch = []
      }
    }
    if (batch.length > 0) writeSync(fd, batch.join(''))
    closeSync(fd)
    const bareAppendMs = performance.now() - started

    // Load: alternate the two readers, keep each one's median.
    const ours: number[] = []
    const bare: number[] = []
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      started = performance.now()
      const loaded = await store.open(log.id)
      ours.push(performance.now() - started)
      if (loaded.events.length !== EVENTS) throw new Error(`loaded ${loaded.events.length} events, expected ${EVENTS}`)
      await loaded.close()
      started = performance.now()
      const parsed = await bareLoad(log.path)
      bare.push(performance.now() - started)
      if (parsed.length !== EVENTS) throw new Error(`bare loop parsed ${parsed.length} lines, expected ${EVENTS}`)
    }
    const loadMs = median(ours)
    const bareLoadMs = median(bare)

    const gc = exposeGc()
    const bareHeap = await heapDuring(gc, () => bareLoad(log.path))
    const ourHeap = await heapDuring(gc, async () => {
      const loaded = await store.open(log.id)
      await loaded.close()
      return loaded.events
    })

    const perSecond = (ms: number): number => Math.round(inputs.length / (ms / 1000))
    return [
      row('append throughput', perSecond(appendMs), 'events/s', perSecond(bareAppendMs)),
      row('load time (100k events)', round(loadMs), 'ms', round(bareLoadMs)),
      row('load heap growth before GC (~peak)', mb(ourHeap.peak), 'MB', mb(bareHeap.peak)),
      row('load heap retained', mb(ourHeap.retained), 'MB', mb(bareHeap.retained))
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const row = (metric: string, value: number, unit: string, baseline: number): BenchLine => line(BENCH, metric, value, unit, baseline)

async function bareLoad(path: string): Promise<unknown[]> {
  const text = (await readFile(path)).toString('utf8')
  const out: unknown[] = []
  for (const line of text.split('\n')) if (line !== '') out.push(JSON.parse(line))
  return out
}

/** Heap growth across `load` with no GC in between (close to its peak), and what stays after a full GC. */
async function heapDuring(gc: () => void, load: () => Promise<readonly unknown[]>): Promise<{ peak: number; retained: number }> {
  gc()
  const before = process.memoryUsage().heapUsed
  const result = await load()
  const peak = process.memoryUsage().heapUsed - before
  gc()
  const retained = process.memoryUsage().heapUsed - before
  if (result.length === 0) throw new Error('nothing loaded')
  return { peak, retained }
}

function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc
  if (existing !== undefined) return existing
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const round = (n: number): number => Math.round(n * 100) / 100
const mb = (bytes: number): number => round(bytes / (1024 * 1024))

/** A coding session's rhythm: a prompt, then steps of assistant text + 1-2 tool calls and their results. */
function realisticEvents(count: number): SessionEventInput[] {
  const out: SessionEventInput[] = []
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
  while (out.length < count) {
    const turnId = `turn-${++turn}`
    out.push({ type: 'user/message', turnId, content: prose(80 + Math.floor(next() * 400)), source: 'user' })
    const steps = 1 + Math.floor(next() * 4)
    for (let step = 0; step < steps && out.length < count; step++) {
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
  }
  return out.slice(0, count)
}
