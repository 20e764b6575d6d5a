// Benchmark: rebuilding the model request of a long session after compactions (issue 16). A
// 100k-event log (user prompts, assistant tool calls, tool results) with 10 compactions spread
// through it; the request is rebuilt from the log alone, as on resume (`buildModelRequest`),
// which starts folding at the last compaction. Baseline, same run: folding every event of the
// same log (what a derivation that ignores compactions costs). Median of 7 rounds, ms per rebuild.
import type { SessionEvent } from '../src-shared/session/events'
import { buildModelRequest } from '../src-main/agent/step'
import { IncrementalHistory } from '../src-main/session/history'
import { line, type BenchLine } from './measure'

const EVENTS = 100_000
const COMPACTIONS = 10

export async function run(): Promise<BenchLine[]> {
  const events = sessionLog(EVENTS, COMPACTIONS)
  const fromLastCompaction = msPerRun(() => buildModelRequest(events))
  const wholeLog = msPerRun(() => {
    const history = new IncrementalHistory()
    for (const event of events) history.add(event)
    return history.messages()
  })
  return [line('compaction', `rebuild a request after ${COMPACTIONS} compactions of a ${EVENTS / 1000}k-event session (vs folding the whole log)`, fromLastCompaction, 'ms', wholeLog)]
}

function sessionLog(count: number, compactions: number): SessionEvent[] {
  const events: SessionEvent[] = []
  const every = Math.floor(count / (compactions + 1))
  let seq = 0
  let lastCompaction = 0
  const push = (event: Record<string, unknown>): void => void events.push({ ...event, seq: ++seq, ts: seq } as SessionEvent)
  push({ type: 'session/header', sessionId: 's', version: 1, workspace: '/w', createdAt: 0 })
  push({ type: 'model/context', system: 'system prompt', tools: [{ name: 'Read', description: 'read', inputSchema: { type: 'object' } }] })
  let step = 0
  while (seq < count) {
    if (seq - lastCompaction >= every && events.filter((e) => e.type === 'compaction').length < compactions) {
      push({ type: 'compaction', trigger: 'auto', summary: `summary up to ${seq}`, fromSeq: lastCompaction + 1, toSeq: seq, replacedMessages: 1000 })
      lastCompaction = seq
      continue
    }
    const turnId = `turn-${step}`
    push({ type: 'user/message', turnId, content: `prompt ${step}`, source: 'user' })
    const id = `call-${step}`
    push({ type: 'assistant/message', turnId, step: 0, text: 'reading', toolCalls: [{ id, name: 'Read', args: { path: `f${step}` } }] })
    push({ type: 'tool/result', turnId, callId: id, token: id, name: 'Read', content: `contents of f${step}`, isError: false, verdict: { outcome: 'allowed', stage: 'pre-execute' }, durationMs: 1 })
    push({ type: 'assistant/message', turnId, step: 1, text: `done ${step}`, toolCalls: [] })
    step++
  }
  return events
}

function msPerRun(fn: () => unknown, rounds = 7): number {
  const times: number[] = []
  for (let i = 0; i < rounds; i++) {
    const start = performance.now()
    fn()
    times.push(performance.now() - start)
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]
}
