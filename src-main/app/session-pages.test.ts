// sessions/open and sessions/events through the real router (issue 17: opening a 10k-event session
// with no main-thread task over 200 ms): the log comes in pages bounded by count and size, each
// page carries on where the last ended, and bad input is refused naming the field.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SESSION_PAGE, type MethodOutput } from '../../src-shared/contract/ipc'
import type { SessionEvent } from '../../src-shared/session/events'
import { createHost, type Host } from './host'
import { sessionPage } from './session-pages'

let dir: string
let host: Host
const caller = { transport: 'web' as const }

async function call<T>(method: string, input: unknown): Promise<T> {
  const reply = await host.router.invoke(method as never, input as never, caller)
  if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`)
  return reply.output as T
}

/** A session whose log holds `turns` prompts after its header, all written and delivered. */
async function sessionWith(turns: number, text = (n: number) => `prompt ${n}`): Promise<string> {
  const { id } = await call<{ id: string }>('sessions/create', {})
  const { log } = await host.runtime.sessions.open(id)
  for (let n = 1; n <= turns; n++) log.append({ type: 'user/message', turnId: `t${n}`, content: text(n), source: 'user' })
  await log.flush()
  return id
}

/** Every event of a session, read the way the window reads it: the open reply, then pages until nextSeq is null. */
async function readAll(id: string, limit?: number): Promise<{ pages: SessionEvent[][]; opened: MethodOutput<'sessions/open'> }> {
  const opened = await call<MethodOutput<'sessions/open'>>('sessions/open', limit ? { id, limit } : { id })
  const pages = [opened.events]
  let next = opened.nextSeq
  while (next !== null) {
    const page = await call<MethodOutput<'sessions/events'>>('sessions/events', limit ? { id, fromSeq: next, limit } : { id, fromSeq: next })
    pages.push(page.events)
    next = page.nextSeq
  }
  return { pages, opened }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-session-pages-'))
  await mkdir(join(dir, 'ws'))
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(dir, 'home'), HOME: dir } })
  await call('workspace/set', { path: join(dir, 'ws') })
})

afterEach(async () => {
  await host.close()
  await rm(dir, { recursive: true, force: true })
})

describe('sessions/open and sessions/events page the log', () => {
  it('opens a long session with its first page and total; the pages after carry on by seq with no gap or repeat', async () => {
    const id = await sessionWith(SESSION_PAGE.maxEvents * 2 + 10)
    const { pages, opened } = await readAll(id)
    expect(opened.total).toBe(SESSION_PAGE.maxEvents * 2 + 11)
    expect(pages.map((p) => p.length)).toEqual([SESSION_PAGE.maxEvents, SESSION_PAGE.maxEvents, 11])
    expect(opened.nextSeq).toBe(SESSION_PAGE.maxEvents + 1)
    expect(pages.flat().map((e) => e.seq)).toEqual(Array.from({ length: opened.total }, (_, i) => i + 1))
  })

  it('a short session opens whole: nextSeq is null', async () => {
    const id = await sessionWith(3)
    const opened = await call<MethodOutput<'sessions/open'>>('sessions/open', { id })
    expect(opened).toMatchObject({ id, total: 4, nextSeq: null })
    expect(opened.events.map((e) => e.seq)).toEqual([1, 2, 3, 4])
  })

  it('honours a smaller limit on both methods', async () => {
    const id = await sessionWith(9)
    const { pages } = await readAll(id, 4)
    expect(pages.map((p) => p.map((e) => e.seq))).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]])
  })

  it('bounds a page by its JSON size, always taking at least one event', async () => {
    const big = 'x'.repeat(300_000)
    const id = await sessionWith(7, () => big)
    const { pages } = await readAll(id)
    expect(pages.length).toBeGreaterThan(2)
    for (const page of pages) {
      expect(page.length).toBeGreaterThan(0)
      const bytes = page.reduce((n, e) => n + JSON.stringify(e).length, 0)
      if (page.length > 1) expect(bytes).toBeLessThanOrEqual(SESSION_PAGE.maxBytes)
    }
    expect(pages.flat().map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    const { log } = await host.runtime.sessions.open(id)
    expect(sessionPage(log, 2, 10, 1).events.map((e) => e.seq)).toEqual([2])
  })

  it('answers past the end with no events and nextSeq null, and sees events appended since the open', async () => {
    const id = await sessionWith(2)
    expect(await call('sessions/events', { id, fromSeq: 50 })).toEqual({ events: [], nextSeq: null })
    const { log } = await host.runtime.sessions.open(id)
    log.append({ type: 'user/message', turnId: 'later', content: 'later', source: 'user' })
    await log.flush()
    const page = await call<MethodOutput<'sessions/events'>>('sessions/events', { id, fromSeq: 3 })
    expect(page.events.map((e) => e.seq)).toEqual([3, 4])
    expect(page.nextSeq).toBeNull()
  })

  it('refuses bad input naming the field: fromSeq, limit over the bound, an unknown field, a bad id', async () => {
    const id = await sessionWith(1)
    const refused = async (method: string, input: unknown) => host.router.invoke(method as never, input as never, caller)
    expect(await refused('sessions/events', { id, fromSeq: 0 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'fromSeq' } })
    expect(await refused('sessions/events', { id, fromSeq: 1.5 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'fromSeq' } })
    expect(await refused('sessions/events', { id })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'fromSeq' } })
    expect(await refused('sessions/events', { id, fromSeq: 1, limit: SESSION_PAGE.maxEvents + 1 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'limit' } })
    expect(await refused('sessions/open', { id, limit: 0 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'limit' } })
    expect(await refused('sessions/events', { id, fromSeq: 1, extra: true })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(await refused('sessions/events', { id: '../x', fromSeq: 1 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'id' } })
  })
})
