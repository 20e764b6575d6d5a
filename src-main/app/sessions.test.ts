// The session hub under concurrent calls: open, rename, delete and shutdown on the same session
// must never leave a live session holding a closed log, or a deleted session open.
import { mkdtemp, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { terminalApprovalPlugin } from '../cli/terminal-approval'
import { HostRuntime } from './runtime'

let home: string
let runtime: HostRuntime
let closed = false

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-sessions-'))
  closed = false
  runtime = await HostRuntime.start({
    mode: 'headless',
    env: { ...process.env, SEAM_HOME: home, HOME: home },
    workspace: home,
    answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('deny') as never }
  })
})

afterEach(async () => {
  if (!closed) await runtime.close()
  await rm(home, { recursive: true, force: true })
})

/** A session on disk that is not open in the hub. */
async function closedSession(): Promise<string> {
  const session = await runtime.sessions.create(home, 'first')
  await runtime.sessions.close(session.log.id, 'closed')
  expect(runtime.sessions.isOpen(session.log.id)).toBe(false)
  return session.log.id
}

describe('SessionHub', () => {
  it('two opens at once share one live session', async () => {
    const id = await closedSession()
    const [a, b] = await Promise.all([runtime.sessions.open(id), runtime.sessions.open(id)])
    expect(a).toBe(b)
  })

  it('a rename racing an open does not close the log the opened session writes to', async () => {
    const id = await closedSession()
    const [, opened] = await Promise.all([runtime.sessions.rename(id, 'renamed'), runtime.sessions.open(id)])
    expect(opened.log.closed).toBe(false)
    expect(opened.log.events.some((e) => e.type === 'session/renamed' && e.title === 'renamed')).toBe(true)
    // The live session can still record events.
    expect(() => opened.log.append({ type: 'notice', level: 'info', source: 'test', text: 'still writable' })).not.toThrow()
  })

  it('an open racing a delete fails with "no session" and leaves nothing open', async () => {
    const session = await runtime.sessions.create(home)
    const id = session.log.id
    const deleted = runtime.sessions.delete(id)
    const reopened = runtime.sessions.open(id)
    await deleted
    await expect(reopened).rejects.toThrow(/no session/)
    expect(runtime.sessions.isOpen(id)).toBe(false)
    expect(existsSync(join(home, 'sessions', `${id}.jsonl`))).toBe(false)
  })

  it('a rename racing a delete of the same session never recreates or reopens it', async () => {
    const id = await closedSession()
    const deleted = runtime.sessions.delete(id)
    const renamed = runtime.sessions.rename(id, 'too late')
    await deleted
    await expect(renamed).rejects.toThrow(/no session/)
    expect(runtime.sessions.isOpen(id)).toBe(false)
    expect(existsSync(join(home, 'sessions', `${id}.jsonl`))).toBe(false)
  })

  it('shutdown completes (and stops the plugins) even when a session failed to open', async () => {
    const failed = runtime.sessions.open('no-such-session')
    failed.catch(() => undefined)
    closed = true
    await expect(runtime.close()).resolves.toBeUndefined()
    await expect(failed).rejects.toThrow(/no session/)
    expect(runtime.plugins.list().filter((p) => p.state === 'active')).toEqual([])
  })

  it('deleting a session while its turn runs cancels the turn, removes the file, and a later send finds no session', async () => {
    const server = await startFakeOpenAI([{ text: 'a long answer that never finishes', hangAfterChars: 4 }])
    try {
      await runtime.close()
      runtime = await HostRuntime.start({
        mode: 'headless',
        env: { ...process.env, SEAM_HOME: home, HOME: home },
        workspace: home,
        provider: { provider: 'openai-compatible', baseUrl: server.url, model: 'm' },
        answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('deny') as never }
      })
      const session = await runtime.sessions.create(home)
      const id = session.log.id
      const deltas: string[] = []
      const firstDelta = new Promise<void>((resolve) =>
        runtime.kernel.context.on('agent/delta', (sessionId, delta) => {
          if (sessionId === id) deltas.push(delta.text)
          resolve()
        })
      )
      session.agent.send('hello')
      await firstDelta
      expect(session.agent.state.running).toBe(true)
      await runtime.sessions.delete(id)
      expect(session.agent.state.running).toBe(false)
      expect(session.log.closed).toBe(true)
      expect(existsSync(join(home, 'sessions', `${id}.jsonl`))).toBe(false)
      await expect(runtime.sessions.open(id)).rejects.toThrow(/no session/)
      expect(runtime.sessions.isOpen(id)).toBe(false)
    } finally {
      await server.close()
    }
  })
})
