// The transcript's rows for file checkpoints (issue 17, "Reviewing changes"): a changes card when
// a turn that changed files ends, revert and rewind rows, and the rewound span greyed out.
import { expect, it } from 'vitest'
import { eventLog, verdictAllowed } from '../test/events'
import { appendEvents, buildTranscript, isRewound } from './build-transcript'

function writeTurn(log: ReturnType<typeof eventLog>, turnId: string, prompt: string, path: string) {
  log.add({ type: 'turn/start', turnId })
  log.add({ type: 'user/message', turnId, content: prompt, source: 'user' })
  log.add({ type: 'assistant/message', turnId, step: 0, text: '', toolCalls: [{ id: `c-${turnId}`, name: 'Write', args: { file_path: path, content: 'x' } }] })
  log.add({ type: 'tool/call', turnId, callId: `c-${turnId}`, token: `k-${turnId}`, name: 'Write', args: { file_path: path, content: 'x' } })
  log.add({ type: 'file/checkpoint', turnId, callId: `c-${turnId}`, token: `k-${turnId}`, tool: 'Write', path, before: { kind: 'absent' } })
  log.add({ type: 'file/changed', turnId, callId: `c-${turnId}`, token: `k-${turnId}`, tool: 'Write', path, after: { kind: 'file', sha256: 'a'.repeat(64), size: 1 } })
  log.add({ type: 'tool/result', turnId, callId: `c-${turnId}`, token: `k-${turnId}`, name: 'Write', content: 'ok', isError: false, verdict: verdictAllowed, durationMs: 1 })
  log.add({ type: 'turn/end', turnId, reason: 'completed' })
}

it('a turn that changed files ends with a changes card listing them; a revert or rewind bumps every card to refetch', () => {
  const log = eventLog()
  log.add({ type: 'session/header', sessionId: 's1', version: 1, workspace: '/w', createdAt: 1 })
  writeTurn(log, 't1', 'one', '/w/a.txt')
  const built = buildTranscript(log.all)
  const card = built.items.at(-1)
  expect(card).toMatchObject({ kind: 'changes', turnId: 't1', paths: ['/w/a.txt'], revision: 0 })
  log.add({ type: 'revert', scope: 'file', turnId: 't1', files: [{ path: '/w/a.txt', to: { kind: 'absent' }, replaced: { kind: 'absent' }, conflict: false }] })
  const after = appendEvents(built, log.all)
  expect(after.items.at(-1)).toMatchObject({ kind: 'revert', scope: 'file', paths: ['/w/a.txt'] })
  expect(after.items.find((i) => i.kind === 'changes')).toMatchObject({ revision: log.all.at(-1)!.seq })
  // The earlier transcript is untouched (rows are memoised by identity).
  expect(built.items.at(-1)).toMatchObject({ revision: 0 })
})

it('a rewind greys out the rows from the message it went back to up to itself, and adds its marker', () => {
  const log = eventLog()
  log.add({ type: 'session/header', sessionId: 's1', version: 1, workspace: '/w', createdAt: 1 })
  writeTurn(log, 't1', 'one', '/w/a.txt')
  writeTurn(log, 't2', 'two', '/w/b.txt')
  const second = log.all.find((e) => e.type === 'user/message' && e.content === 'two')!
  log.add({ type: 'rewind', toSeq: second.seq, turnId: 't2', prompt: 'two', files: [] })
  const transcript = buildTranscript(log.all)
  const users = transcript.items.filter((i) => i.kind === 'user')
  expect(users.map((u) => isRewound(transcript, u.seq))).toEqual([false, true])
  const cards = transcript.items.filter((i) => i.kind === 'changes')
  expect(cards.map((c) => isRewound(transcript, c.seq))).toEqual([false, true])
  expect(transcript.items.at(-1)).toMatchObject({ kind: 'rewind', prompt: 'two' })
  expect(isRewound(transcript, transcript.items.at(-1)!.seq)).toBe(false)
})
