// The rollout behind a Codex hook's transcript_path after a rewind: Codex's rollouts are
// append-only and a rollback is recorded as an `event_msg` `thread_rolled_back` with the number
// of turns taken back, so a hook replaying the file drops those turns as Codex's own readers do.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionEvent } from '@seam/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { CodexRollout } from './rollout'

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

function events(): SessionEvent[] {
  const at = Date.parse('2026-12-01T10:00:00Z')
  let seq = 0
  const next = (event: object) => ({ ...event, seq: ++seq, ts: at + seq }) as SessionEvent
  const turn = (turnId: string, prompt: string) => [
    next({ type: 'user/message', turnId, content: prompt, source: 'user' }),
    next({ type: 'assistant/message', turnId, step: 0, text: `answer to ${prompt}`, toolCalls: [] })
  ]
  return [
    next({ type: 'session/header', sessionId: 's-1', version: 1, workspace: '/srv/project', createdAt: at }),
    ...turn('turn-1', 'first'),
    ...turn('turn-2', 'second'),
    // A message steered into turn two is part of that turn, not a turn of its own.
    next({ type: 'user/message', turnId: 'turn-2', content: 'and also this', source: 'steering' }),
    ...turn('turn-3', 'third')
  ]
}

type Row = { type: string; timestamp: string; payload: { type: string; num_turns?: number } }

describe('the Codex rollout after a rewind', () => {
  it('appends thread_rolled_back with the turns taken back, then the new turn', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-rollout-'))
    const log = events()
    const at = log[log.length - 1].ts
    // Rewind to "second" (seq 4): turns two and three.
    log.push({ type: 'rewind', seq: log.length + 1, ts: at + 1, toSeq: 4, turnId: 'turn-2', prompt: 'second', files: [] } as SessionEvent)
    log.push({ type: 'user/message', seq: log.length + 1, ts: at + 2, turnId: 'turn-4', content: 'second, again', source: 'user' } as SessionEvent)
    const session = { sessionId: 's-1', cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events: log }
    const rollout = new CodexRollout(session)
    rollout.sync(session)
    const rows = readFileSync(rollout.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Row)
    const rolledBack = rows.filter((row) => row.payload.type === 'thread_rolled_back')
    expect(rolledBack).toEqual([{ timestamp: new Date(at + 1).toISOString(), type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: 2 } }])
    expect(rows.indexOf(rolledBack[0])).toBeLessThan(rows.findIndex((row) => JSON.stringify(row).includes('second, again')))

    // A second rewind, to the first message, takes back the first turn and the new one.
    log.push({ type: 'rewind', seq: log.length + 1, ts: at + 3, toSeq: 2, turnId: 'turn-1', prompt: 'first', files: [] } as SessionEvent)
    rollout.sync({ ...session, events: log })
    const last = JSON.parse(readFileSync(rollout.path, 'utf8').trim().split('\n').at(-1)!) as Row
    expect(last.payload).toEqual({ type: 'thread_rolled_back', num_turns: 2 })
  })

  it('a message typed while the turn ran joins it as the user\'s message; images go as input_image data URLs', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-rollout-'))
    const log = events().slice(0, 3)
    const at = log[2].ts
    log.push({ type: 'steering/message', seq: 4, ts: at + 1, turnId: 'turn-1', text: 'this one', source: 'user', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] } as SessionEvent)
    const session = { sessionId: 's-1', cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events: log }
    const rollout = new CodexRollout(session)
    rollout.sync(session)
    const rows = readFileSync(rollout.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { type: string; payload: unknown })
    const url = 'data:image/png;base64,iVBORw0KGgo='
    expect(rows.slice(-2).map((row) => [row.type, row.payload])).toEqual([
      ['response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'this one' }, { type: 'input_image', image_url: url }] }],
      ['event_msg', { type: 'user_message', message: 'this one', kind: 'plain', images: [url] }]
    ])
  })

  it('each model request adds a token_count with its counts and the session\'s running total, as Codex records usage', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-rollout-'))
    const log = events().slice(0, 3)
    const at = log[2].ts
    const usage = (seq: number, inputTokens: number, outputTokens: number) =>
      ({ type: 'usage/step', seq, ts: at + seq, turnId: 'turn-1', step: seq, provider: 'openai', model: 'gpt-x', contextWindow: 272000, usage: { inputTokens, cachedInputTokens: 100, outputTokens, reasoningTokens: 5 } }) as SessionEvent
    log.push(usage(4, 1000, 50), usage(5, 1200, 30))
    const session = { sessionId: 's-1', cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events: log }
    const rollout = new CodexRollout(session)
    rollout.sync(session)
    const rows = readFileSync(rollout.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { type: string; payload: { type: string } })
    const counts = rows.filter((row) => row.payload.type === 'token_count').map((row) => row.payload)
    expect(counts).toEqual([
      {
        type: 'token_count',
        info: {
          total_token_usage: { input_tokens: 1000, cached_input_tokens: 100, output_tokens: 50, reasoning_output_tokens: 5, total_tokens: 1050 },
          last_token_usage: { input_tokens: 1000, cached_input_tokens: 100, output_tokens: 50, reasoning_output_tokens: 5, total_tokens: 1050 },
          model_context_window: 272000
        },
        rate_limits: null
      },
      {
        type: 'token_count',
        info: {
          total_token_usage: { input_tokens: 2200, cached_input_tokens: 200, output_tokens: 80, reasoning_output_tokens: 10, total_tokens: 2280 },
          last_token_usage: { input_tokens: 1200, cached_input_tokens: 100, output_tokens: 30, reasoning_output_tokens: 5, total_tokens: 1230 },
          model_context_window: 272000
        },
        rate_limits: null
      }
    ])
  })

  it('a compaction appends a compacted line with the summary, then context_compacted', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-rollout-'))
    const log = events().slice(0, 3)
    log.push({ type: 'compaction', seq: 4, ts: log[2].ts + 1, trigger: 'manual', summary: 'We said hello.', fromSeq: 2, toSeq: 3, replacedMessages: 2 } as SessionEvent)
    const session = { sessionId: 's-1', cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events: log }
    const rollout = new CodexRollout(session)
    rollout.sync(session)
    const rows = readFileSync(rollout.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { type: string; payload: unknown })
    expect(rows.slice(-2).map((row) => [row.type, row.payload])).toEqual([
      ['compacted', { message: 'We said hello.' }],
      ['event_msg', { type: 'context_compacted' }]
    ])
  })
})

