// Session search by title and content (issue 17, "Working fast": sessions): streamed over the
// session files, kept per session and checked against size and mtime, answered through the
// contract's router with zod-checked input.
import { appendFile, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import { createHost, type Host } from '../app/host'
import { scanSearchText } from './search-scan'
import { searchSessions, SessionSearchIndex, snippetOf } from './search'
import { SessionStore } from './store'

let dir: string
let store: SessionStore

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-search-'))
  store = new SessionStore(join(dir, 'sessions'))
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const turn = (prompt: string, reply: string, tool?: { name: string; result: string }): SessionEventInput[] => {
  const turnId = `t-${Math.random().toString(36).slice(2)}`
  const events: SessionEventInput[] = [
    { type: 'turn/start', turnId },
    { type: 'user/message', turnId, content: prompt, source: 'user' }
  ]
  if (tool) {
    events.push({ type: 'assistant/message', turnId, step: 0, text: '', toolCalls: [{ id: 'c1', name: tool.name, args: {} }] })
    events.push({ type: 'tool/call', turnId, callId: 'c1', token: 'k1', name: tool.name, args: {} })
    events.push({
      type: 'tool/result', turnId, callId: 'c1', token: 'k1', name: tool.name, content: tool.result, isError: false,
      verdict: { outcome: 'allowed', stage: 'approval' }, durationMs: 1
    })
  }
  events.push({ type: 'assistant/message', turnId, step: tool ? 1 : 0, text: reply, toolCalls: [] })
  events.push({ type: 'turn/end', turnId, reason: 'completed' })
  return events
}

async function session(workspace: string, ...events: SessionEventInput[]): Promise<string> {
  const log = store.create({ workspace })
  for (const event of events) log.append(event)
  await log.flush()
  await log.close()
  return log.id
}

describe('sessions search (issue 17: search by title and content)', () => {
  it('finds a session by a word only in an assistant reply, naming that event and a snippet with the word highlighted', async () => {
    const target = await session('/w', ...turn('how do we ship', 'Deploy with the Zanzibar pipeline after review.'), ...turn('and then?', 'Nothing more.'))
    await session('/w', ...turn('unrelated question', 'Unrelated answer.'))
    const results = await store.search({ query: 'zanzibar' })
    expect(results.map((r) => r.id)).toEqual([target])
    const [found] = results
    expect(found.titleMatch).toBe(false)
    expect(found.title).toBe('how do we ship')
    const opened = await store.open(target)
    const event = opened.events.find((e) => e.seq === found.match?.seq)
    expect(event?.type).toBe('assistant/message')
    await opened.close()
    expect(found.match?.kind).toBe('assistant')
    expect(found.match?.snippet).toBe('Deploy with the Zanzibar pipeline after review.')
    const { start, end } = found.match!.highlights[0]
    expect(found.match!.snippet.slice(start, end)).toBe('Zanzibar')
  })

  it('matches every word case-insensitively across title and content; the event holding most words is the jump target', async () => {
    const id = await session('/w', ...turn('Release plan', 'alpha only here'), ...turn('later', 'Alpha and BETA together'))
    const both = await store.search({ query: 'ALPHA beta' })
    expect(both).toHaveLength(1)
    expect(both[0].match?.snippet).toBe('Alpha and BETA together')
    expect(both[0].match?.highlights).toHaveLength(2)
    // "release" is in the title, "alpha" in the content: the session matches, the title alone does not.
    const mixed = await store.search({ query: 'release alpha' })
    expect(mixed.map((r) => [r.id, r.titleMatch])).toEqual([[id, false]])
    expect(await store.search({ query: 'alpha gamma' })).toEqual([])
    // A title that is in no event (a rename): found by the title alone, with nothing to jump to.
    await store.rename(id, 'Roadmap for Q3')
    const byTitle = await store.search({ query: 'roadmap' })
    expect(byTitle.map((r) => [r.id, r.titleMatch, r.match])).toEqual([[id, true, undefined]])
  })

  it('searches prompts and tool names but not tool output; the workspace filter and the limit hold', async () => {
    const a = await session('/one', ...turn('look around', 'done', { name: 'Grep', result: 'secret-output-word' }))
    const b = await session('/two', ...turn('grep for todo', 'done'))
    expect((await store.search({ query: 'grep' })).map((r) => r.id).sort()).toEqual([a, b].sort())
    const tool = (await store.search({ query: 'grep', workspace: '/one' }))[0]
    expect(tool.id).toBe(a)
    expect(tool.match?.kind).toBe('tool')
    expect(await store.search({ query: 'secret-output-word' })).toEqual([])
    expect(await store.search({ query: 'done', limit: 1 })).toHaveLength(1)
    await expect(store.search({ query: '   ' })).rejects.toThrow(/query/)
  })

  it('reads an unchanged file once, only the appended bytes of a grown one, and forgets a deleted session', async () => {
    const index = new SessionSearchIndex()
    const id = await session('/w', ...turn('first', 'original words'))
    const path = store.pathOf(id)
    const search = async (query: string) => searchSessions(index, await store.list(), (i) => store.pathOf(i), { query })
    expect(await search('original')).toHaveLength(1)
    // Same size and mtime, other bytes: the cached text answers (the file is not read again).
    const info = await stat(path)
    const text = await readFile(path, 'utf8')
    await writeFile(path, text.replace('original', 'replaced'))
    await utimes(path, info.atime, info.mtime)
    expect(await search('original')).toHaveLength(1)
    expect(await search('replaced')).toHaveLength(0)
    await writeFile(path, text)
    await utimes(path, info.atime, info.mtime)
    // Grown: only the new lines are scanned, and their words are found.
    const log = await store.open(id)
    for (const event of turn('second', 'appended words')) log.append(event)
    await log.flush()
    await log.close()
    expect((await search('appended'))[0].match?.seq).toBeGreaterThan(5)
    expect(await search('original')).toHaveLength(1)
    const held = index.size
    expect(held).toBeGreaterThan(0)
    await store.delete(id)
    expect(await search('original')).toEqual([])
    expect(index.size).toBe(0)
  })

  it('past its memory budget the index keeps nothing and still finds sessions by streaming them', async () => {
    const index = new SessionSearchIndex(0)
    await session('/w', ...turn('q', 'budget words'))
    const found = await searchSessions(index, await store.list(), (i) => store.pathOf(i), { query: 'budget' })
    expect(found).toHaveLength(1)
    expect(index.size).toBe(0)
  })
})

describe('the search scanner', () => {
  it('skips tool output lines larger than a read chunk, reads an assistant reply larger than one, and leaves a torn last line', async () => {
    const huge = 'x'.repeat(3 << 20)
    const id = await session(
      '/w',
      ...turn('big', `start ${'y'.repeat(2 << 20)} needle-at-the-end`, { name: 'Read', result: `${huge} needle-in-output` })
    )
    const path = store.pathOf(id)
    const size = (await stat(path)).size
    await appendFile(path, '{"type":"assistant/message","seq":99,"text":"torn needle')
    const scan = await scanSearchText(path, 0)
    expect(scan.scannedTo).toBe(size)
    expect(scan.docs.map((d) => d.kind)).toEqual(['user', 'tool', 'assistant'])
    expect(scan.docs[2].text.endsWith('needle-at-the-end')).toBe(true)
    expect(scan.docs.some((d) => d.text.includes('needle-in-output') || d.text.includes('torn needle'))).toBe(false)
  })

  it('a snippet is cut around the first word, never inside a surrogate pair, with every word highlighted', () => {
    const text = `${'😀'.repeat(40)} the word Needle and needle again ${'z'.repeat(300)}`
    const { snippet, highlights } = snippetOf(text, ['needle'])
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
    expect(snippet).not.toMatch(/^…[\udc00-\udfff]/)
    expect(highlights.map((h) => snippet.slice(h.start, h.end))).toEqual(['Needle', 'needle'])
  })
})

describe('sessions/search through the router', () => {
  let home: string
  let host: Host | undefined
  const caller = { transport: 'web' as const }

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'seam-search-host-'))
  })

  afterEach(async () => {
    await host?.close()
    host = undefined
    await rm(home, { recursive: true, force: true })
  })

  it('answers with matches, and refuses a malformed query naming the field', async () => {
    const sessions = SessionStore.inSeamHome(home)
    const log = sessions.create({ workspace: home })
    for (const event of turn('hello', 'the quokka smiles')) log.append(event)
    await log.flush()
    await log.close()
    host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
    const reply = await host.router.invoke('sessions/search', { query: 'quokka' }, caller)
    expect(reply.ok).toBe(true)
    if (reply.ok) expect((reply.output as Array<{ id: string; match?: { kind: string } }>).map((r) => [r.id, r.match?.kind])).toEqual([[log.id, 'assistant']])
    const empty = await host.router.invoke('sessions/search', { query: '  ' }, caller)
    expect(empty).toEqual({ ok: false, error: { code: 'INVALID_INPUT', field: 'query', message: expect.stringContaining('query') } })
    const long = await host.router.invoke('sessions/search', { query: 'x'.repeat(201) }, caller)
    expect(long.ok).toBe(false)
    if (!long.ok) expect(long.error.field).toBe('query')
  })
})
