import { mkdirSync, writeFileSync } from 'node:fs'
import { appendFile, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import { InvalidSessionEventError, SessionFileError, SessionStore, taskOutputFolderOf } from './store'

let root: string
let store: SessionStore

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-sessions-'))
  store = SessionStore.inSeamHome(root)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const turn: SessionEventInput[] = [
  { type: 'turn/start', turnId: 't1' },
  { type: 'user/message', turnId: 't1', content: 'list the files', source: 'user' },
  { type: 'assistant/message', turnId: 't1', step: 0, text: 'Looking.', toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'ls' } }] },
  { type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'ls' } },
  {
    type: 'tool/result',
    turnId: 't1',
    callId: 'c1',
    token: 'k1',
    name: 'Bash',
    content: 'a.txt\nb.txt ünïcødé ✓',
    isError: false,
    verdict: { outcome: 'allowed', stage: 'approval', approval: 'allowed-once' },
    durationMs: 12
  },
  { type: 'assistant/message', turnId: 't1', step: 1, text: 'Two files.', toolCalls: [] },
  { type: 'turn/end', turnId: 't1', reason: 'completed', steps: 2 }
]

async function writtenSession(): Promise<{ id: string; path: string }> {
  const log = store.create({ workspace: '/w', title: 'T' })
  for (const input of turn) log.append(input)
  await log.close()
  return { id: log.id, path: log.path }
}

describe('SessionStore: create, append, reopen', () => {
  it('round-trips every event through the file: seq 1..n, header first, the same events after reopening', async () => {
    const log = store.create({ workspace: '/srv/project', title: 'First', model: { provider: 'deepseek', model: 'deepseek-chat' } })
    expect(log.events[0]).toMatchObject({ type: 'session/header', seq: 1, sessionId: log.id, version: 1, workspace: '/srv/project', title: 'First' })
    for (const input of turn) log.append(input)
    expect(log.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    await log.flush()
    const inMemory = structuredClone([...log.events])
    await log.close()

    const reopened = await store.open(log.id)
    expect(reopened).not.toBe(log)
    expect(reopened.warnings).toEqual([])
    expect(reopened.events).toStrictEqual(inMemory)
    const lines = (await readFile(log.path, 'utf8')).split('\n')
    expect(lines).toHaveLength(9) // 8 events + the empty string after the final newline
    expect(lines[8]).toBe('')
    await reopened.close()
  })

  it('keeps in memory exactly what a reload yields, whatever object the caller passed', async () => {
    const log = store.create({ workspace: '/w' }) // no title, no model
    const args: Record<string, unknown> = { command: 'ls', when: new Date(0) }
    log.append({ type: 'tool/call', turnId: 't', callId: 'c', token: 'k', name: 'Bash', args, rewrittenBy: undefined })
    args.command = 'rm -rf /'
    await log.close()
    const reopened = await store.open(log.id)
    expect(log.events).toStrictEqual(reopened.events)
    expect(log.events[1]).toMatchObject({ args: { command: 'ls', when: '1970-01-01T00:00:00.000Z' } })
    await reopened.close()
  })

  it('flush resolves only once the appended lines are in the file', async () => {
    const log = store.create({ workspace: '/w' })
    log.append({ type: 'notice', level: 'info', text: 'hello', source: 'test' })
    await log.flush()
    const onDisk = (await readFile(log.path, 'utf8')).trim().split('\n')
    expect(onDisk).toHaveLength(2)
    expect(JSON.parse(onDisk[1])).toMatchObject({ type: 'notice', seq: 2, text: 'hello' })
    await log.close()
  })

  it('creates session files 0600 inside a 0700 folder', async () => {
    const log = store.create({ workspace: '/w' })
    await log.close()
    expect((await stat(log.path)).mode & 0o777).toBe(0o600)
    expect((await stat(store.dir)).mode & 0o777).toBe(0o700)
    expect(log.path).toBe(join(root, 'sessions', `${log.id}.jsonl`))
  })

  it('gives sortable ids that are safe file names', async () => {
    const a = store.create({ workspace: '/w' })
    await sleep(3)
    const b = store.create({ workspace: '/w' })
    expect(a.id).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(a.id < b.id).toBe(true)
    await Promise.all([a.close(), b.close()])
  })

  it('refuses an invalid event naming the field, and records and writes nothing', async () => {
    const log = store.create({ workspace: '/w' })
    await log.flush()
    const before = await readFile(log.path, 'utf8')
    const bad = { type: 'tool/result', turnId: 't', callId: 'c', token: 'k', name: 'Bash', content: 'x', isError: 'yes', verdict: { outcome: 'allowed', stage: 'approval' }, durationMs: 1 }
    expect(() => log.append(bad as unknown as SessionEventInput)).toThrow(InvalidSessionEventError)
    expect(() => log.append(bad as unknown as SessionEventInput)).toThrow(/isError/)
    expect(() => log.append({ type: 'no/such-type' } as unknown as SessionEventInput)).toThrow(/type: unknown session event type "no\/such-type"/)
    expect(() => log.append({ type: 'session/header' } as unknown as SessionEventInput)).toThrow(/session\/header/)
    expect(log.events).toHaveLength(1)
    await log.flush()
    expect(await readFile(log.path, 'utf8')).toBe(before)
    // The next valid event still gets seq 2.
    expect(log.append({ type: 'turn/start', turnId: 't' }).seq).toBe(2)
    await log.close()
  })

  it('tells onAppend listeners about each event once it is written, until they unsubscribe', async () => {
    const log = store.create({ workspace: '/w' })
    const seen: number[] = []
    const off = log.onAppend((event) => seen.push(event.seq))
    log.append({ type: 'turn/start', turnId: 'a' })
    await log.flush()
    off()
    log.append({ type: 'turn/start', turnId: 'b' })
    await log.flush()
    expect(seen).toEqual([2])
    await log.close()
  })

  it('open hands out the live log while it is open here, and refuses appends after close', async () => {
    const log = store.create({ workspace: '/w' })
    expect(await store.open(log.id)).toBe(log)
    await log.close()
    expect(() => log.append({ type: 'turn/start', turnId: 't' })).toThrow(/after close/)
  })

  it('fails loudly when its file vanished: flush rejects and later appends throw', async () => {
    const log = store.create({ workspace: '/w' })
    await rm(log.path)
    log.append({ type: 'turn/start', turnId: 't' })
    await expect(log.flush()).rejects.toThrow(log.path)
    expect(() => log.append({ type: 'turn/start', turnId: 'u' })).toThrow(/can no longer be written/)
    await expect(log.close()).rejects.toThrow()
  })
})

describe('SessionStore: ids', () => {
  it.each(['../etc/passwd', 'a/b', '', '.', 'x.jsonl', 'a b', '..\\x'])('rejects the id %j on every entry point', async (id) => {
    expect(() => store.pathOf(id)).toThrow(/invalid session id/)
    await expect(store.open(id)).rejects.toThrow(/invalid session id/)
    await expect(store.delete(id)).rejects.toThrow(/invalid session id/)
    await expect(store.rename(id, 'x')).rejects.toThrow(/invalid session id/)
  })

  it('reports a missing session by id', async () => {
    await expect(store.open('nope')).rejects.toThrow(/no session nope/)
  })
})

describe('SessionStore: list, rename, delete', () => {
  it('lists titles from rename, header or first prompt, most recent activity first', async () => {
    const titled = store.create({ workspace: '/a', title: 'Header title' })
    await titled.close()
    await sleep(5)
    const prompted = store.create({ workspace: '/b' })
    const prompt = `  Please   refactor\nthe session store so that ${'x'.repeat(100)}`
    prompted.append({ type: 'user/message', turnId: 't', content: 'rewritten by policy', originalContent: prompt, source: 'user' })
    await prompted.close()
    await sleep(5)
    const renamed = store.create({ workspace: '/c', title: 'Old' })
    await renamed.close()
    await sleep(5)
    await store.rename(renamed.id, 'New name')
    const empty = store.create({ workspace: '/d' })
    await empty.close()

    const listed = await store.list()
    expect(listed.map((s) => s.id)).toEqual([empty.id, renamed.id, prompted.id, titled.id])
    const byId = new Map(listed.map((s) => [s.id, s]))
    expect(byId.get(titled.id)).toMatchObject({ title: 'Header title', workspace: '/a', eventCount: 1 })
    expect(byId.get(prompted.id)?.title).toBe(`Please refactor the session store so that ${'x'.repeat(18)}`)
    expect(byId.get(prompted.id)?.title).toHaveLength(60)
    expect(byId.get(renamed.id)).toMatchObject({ title: 'New name', eventCount: 2 })
    expect(byId.get(empty.id)?.title).toBe('')
    for (const s of listed) expect(s.lastActivity).toBeGreaterThanOrEqual(s.createdAt)
    expect(byId.get(renamed.id)!.lastActivity).toBeGreaterThan(byId.get(renamed.id)!.createdAt)
  })

  it('keeps list() current as sessions grow, from open logs and from files changed elsewhere', async () => {
    const log = store.create({ workspace: '/w' })
    log.append({ type: 'user/message', turnId: 't', content: 'first prompt', source: 'user' })
    // Open here: counted from memory, even before the events reach the disk.
    expect((await store.list())[0]).toMatchObject({ id: log.id, title: 'first prompt', eventCount: 2 })
    await log.close()
    expect((await store.list())[0]).toMatchObject({ title: 'first prompt', eventCount: 2 })

    // Another process appends: a fresh store (reading the cache file) sees the new tail.
    const other = new SessionStore(store.dir)
    const again = await other.open(log.id)
    again.append({ type: 'session/renamed', title: 'Renamed elsewhere' })
    again.append({ type: 'turn/start', turnId: 'u' })
    await again.close()
    const [summary] = await store.list()
    expect(summary).toMatchObject({ title: 'Renamed elsewhere', eventCount: 4, lastActivity: again.events[3].ts })
  })

  it('finds a rename buried in the middle of a long log', async () => {
    const log = store.create({ workspace: '/w' })
    const big = 'y'.repeat(50_000)
    for (let i = 0; i < 30; i++) log.append({ type: 'notice', level: 'info', text: big, source: 's' })
    log.append({ type: 'session/renamed', title: 'Middle' })
    for (let i = 0; i < 30; i++) log.append({ type: 'notice', level: 'info', text: big, source: 's' })
    await log.close()
    const fresh = new SessionStore(store.dir)
    expect((await fresh.list())[0]).toMatchObject({ title: 'Middle', eventCount: 62 })
  })

  it('does not reread a file whose size and mtime are unchanged since the last list()', async () => {
    const { id, path } = await writtenSession()
    const fixedTime = 1_700_000_000 // whole seconds: exact on every file system
    await utimes(path, fixedTime, fixedTime)
    expect((await store.list())[0]).toMatchObject({ id, title: 'T' })
    // Same size, same mtime, different bytes: only a reread could notice.
    await writeFile(path, (await readFile(path, 'utf8')).replace('"title":"T"', '"title":"U"'))
    await utimes(path, fixedTime, fixedTime)
    expect((await new SessionStore(store.dir).list())[0]).toMatchObject({ id, title: 'T' })
  })

  it('lists a session whose header is unreadable with an error instead of hiding it', async () => {
    const { path, id } = await writtenSession()
    await writeFile(path, '{"type":"session/header","seq":1}\n', { mode: 0o600 })
    const [summary] = await store.list()
    expect(summary.id).toBe(id)
    expect(summary.error).toMatch(/line 1.*sessionId/)
  })

  it('rename appends session/renamed and rejects an empty title', async () => {
    const { id } = await writtenSession()
    const event = await store.rename(id, '  Better  ')
    expect(event).toMatchObject({ type: 'session/renamed', seq: 9, title: 'Better' })
    const log = await store.open(id)
    expect(log.events.at(-1)).toMatchObject({ type: 'session/renamed', title: 'Better' })
    await log.close()
    await expect(store.rename(id, '   ')).rejects.toThrow(/session title/)
  })

  it('delete removes the file and the listing, and closes the log if open', async () => {
    const { id, path } = await writtenSession()
    const kept = store.create({ workspace: '/w' })
    await store.delete(id)
    await expect(stat(path)).rejects.toThrow()
    expect((await store.list()).map((s) => s.id)).toEqual([kept.id])
    await store.delete(kept.id)
    expect(kept.closed).toBe(true)
    expect(await store.list()).toEqual([])
    await expect(store.delete(id)).rejects.toThrow(/no session/)
  })

  it('delete of a closed session removes its background tasks\' output files (issue 28)', async () => {
    const { id, path } = await writtenSession()
    const tasks = taskOutputFolderOf(path)
    mkdirSync(tasks, { recursive: true })
    writeFileSync(join(tasks, 'b12345678.output'), 'output of a task that ended\n')
    await store.delete(id)
    await expect(stat(tasks)).rejects.toThrow()
  })

  it('lists nothing when the sessions folder does not exist yet', async () => {
    expect(await new SessionStore(join(root, 'missing')).list()).toEqual([])
  })
})

describe('SessionStore: loading damaged files', () => {
  it('ignores a torn last line, reports it, and repairs the file on the next append', async () => {
    const { id, path } = await writtenSession()
    await appendFile(path, '{"type":"user/message","seq":9,"ts":17000000000')
    const log = await store.open(id)
    expect(log.events).toHaveLength(8)
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toContain(`${path}:9: ignored a torn last line`)
    log.append({ type: 'user/message', turnId: 't2', content: 'after the crash', source: 'user' })
    await log.close()

    const clean = await store.open(id)
    expect(clean.warnings).toEqual([])
    expect(clean.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(clean.events[8]).toMatchObject({ type: 'user/message', content: 'after the crash' })
    await clean.close()
  })

  it('treats an unparseable last line that has its newline as torn too', async () => {
    const { id, path } = await writtenSession()
    expect((await store.list())[0].eventCount).toBe(8)
    await appendFile(path, '{"type":"turn/st\n')
    expect((await store.list())[0].eventCount).toBe(8)
    const log = await store.open(id)
    expect(log.warnings[0]).toMatch(/:9: ignored a torn last line/)
    log.append({ type: 'turn/start', turnId: 'x' })
    await log.close()
    expect((await new SessionStore(store.dir).list())[0].eventCount).toBe(9)
    expect((await store.list())[0].eventCount).toBe(9)
    const clean = await store.open(id)
    expect(clean.warnings).toEqual([])
    expect(clean.events).toHaveLength(9)
    await clean.close()
  })

  it('keeps a complete last event that lost only its newline, and starts the next append on a fresh line', async () => {
    const { id, path } = await writtenSession()
    await appendFile(path, JSON.stringify({ type: 'turn/start', seq: 9, ts: 1, turnId: 'z' }))
    const log = await store.open(id)
    expect(log.events).toHaveLength(9)
    expect(log.warnings[0]).toMatch(/:9: the last line has no trailing newline/)
    log.append({ type: 'turn/end', turnId: 'z', reason: 'cancelled' })
    await log.close()
    const clean = await store.open(id)
    expect(clean.warnings).toEqual([])
    expect(clean.events.map((e) => e.type).slice(-2)).toEqual(['turn/start', 'turn/end'])
    await clean.close()
  })

  async function damage(edit: (lines: string[]) => void): Promise<{ id: string; path: string }> {
    const written = await writtenSession()
    const lines = (await readFile(written.path, 'utf8')).split('\n')
    edit(lines)
    await writeFile(written.path, lines.join('\n'))
    return written
  }

  it('fails on invalid JSON in a middle line, naming the file and the line', async () => {
    const { id, path } = await damage((lines) => {
      lines[2] = lines[2].slice(0, 20)
    })
    const error = await store.open(id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SessionFileError)
    expect(error).toMatchObject({ file: path, line: 3, field: '(line)' })
    expect((error as Error).message).toContain(`${path}:3: (line): invalid JSON`)
  })

  it('fails on an unknown event type anywhere, naming the line and the type', async () => {
    const { id, path } = await damage((lines) => {
      lines[7] = JSON.stringify({ ...JSON.parse(lines[7]), type: 'turn/exploded' })
    })
    await expect(store.open(id)).rejects.toThrow(`${path}:8: type: unknown session event type "turn/exploded"`)
  })

  it('fails on a schema-invalid event, naming the line and the field', async () => {
    const { id, path } = await damage((lines) => {
      lines[5] = JSON.stringify({ ...JSON.parse(lines[5]), verdict: { outcome: 'maybe', stage: 'approval' } })
    })
    const error = await store.open(id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SessionFileError)
    expect(error).toMatchObject({ file: path, line: 6, field: 'verdict.outcome' })
  })

  it('fails on a gap in seq, naming the line', async () => {
    const { id, path } = await damage((lines) => {
      lines.splice(3, 1)
    })
    await expect(store.open(id)).rejects.toThrow(`${path}:4: seq: expected 4, found 5`)
  })

  it('fails when the first event is not this session\'s header', async () => {
    const { id, path } = await damage((lines) => {
      lines[0] = JSON.stringify({ ...JSON.parse(lines[0]), sessionId: 'someone-else' })
    })
    await expect(store.open(id)).rejects.toThrow(`${path}:1: sessionId`)
  })
})
