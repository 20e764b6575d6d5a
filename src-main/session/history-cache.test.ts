import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import { buildModelRequest, buildModelRequestFor } from '../agent/step'
import { deriveModelHistory } from './history'
import { historyOf } from './history-cache'
import { SessionStore } from './store'

let root: string
let store: SessionStore
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-history-cache-'))
  store = SessionStore.inSeamHome(root)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const tools = [{ name: 'Bash', description: 'Runs a command.', inputSchema: { type: 'object' } }]
const session: SessionEventInput[] = [
  { type: 'model/context', system: 'You are terse.', tools },
  { type: 'turn/start', turnId: 't1' },
  { type: 'user/message', turnId: 't1', content: 'status?', source: 'user' },
  { type: 'assistant/message', turnId: 't1', step: 0, text: 'Checking.', toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'git status' } }, { id: 'c2', name: 'Bash', args: { command: 'git log' } }] },
  { type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'git status' } },
  { type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', content: 'clean', isError: false, verdict: { outcome: 'allowed', stage: 'approval' }, durationMs: 1 },
  { type: 'context/message', turnId: 't1', text: 'status seen', source: 'hook:PostToolUse' },
  { type: 'tool/result', turnId: 't1', callId: 'c2', token: 'k2', name: 'Bash', content: 'one commit', isError: false, verdict: { outcome: 'allowed', stage: 'approval' }, durationMs: 1 },
  { type: 'model/context', system: 'You are verbose.', tools: [] },
  { type: 'assistant/message', turnId: 't1', step: 1, text: 'Clean, one commit.', toolCalls: [] },
  { type: 'steering/message', turnId: 't1', text: 'now push', source: 'user' },
  { type: 'assistant/message', turnId: 't1', step: 2, text: 'Pushing', toolCalls: [{ id: 'c3', name: 'Bash', args: { command: 'git push' } }], partial: true },
  { type: 'turn/end', turnId: 't1', reason: 'cancelled' }
]

describe('historyOf / buildModelRequestFor', () => {
  it('follows a live log as it grows: after each append, the same request as a derivation from scratch', async () => {
    const log = store.create({ workspace: root })
    for (const input of session) {
      log.append(input)
      const fresh = buildModelRequest(log.events)
      expect(buildModelRequestFor(log)).toStrictEqual(fresh)
      expect(historyOf(log).history()).toStrictEqual(deriveModelHistory(log.events))
      expect(historyOf(log)).toBe(historyOf(log))
    }
    expect(buildModelRequestFor(log).system).toBe('You are verbose.')
    await log.close()

    // The reloaded log is another object with its own history, equal to the live one's.
    const reloaded = await store.open(log.id)
    expect(reloaded).not.toBe(log)
    expect(historyOf(reloaded)).not.toBe(historyOf(log))
    expect(buildModelRequestFor(reloaded)).toStrictEqual(buildModelRequestFor(log))
    await reloaded.close()
  })

  it('hands out requests the caller owns (their messages and tool specs frozen): changing one reaches neither the next request nor the log', async () => {
    const log = store.create({ workspace: root })
    for (const input of session.slice(0, 8)) log.append(input)
    const before = JSON.stringify(log.events)
    const first = buildModelRequestFor(log)
    first.system = 'changed'
    // The tool specs are shared by every request under the same model/context, frozen like the messages.
    expect(() => (first.tools[0].name = 'changed')).toThrow(TypeError)
    expect(() => first.tools.push({ name: 'X', description: '', inputSchema: {} })).toThrow(TypeError)
    first.tools = []
    for (const message of first.messages) {
      // The messages are shared, frozen: only the array is the caller's.
      if (message.role === 'assistant') expect(() => message.toolCalls.pop()).toThrow(TypeError)
      else expect(() => (message.content = 'changed')).toThrow(TypeError)
    }
    first.messages.length = 1
    expect(buildModelRequestFor(log)).toStrictEqual(buildModelRequest(log.events))
    expect(JSON.stringify(log.events)).toBe(before)
    await log.close()
  })
})

describe('a request read later (messages copied when first read)', () => {
  it('holds the messages as they were when it was built, whatever was appended before it is read', async () => {
    const log = store.create({ workspace: root })
    const built: Array<{ request: ReturnType<typeof buildModelRequestFor>; expected: unknown }> = []
    for (const event of session) {
      log.append(event)
      // Built after every append, read only once the whole session is in: each must still hold its own moment.
      built.push({ request: buildModelRequestFor(log), expected: deriveModelHistory(log.events).messages })
    }
    // Appended after all of them: merges into the last user message the newest request ends with.
    log.append({ type: 'context/message', turnId: 't1', text: 'merged later', source: 'test' })
    for (const { request, expected } of built) expect(request.messages).toEqual(expected)
    const first = built[built.length - 1].request
    first.messages.push({ role: 'user', content: 'the caller may change its own copy' })
    expect(buildModelRequestFor(log).messages).toEqual(deriveModelHistory(log.events).messages)
    await log.close()
  })
})
