// The transcript behind transcript_path after a rewind (§8): Claude Code keeps the old lines and
// branches the uuid chain at the message rewound to, so a hook that walks parentUuid back from the
// last line finds the conversation the model now has, and one that reads the file top to bottom
// still finds every line it saw before.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionEvent } from '@seam/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { ClaudeTranscript } from './transcript'

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

type Line = { type: string; uuid: string; parentUuid: string | null; message?: { content: unknown } }

function conversation(): SessionEvent[] {
  const at = Date.parse('2026-12-01T10:00:00Z')
  let seq = 0
  const next = <T extends object>(event: T) => ({ ...event, seq: ++seq, ts: at + seq })
  const turn = (turnId: string, prompt: string, answer: string): SessionEvent[] => [
    next({ type: 'user/message', turnId, content: prompt, source: 'user' }) as SessionEvent,
    next({ type: 'assistant/message', turnId, step: 0, text: answer, toolCalls: [] }) as SessionEvent
  ]
  return [
    next({ type: 'session/header', sessionId: 's-1', version: 1, workspace: '/srv/project', createdAt: at, model: { provider: 'anthropic', model: 'claude-x' } }) as SessionEvent,
    ...turn('turn-1', 'first', 'one'),
    ...turn('turn-2', 'second', 'two'),
    ...turn('turn-3', 'third', 'three')
  ]
}

function walkBack(lines: Line[]): string[] {
  const byUuid = new Map(lines.map((line) => [line.uuid, line]))
  const path: string[] = []
  for (let line: Line | undefined = lines[lines.length - 1]; line; line = line.parentUuid ? byUuid.get(line.parentUuid) : undefined) {
    const content = line.message?.content
    path.unshift(typeof content === 'string' ? content : JSON.stringify(content))
  }
  return path
}

describe('the Claude Code transcript after a rewind (§8)', () => {
  it('keeps the rewound lines and chains the next prompt to the line before the message rewound to', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-transcript-'))
    const session = { sessionId: 's-1', workspace: dir, cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events: conversation() }
    const transcript = new ClaudeTranscript(session)
    transcript.sync(session, 'default')

    // Rewind to "second" (seq 4): turns two and three leave the conversation; then a new prompt.
    const events = [...session.events]
    const at = events[events.length - 1].ts
    events.push({ type: 'rewind', seq: 8, ts: at + 1, toSeq: 4, turnId: 'turn-2', prompt: 'second', files: [] } as SessionEvent)
    events.push({ type: 'user/message', seq: 9, ts: at + 2, turnId: 'turn-4', content: 'second, again', source: 'user' } as SessionEvent)
    events.push({ type: 'assistant/message', seq: 10, ts: at + 3, turnId: 'turn-4', step: 0, text: 'two, again', toolCalls: [] } as SessionEvent)
    transcript.sync({ ...session, events }, 'default')

    const lines = readFileSync(transcript.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Line)
    expect(lines.map((line) => line.message?.content)).toEqual([
      'first', [{ type: 'text', text: 'one' }],
      'second', [{ type: 'text', text: 'two' }],
      'third', [{ type: 'text', text: 'three' }],
      'second, again', [{ type: 'text', text: 'two, again' }]
    ])
    expect(lines[6].parentUuid).toBe(lines[1].uuid)
    expect(walkBack(lines)).toEqual(['first', JSON.stringify([{ type: 'text', text: 'one' }]), 'second, again', JSON.stringify([{ type: 'text', text: 'two, again' }])])
  })

  it('a rewind to the first message starts a new root, as a fresh conversation has', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-transcript-'))
    const events = conversation()
    const at = events[events.length - 1].ts
    events.push({ type: 'rewind', seq: 8, ts: at + 1, toSeq: 2, turnId: 'turn-1', prompt: 'first', files: [] } as SessionEvent)
    events.push({ type: 'user/message', seq: 9, ts: at + 2, turnId: 'turn-4', content: 'start over', source: 'user' } as SessionEvent)
    const session = { sessionId: 's-1', workspace: dir, cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events }
    const transcript = new ClaudeTranscript(session)
    transcript.sync(session, 'default')
    const lines = readFileSync(transcript.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Line)
    expect(lines.at(-1)).toMatchObject({ parentUuid: null, message: { content: 'start over' } })
  })

  it('a message typed while the turn ran is a queued_command attachment, and images go as content blocks', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-transcript-'))
    const image = { mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' }
    const events = conversation().slice(0, 3)
    events.push({ type: 'steering/message', seq: 4, ts: events[2].ts + 1, turnId: 'turn-1', text: 'also check the docs', source: 'user' } as SessionEvent)
    events.push({ type: 'steering/message', seq: 5, ts: events[2].ts + 2, turnId: 'turn-1', text: 'this one', source: 'user', images: [image] } as SessionEvent)
    events.push({ type: 'user/message', seq: 6, ts: events[2].ts + 3, turnId: 'turn-2', content: 'and this', source: 'user', images: [image] } as SessionEvent)
    const session = { sessionId: 's-1', workspace: dir, cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events }
    const transcript = new ClaudeTranscript(session)
    transcript.sync(session, 'default')
    const lines = readFileSync(transcript.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Line & { attachment?: unknown })
    const block = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }
    expect(lines.slice(2).map((line) => [line.type, line.attachment ?? line.message?.content])).toEqual([
      ['attachment', { type: 'queued_command', prompt: 'also check the docs', commandMode: 'prompt', origin: { kind: 'human' } }],
      ['attachment', { type: 'queued_command', prompt: [block, { type: 'text', text: 'this one' }], commandMode: 'prompt', origin: { kind: 'human' } }],
      ['user', [block, { type: 'text', text: 'and this' }]]
    ])
  })

  it('a channel message is a user line with origin {kind: "channel", server} (plugins/channels)', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-transcript-'))
    const events = conversation().slice(0, 3)
    const text = '<channel source="chat" chat_id="42">\nbuild failed\n</channel>'
    events.push({ type: 'context/message', seq: 4, ts: events[2].ts + 1, turnId: 'turn-1', text, source: 'channel:chat', channel: { server: 'chat', content: 'build failed', meta: { chat_id: '42' } } } as SessionEvent)
    const session = { sessionId: 's-1', workspace: dir, cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events }
    const transcript = new ClaudeTranscript(session)
    transcript.sync(session, 'default')
    const lines = readFileSync(transcript.path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line & { origin?: unknown })
    expect(lines.at(-1)).toMatchObject({ type: 'user', message: { role: 'user', content: text }, origin: { kind: 'channel', server: 'chat' } })
  })

  it('an assistant line carries the request\'s token counts as Anthropic reports them (cache reads and writes apart), for cost hooks', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-transcript-'))
    const events = conversation().slice(0, 3)
    events.push({ type: 'usage/step', seq: 4, ts: events[2].ts + 1, turnId: 'turn-1', step: 0, provider: 'anthropic', model: 'claude-answered', usage: { inputTokens: 1200, cachedInputTokens: 1000, cacheWriteTokens: 150, outputTokens: 42, reasoningTokens: 0 } } as SessionEvent)
    const session = { sessionId: 's-1', workspace: dir, cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events }
    const transcript = new ClaudeTranscript(session)
    transcript.sync(session, 'default')
    const lines = readFileSync(transcript.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { type: string; message?: { usage?: unknown } })
    expect(lines.find((line) => line.type === 'assistant')?.message?.usage).toEqual({ input_tokens: 50, cache_creation_input_tokens: 150, cache_read_input_tokens: 1000, output_tokens: 42 })
    // The model that answered the request (the header named claude-x).
    expect(lines.find((line) => line.type === 'assistant')?.message).toMatchObject({ model: 'claude-answered' })
  })

  it('a compaction is a compact_boundary system line that starts a new chain, then the summary as an isCompactSummary user line', () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-transcript-'))
    const events = conversation().slice(0, 3)
    const at = events[2].ts
    events.push({ type: 'compaction', seq: 4, ts: at + 1, trigger: 'auto', summary: 'We said hello.', fromSeq: 2, toSeq: 3, replacedMessages: 2, tokensBefore: 155025, tokensAfter: 40 } as SessionEvent)
    events.push({ type: 'user/message', seq: 5, ts: at + 2, turnId: 'turn-2', content: 'go on', source: 'user' } as SessionEvent)
    const session = { sessionId: 's-1', workspace: dir, cwd: dir, transcriptPath: join(dir, 's-1.jsonl'), events }
    const transcript = new ClaudeTranscript(session)
    transcript.sync(session, 'default')
    const lines = readFileSync(transcript.path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Record<string, any>)
    const [, answer, boundary, summary, next] = lines
    expect(boundary).toMatchObject({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', parentUuid: null, logicalParentUuid: answer.uuid, isMeta: false, compactMetadata: { trigger: 'auto', preTokens: 155025 } })
    expect(summary).toMatchObject({ type: 'user', parentUuid: boundary.uuid, isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: [{ type: 'text', text: 'We said hello.' }] } })
    expect(next).toMatchObject({ type: 'user', parentUuid: summary.uuid, message: { content: 'go on' } })
  })
})

