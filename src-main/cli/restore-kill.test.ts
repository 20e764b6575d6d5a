// Fault suite, kill -9 in the middle of a restore (issue 25): a real `seam revert` / `seam rewind`
// of a 40-file turn, killed with SIGKILL by the test-only fault hook (SEAM_TEST_RESTORE_KILL_AT=N:
// after N files, with the next file's temp written, before its rename), then run again, or a
// `seam run` of another session in the same workspace. The restore is finished, the notice is
// shown, no temp file (nor restore marker) is left, and `seam rewind ID 1` works.
import { execFile } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'
import type { SessionEvent } from '../../src-shared/session/events'
import { RESTORE_KILL_AT_ENV } from '../checkpoints/journal'
import { WRITE_KILL_ENV } from '../tools/builtin/interrupted-writes'
import { SessionStore } from '../session/store'

const run = promisify(execFile)
const FILES = 40
let home: string
let workspace: string
useCliScratch('restore-kill', (dirs) => ({ home, workspace } = dirs))

interface Result {
  code: number | null
  signal: string | null
  stdout: string
  stderr: string
}

async function seam(args: string[], env: Record<string, string> = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SEAM_BIN, ...args], { cwd: workspace, env: { ...process.env, SEAM_HOME: home, HOME: home, ...env }, timeout: 120_000 })
    return { code: 0, signal: null, stdout, stderr }
  } catch (error) {
    const e = error as { code: number | null; signal: string | null; stdout: string; stderr: string }
    return { code: typeof e.code === 'number' ? e.code : null, signal: e.signal, stdout: e.stdout, stderr: e.stderr }
  }
}

const fileOf = (dir: string, i: number) => join(dir, `f${String(i).padStart(2, '0')}.txt`)

/** A session whose first prompt rewrites 40 files (v1 -> v2) and whose second adds a note. */
async function fortyFileSession(name: string): Promise<{ id: string; dir: string }> {
  const dir = join(workspace, name)
  await mkdir(dir, { recursive: true })
  for (let i = 0; i < FILES; i++) await writeFile(fileOf(dir, i), `v1 ${i}\n`)
  const writes = Array.from({ length: FILES }, (_, i) => ({ name: 'Write', args: { file_path: fileOf(dir, i), content: `v2 ${i}\n` } }))
  const server = await startFakeOpenAI([{ toolCalls: writes }, { text: 'rewrote them' }, { toolCalls: [{ name: 'Write', args: { file_path: join(dir, 'note.txt'), content: 'note\n' } }] }, { text: 'noted' }])
  try {
    const result = await seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', 'rewrite all', 'add a note'])
    expect(result.code, result.stderr).toBe(0)
    return { id: /session (\S+)/.exec(result.stderr)![1], dir }
  } finally {
    await server.close()
  }
}

async function contents(dir: string): Promise<string[]> {
  return Promise.all(Array.from({ length: FILES }, (_, i) => readFile(fileOf(dir, i), 'utf8')))
}

const temps = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.tmp'))

async function eventsOf(id: string): Promise<SessionEvent[]> {
  const log = await new SessionStore(join(home, 'sessions')).open(id)
  try {
    return [...log.events]
  } finally {
    await log.close()
  }
}

it('a seam revert killed after 27 of 40 files is finished by the next seam revert, with a notice and no temp file; seam rewind ID 1 then works', async () => {
  const { id, dir } = await fortyFileSession('revert')
  const killed = await seam(['revert', id, '--turn', '1'], { [RESTORE_KILL_AT_ENV]: '27' })
  expect(killed.signal, killed.stderr).toBe('SIGKILL')
  const cut = await contents(dir)
  expect(cut.filter((text) => text.startsWith('v1')).length).toBe(27)
  expect(temps(dir), 'the kill left the 28th file\'s temp file').toEqual([expect.stringMatching(/^\.f27\.txt\.seam-restore-[0-9a-f]{16}\.tmp$/)])

  const again = await seam(['revert', id, '--turn', '1'])
  expect(again.code, again.stderr).toBe(0)
  expect(again.stderr).toContain("Seam was stopped in the middle of a revert of a turn's files")
  expect(again.stderr).toContain('27 of 40 files had been put back, 13 were put back now')
  expect(await contents(dir)).toEqual(Array.from({ length: FILES }, (_, i) => `v1 ${i}\n`))
  expect(temps(dir)).toEqual([])
  const events = await eventsOf(id)
  const journal = events.find((e) => e.type === 'restore/journal')!
  const commit = events.find((e) => e.type === 'revert')
  expect(commit).toMatchObject({ journalSeq: journal.seq })
  expect(commit?.type === 'revert' && commit.files.length).toBe(FILES)
  expect(events.some((e) => e.type === 'notice' && e.source === 'checkpoints' && e.text.includes('stopped in the middle'))).toBe(true)

  const rewound = await seam(['rewind', id, '1'])
  expect(rewound.code, rewound.stderr).toBe(0)
  expect(rewound.stdout).toContain('rewound to before: rewrite all')
}, 240_000)

it('a seam rewind killed right after its journal (0 files restored) is finished by seam rewind ID 1 run again, which reports it done', async () => {
  const { id, dir } = await fortyFileSession('rewind')
  const first = await seam(['rewind', id, '1'], { [RESTORE_KILL_AT_ENV]: '0' })
  expect(first.signal, first.stderr).toBe('SIGKILL')
  expect((await contents(dir)).every((text) => text.startsWith('v2'))).toBe(true)
  expect(temps(dir)).toHaveLength(1)

  // The conversation is not rewound until the restore commits: prompt 1 is still there.
  const retried = await seam(['rewind', id, '1'])
  expect(retried.code, retried.stderr).toBe(0)
  expect(retried.stderr).toContain('Seam was stopped in the middle of a rewind to before the prompt "rewrite all"')
  expect(retried.stderr).toContain('0 of 41 files had been put back, 41 were put back now')
  expect(retried.stdout).toContain('rewound to before: rewrite all')
  expect(await contents(dir)).toEqual(Array.from({ length: FILES }, (_, i) => `v1 ${i}\n`))
  expect(readdirSync(dir).filter((name) => !name.startsWith('f'))).toEqual([])

  // Once rewound, prompt 1 is gone: the next rewind says so (the conversation is empty, as it should be).
  const after = await seam(['rewind', id, '1'])
  expect(after.code).toBe(2)
  expect(after.stderr).toContain('the conversation has 0 prompts')
}, 240_000)

it('loading the workspace finishes it: after a killed seam revert, a seam run of a new session in the same workspace finishes the restore and says which session', async () => {
  const { id, dir } = await fortyFileSession('load')
  const killed = await seam(['revert', id, '--turn', '1'], { [RESTORE_KILL_AT_ENV]: '5' })
  expect(killed.signal, killed.stderr).toBe('SIGKILL')
  expect(readdirSync(join(home, 'sessions', '.restoring'))).toEqual([id])

  const server = await startFakeOpenAI([{ text: 'hello' }])
  try {
    const other = await seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', 'something else'])
    expect(other.code, other.stderr).toBe(0)
    expect(other.stderr).toContain(`seam: session ${id}: Seam was stopped in the middle of a revert of a turn's files`)
    expect(other.stderr).toContain('5 of 40 files had been put back, 35 were put back now')
  } finally {
    await server.close()
  }
  expect(await contents(dir)).toEqual(Array.from({ length: FILES }, (_, i) => `v1 ${i}\n`))
  expect(temps(dir)).toEqual([])
  expect(readdirSync(join(home, 'sessions', '.restoring'))).toEqual([])
  // Opening that session later finds nothing left to finish.
  const reverted = await seam(['revert', id, '--turn', '1'])
  expect(reverted.code, reverted.stderr).toBe(0)
  expect(reverted.stderr).not.toContain('stopped in the middle')
}, 240_000)

it('a seam run killed inside a Write (its temp file written, before the rename) leaves the file as it was; the next load of the session removes that temp file and no other', async () => {
  const dir = join(workspace, 'write-kill')
  await mkdir(dir, { recursive: true })
  const target = join(dir, 'a.txt')
  await writeFile(target, 'old\n')
  // A temp-looking file that is not Seam's: it stays.
  await writeFile(join(dir, '.a.txt.4242.0badcafe.tmp'), 'someone else\n')
  const server = await startFakeOpenAI([{ toolCalls: [{ name: 'Write', args: { file_path: target, content: 'new\n' } }] }, { text: 'carried on' }])
  try {
    const provider = ['--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm']
    const killed = await seam(['run', '--workspace', workspace, ...provider, '--approve', 'allow', 'write it'], { [WRITE_KILL_ENV]: '1' })
    expect(killed.signal, killed.stderr).toBe('SIGKILL')
    expect(await readFile(target, 'utf8')).toBe('old\n')
    const ours = temps(dir).filter((name) => name.includes('seam-write-'))
    expect(ours).toHaveLength(1)
    expect(ours[0]).toMatch(/^\.a\.txt\.seam-write-[0-9a-f]{16}\.tmp$/)
    const id = /session (\S+)/.exec(killed.stderr)![1]!
    const resumed = await seam(['resume', id, ...provider, '--approve', 'allow', 'go on'])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(temps(dir)).toEqual(['.a.txt.4242.0badcafe.tmp'])
    expect(await readFile(target, 'utf8')).toBe('old\n')
    expect((await eventsOf(id)).filter((e) => e.type === 'turn/end').map((e) => e.reason)).toEqual(['error', 'completed'])
  } finally {
    await server.close()
  }
}, 120_000)
