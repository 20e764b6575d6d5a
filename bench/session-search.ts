// Benchmark: sessions/search (src-main/session/search.ts) over 1,000 sessions holding 100k events
// in all (realistic sizes: prompts, replies with tool calls, tool output up to a few KB), each
// figure against reading the same files in the same run:
// - the first search (nothing indexed: every file streamed once, tool output skipped) against
//   plain reading every file's bytes in 1 MiB chunks, the floor any search over the files pays;
// - the same, against loading every session the way opening one does (SessionStore.open:
//   parsed and validated), what a search that loads whole sessions would pay;
// - a later search (files unchanged: the index answers after a stat per file) against plain reading;
// - a search after one session grew by a turn (only its appended bytes are read) against plain reading.
import { open as openFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionEventInput } from '../src-shared/host/agent'
import { searchSessions, SessionSearchIndex } from '../src-main/session/search'
import { SessionStore } from '../src-main/session/store'
import { line, type BenchLine } from './measure'

const BENCH = 'session-search'
const SESSIONS = 1_000
const EVENTS_PER_SESSION = 100
const CHUNK = 1 << 20
const QUERY = 'zanzibar deploy'

export async function run(): Promise<BenchLine[]> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-bench-search-'))
  try {
    const store = new SessionStore(join(dir, 'sessions'))
    const ids = await writeSessions(store)
    const paths = ids.map((id) => store.pathOf(id))
    const summaries = await store.list() // the summary cache is warm, as in a running Seam
    const rows: BenchLine[] = []

    const plainMs = await best(() => readAll(paths))
    const loadMs = await best(async () => {
      for (const id of ids) await (await store.open(id)).close()
    }, 2)
    let index = new SessionSearchIndex()
    const coldMs = await best(async () => {
      index = new SessionSearchIndex()
      const found = await searchSessions(index, summaries, (id) => store.pathOf(id), { query: QUERY, limit: 500 })
      if (found.length !== SESSIONS / 10) throw new Error(`expected ${SESSIONS / 10} matches, found ${found.length}`)
    })
    const warmMs = await best(() => searchSessions(index, summaries, (id) => store.pathOf(id), { query: QUERY, limit: 500 }))
    const grownMs = await best(async () => {
      const log = await store.open(ids[0])
      for (const event of turn(1)) log.append(event)
      await log.close()
      await searchSessions(index, summaries, (id) => store.pathOf(id), { query: QUERY, limit: 500 })
    })
    const mb = (await totalBytes(paths)) / 1e6
    const what = `${SESSIONS} sessions, ${SESSIONS * EVENTS_PER_SESSION / 1000}k events, ${mb.toFixed(0)} MB`
    rows.push(line(BENCH, `first search, nothing indexed (${what}) vs plain reading of the files`, coldMs, 'ms', plainMs))
    rows.push(line(BENCH, `first search, nothing indexed (${what}) vs loading every session (open: parse + validate)`, coldMs, 'ms', loadMs))
    rows.push(line(BENCH, `later search, files unchanged (${what}) vs plain reading of the files`, warmMs, 'ms', plainMs))
    rows.push(line(BENCH, `search after one session grew by a turn (${what}) vs plain reading of the files`, grownMs, 'ms', plainMs))
    return rows
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function best(fn: () => Promise<unknown>, rounds = 3): Promise<number> {
  let fastest = Infinity
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    await fn()
    fastest = Math.min(fastest, performance.now() - started)
  }
  return fastest
}

async function readAll(paths: readonly string[]): Promise<void> {
  const buffer = Buffer.allocUnsafe(CHUNK)
  for (const path of paths) {
    const handle = await openFile(path, 'r')
    try {
      while ((await handle.read(buffer, 0, CHUNK, null)).bytesRead > 0);
    } finally {
      await handle.close()
    }
  }
}

async function totalBytes(paths: readonly string[]): Promise<number> {
  let total = 0
  for (const path of paths) {
    const handle = await openFile(path, 'r')
    total += (await handle.stat()).size
    await handle.close()
  }
  return total
}

async function writeSessions(store: SessionStore): Promise<string[]> {
  const ids: string[] = []
  for (let s = 0; s < SESSIONS; s++) {
    const log = store.create({ workspace: `/home/dev/project-${s % 5}` })
    let written = 1
    for (let t = 0; written < EVENTS_PER_SESSION; t++) {
      // One session in ten mentions the query's words in a reply of its first turn.
      const events = turn(s * 1000 + t, s % 10 === 0 && t === 0)
      for (const event of events.slice(0, EVENTS_PER_SESSION - written)) log.append(event)
      written += Math.min(events.length, EVENTS_PER_SESSION - written)
    }
    await log.close()
    ids.push(log.id)
  }
  return ids
}

let random = 42
function next(): number {
  random = (random * 1103515245 + 12345) % 2147483648
  return random / 2147483648
}
const WORDS = 'the of function return const file test error value session tool result model import export async await type interface string number'.split(' ')
function prose(length: number): string {
  let text = ''
  while (text.length < length) text += `${WORDS[Math.floor(next() * WORDS.length)]} `
  return text.slice(0, length)
}

/** One turn of 14 events: a prompt, two steps with two tool calls each and their output, the final reply. */
function turn(n: number, mention = false): SessionEventInput[] {
  const turnId = `turn-${n}`
  const out: SessionEventInput[] = [{ type: 'turn/start', turnId }, { type: 'user/message', turnId, content: prose(80 + Math.floor(next() * 300)), source: 'user' }]
  for (let step = 0; step < 2; step++) {
    const calls = [0, 1].map((i) => ({ id: `c${n}-${step}-${i}`, name: i === 0 ? 'Bash' : 'Read', args: { command: prose(30) } }))
    out.push({ type: 'assistant/message', turnId, step, text: prose(Math.floor(next() * 500)), toolCalls: calls })
    for (const c of calls) out.push({ type: 'tool/call', turnId, callId: c.id, token: `k-${c.id}`, name: c.name, args: c.args })
    for (const c of calls) {
      out.push({
        type: 'tool/result', turnId, callId: c.id, token: `k-${c.id}`, name: c.name,
        content: prose(200 + Math.floor(next() * next() * 5000)), isError: false,
        verdict: { outcome: 'allowed', stage: 'approval', approval: 'allowed-session' }, durationMs: 12
      })
    }
  }
  out.push({ type: 'assistant/message', turnId, step: 2, text: `${prose(200)}${mention ? ' Deploy it with Zanzibar.' : ''}`, toolCalls: [] })
  out.push({ type: 'turn/end', turnId, reason: 'completed' })
  return out
}
