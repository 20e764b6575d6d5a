// Worktree sessions end to end: the built `seam` as real processes, real repositories made here
// with the real git, Claude Code hooks from a real ~/.claude/settings.json, and a loopback server
// speaking the Anthropic wire protocol whose model edits files. Two, four and eight sessions run at once
// making conflicting edits, each in its own worktree; their work is committed, merged (the
// conflict reported, nothing resolved) and discarded with `seam worktree`; a kill -9 during a
// creation leaves nothing behind once Seam starts again; revert and rewind act on the worktree.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic, type AnthropicRequestBody } from '../../test-support/fake-anthropic.mjs'
import { SEAM_BIN, runSeamHeadless, useCliScratch, type CliResult, hookRecorder, hookRecords } from '../../test-support/built-cli'
import { git, makeRepo, repoState } from '../../plugins/worktrees/test-repo'
import { isAlive, waitFor, waitUntilDead } from '../process/liveness'
import { createHost } from '../app/host'

let home: string
let scratch: string
useCliScratch('worktree', (dirs) => ({ home, workspace: scratch } = dirs))

let repo: string
let count = 0
afterEach(() => {
  rmSync(join(home, '.claude'), { recursive: true, force: true })
})

function newRepo(): string {
  repo = makeRepo(join(scratch, `project${++count}`), { 'README.md': 'hello\n' })
  return repo
}

function seam(args: string[]): Promise<CliResult> {
  return runSeamHeadless(args, { cwd: repo, home })
}

const flags = (url: string) => ['--workspace', repo, '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'allow']

/** The text of the last user message (the prompt this turn answers). */
function lastPrompt(body: AnthropicRequestBody): string {
  const last = [...body.messages].reverse().find((message) => message.role === 'user')
  if (!last) return ''
  return typeof last.content === 'string' ? last.content : last.content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('')
}

/** A model that, asked "write <file> <text>", writes it (the prompt carries the absolute path), then says done. */
function writer() {
  return (body: AnthropicRequestBody) => {
    const last = body.messages[body.messages.length - 1]
    if (Array.isArray(last.content) && last.content.some((block) => block.type === 'tool_result')) return { text: 'done' }
    const match = /write (\S+) (.+)$/s.exec(lastPrompt(body).trim())
    if (!match) return { text: 'no instructions' }
    return { text: 'Writing.', toolCalls: [{ name: 'Write', args: { file_path: match[1], content: `${match[2]}\n` } }] }
  }
}

async function userHooks(hooks: Record<string, unknown[]>): Promise<void> {
  mkdirSync(join(home, '.claude'), { recursive: true })
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks }))
}

const recorder = (name: string) => hookRecorder(home, name)
const records = (name: string) => hookRecords(home, name)

function headerOf(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.split('\n')[0]) as Record<string, unknown>
}

describe('seam run --worktree', () => {
  it('runs the session in a new worktree on seam/<name>: its edits land there, not in the repository; WorktreeCreate gets Claude Code\'s input and SessionStart the worktree as cwd; a later process resumes it there', async () => {
    newRepo()
    await userHooks({
      WorktreeCreate: [{ hooks: [{ type: 'command', command: recorder('create.jsonl') }] }],
      SessionStart: [{ hooks: [{ type: 'command', command: recorder('start.jsonl') }] }]
    })
    const worktree = join(scratch, `project${count}.worktrees`, 'feat')
    const server = await startFakeAnthropic([writer(), writer()])
    let result: CliResult
    try {
      result = await seam(['run', ...flags(server.url), '--json', '--worktree', 'feat', `write ${join(worktree, 'README.md')} from the session`])
    } finally {
      await server.close()
    }
    expect(result.code, result.stderr).toBe(0)
    const header = headerOf(result.stdout)
    expect(header).toMatchObject({ type: 'session/header', workspace: worktree, worktree: { name: 'feat', repo, path: worktree, branch: 'seam/feat', base: 'main', createdBy: 'git' } })
    expect(readFileSync(join(worktree, 'README.md'), 'utf8')).toBe('from the session\n')
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello\n')
    expect(git(worktree, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('seam/feat')

    const [create] = await records('create.jsonl')
    expect(Object.keys(create)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'name'])
    expect(create).toEqual({
      session_id: header.sessionId,
      transcript_path: join(home, 'seam', 'sessions', 'claude-transcripts', `${String(header.sessionId)}.jsonl`),
      cwd: repo,
      hook_event_name: 'WorktreeCreate',
      name: 'feat'
    })
    const [start] = await records('start.jsonl')
    expect(start).toMatchObject({ session_id: header.sessionId, cwd: worktree, source: 'startup' })

    // Listed with its worktree; the worktree command sees it.
    const listed = await seam(['worktree', 'list', '--json', '--workspace', repo])
    expect(listed.code, listed.stderr).toBe(0)
    expect(JSON.parse(listed.stdout.trim())).toMatchObject({ id: header.sessionId, state: 'attached', worktree: { branch: 'seam/feat' } })

    // A later process resumes it in its worktree (its history, its hooks' cwd, its edits there).
    const again = await startFakeAnthropic([writer(), writer()])
    try {
      const resumed = await seam(['resume', String(header.sessionId), ...flags(again.url), `write ${join(worktree, 'second.txt')} resumed`])
      expect(resumed.code, resumed.stderr).toBe(0)
    } finally {
      await again.close()
    }
    expect(readFileSync(join(worktree, 'second.txt'), 'utf8')).toBe('resumed\n')
    expect(existsSync(join(repo, 'second.txt'))).toBe(false)
    expect((await records('start.jsonl')).at(-1)).toMatchObject({ session_id: header.sessionId, cwd: worktree, source: 'resume' })
  }, 120_000)

  it('a WorktreeCreate hook that prints a path makes the worktree: the session runs there and git is not asked', async () => {
    newRepo()
    const folder = join(scratch, `hook-made-${count}`)
    await userHooks({ WorktreeCreate: [{ hooks: [{ type: 'command', command: `mkdir -p ${folder}; echo ${folder}` }] }] })
    const server = await startFakeAnthropic([writer(), writer()])
    let result: CliResult
    try {
      result = await seam(['run', ...flags(server.url), '--json', '--worktree', 'custom', `write ${join(folder, 'out.txt')} made`])
    } finally {
      await server.close()
    }
    expect(result.code, result.stderr).toBe(0)
    expect(headerOf(result.stdout)).toMatchObject({ workspace: folder, worktree: { path: folder, branch: '', createdBy: 'hook' } })
    expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('made\n')
    expect(git(repo, 'branch', '--list', 'seam/*')).toBe('')
  }, 120_000)

  it('a WorktreeCreate hook that fails stops the creation with its words; bad input gives a clear message and leaves the repository as it was', async () => {
    newRepo()
    const before = repoState(repo)
    await userHooks({ WorktreeCreate: [{ hooks: [{ type: 'command', command: 'echo "no worktrees today" >&2; exit 1' }] }] })
    const failed = await seam(['run', '--workspace', repo, '--worktree', 'x', 'hi'])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('seam: cannot start a worktree session: the WorktreeCreate hook [echo "no worktrees today" >&2; exit 1] failed, so no worktree was made: no worktrees today')
    rmSync(join(home, '.claude'), { recursive: true, force: true })

    git(repo, 'branch', 'seam/taken')
    const taken = await seam(['run', '--workspace', repo, '--worktree', 'taken', 'hi'])
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain('the branch seam/taken already exists')
    git(repo, 'branch', '-D', 'seam/taken')
    expect(repoState(repo)).toEqual(before)

    const plain = join(scratch, `plain-${count}`)
    mkdirSync(plain)
    const notRepo = await runSeamHeadless(['run', '--workspace', plain, '--worktree', 'hi'], { cwd: plain, home })
    expect(notRepo.code).toBe(1)
    expect(notRepo.stderr).toContain('is not in a git repository, so a session cannot have its own worktree')
  }, 120_000)

  it('a dirty main worktree: the user is told the uncommitted changes are not included', async () => {
    newRepo()
    writeFileSync(join(repo, 'README.md'), 'dirty\n')
    const server = await startFakeAnthropic([{ text: 'ok' }])
    try {
      const result = await seam(['run', ...flags(server.url), '--worktree', 'dirty', 'hello'])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toContain('seam: The main worktree has uncommitted changes; they are not included: the worktree starts from main')
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('trust in a worktree', () => {
  it('is the repository\'s: its approved hooks run in the worktree (cwd the worktree); a hook the branch changed is not approved there and does not run', async () => {
    newRepo()
    const settings = (name: string) => JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: recorder(name) }] }] } })
    mkdirSync(join(repo, '.claude'))
    writeFileSync(join(repo, '.claude', 'settings.json'), settings('main-hook.jsonl'))
    git(repo, 'add', '--all')
    git(repo, 'commit', '--quiet', '-m', 'hooks')
    git(repo, 'checkout', '--quiet', '-b', 'changed')
    writeFileSync(join(repo, '.claude', 'settings.json'), settings('changed-hook.jsonl'))
    git(repo, 'commit', '--quiet', '-am', 'changed hook')
    git(repo, 'checkout', '--quiet', 'main')
    const server = await startFakeAnthropic([{ text: 'one' }, { text: 'two' }])
    try {
      const fromMain = await seam(['run', ...flags(server.url), '--trust-workspace', '--worktree', 'trusted', 'hello'])
      expect(fromMain.code, fromMain.stderr).toBe(0)
      const fromChanged = await seam(['run', ...flags(server.url), '--trust-workspace', '--worktree', 'pinned', '--worktree-base', 'changed', 'hello'])
      expect(fromChanged.code, fromChanged.stderr).toBe(0)
    } finally {
      await server.close()
    }
    const ran = await records('main-hook.jsonl')
    // The sessions ran only in their worktrees, never in the main one.
    expect(ran.map((input) => input.cwd)).toEqual([join(scratch, `project${count}.worktrees`, 'trusted')])
    expect(await records('changed-hook.jsonl')).toEqual([])
  }, 120_000)
})

describe.each([2, 4])('%i worktree sessions at once with conflicting edits', (sessions) => {
  it('each edits README.md in its own worktree; one merges, the next conflicts (files listed, nothing changed), discard needs --force for unmerged work', async () => {
    newRepo()
    const names = Array.from({ length: sessions }, (_, i) => `c${i + 1}`)
    const folder = (name: string) => join(scratch, `project${count}.worktrees`, name)
    const server = await startFakeAnthropic(Array.from({ length: sessions * 2 }, () => writer()))
    let results: CliResult[]
    try {
      results = await Promise.all(names.map((name) => seam(['run', ...flags(server.url), '--json', '--worktree', name, `write ${join(folder(name), 'README.md')} edited by ${name}`])))
    } finally {
      await server.close()
    }
    for (const result of results) expect(result.code, result.stderr).toBe(0)
    for (const name of names) expect(readFileSync(join(folder(name), 'README.md'), 'utf8')).toBe(`edited by ${name}\n`)
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello\n')
    const ids = results.map((result) => String(headerOf(result.stdout).sessionId))

    const diff = await seam(['worktree', 'diff', ids[0], '--json', '--workspace', repo])
    expect(JSON.parse(diff.stdout)).toMatchObject({ uncommitted: true, files: [{ path: 'README.md', status: 'M', additions: 1, deletions: 1 }] })
    for (const id of ids) expect((await seam(['worktree', 'commit', id, '--workspace', repo])).code).toBe(0)
    expect(git(folder('c1'), 'log', '-1', '--format=%s').trim()).toBe('Update README.md')

    const merged = await seam(['worktree', 'merge', ids[0], '--mode', 'fast-forward', '--workspace', repo])
    expect(merged.code, merged.stderr).toBe(0)
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('edited by c1\n')
    const before = repoState(repo)
    for (const id of ids.slice(1)) {
      const conflict = await seam(['worktree', 'merge', id, '--workspace', repo])
      expect(conflict.code).toBe(1)
      expect(conflict.stderr).toContain('conflicts in 1 file; nothing was changed')
      expect(conflict.stderr).toContain('  conflict: README.md')
      expect(repoState(repo)).toEqual(before)
    }
    const refused = await seam(['worktree', 'discard', ids[1], '--workspace', repo])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('seam/c2 has 1 commit(s) not merged into main: confirm to discard them')
    expect(existsSync(folder('c2'))).toBe(true)
    const discarded = await seam(['worktree', 'discard', ids[1], '--force', '--workspace', repo])
    expect(discarded.code, discarded.stderr).toBe(0)
    expect(existsSync(folder('c2'))).toBe(false)
    expect(git(repo, 'branch', '--list', 'seam/c2')).toBe('')

    // The discarded session's history stays; it is detached and refuses to run.
    const resumed = await seam(['resume', ids[1], '--workspace', repo, 'more'])
    expect(resumed.code).not.toBe(0)
    expect(resumed.stderr).toContain(`This session is detached: its worktree ${folder('c2')} no longer exists`)
  }, 240_000)
})

describe('eight worktree sessions at once, streaming', () => {
  it('all eight stream and edit in their own worktrees; four edits of their own files all land, of four edits of README.md the first lands and three conflict with nothing changed', async () => {
    newRepo()
    const names = Array.from({ length: 8 }, (_, i) => `e${i + 1}`)
    const own = names.slice(0, 4)
    const shared = names.slice(4)
    const folder = (name: string) => join(scratch, `project${count}.worktrees`, name)
    const target = (name: string) => (own.includes(name) ? join('notes', `${name}.txt`) : 'README.md')
    // Each answer streams 480 characters, 4 at a time 10 ms apart, before its Write call.
    const streamed = 'Streaming while the others do. '.repeat(16).trim()
    const streamingWriter = (body: AnthropicRequestBody) => {
      const answer = writer()(body)
      return answer.toolCalls ? { ...answer, text: streamed, chunkSize: 4, chunkDelayMs: 10 } : answer
    }
    const server = await startFakeAnthropic(Array.from({ length: 16 }, () => streamingWriter))
    let results: CliResult[]
    try {
      results = await Promise.all(names.map((name) => seam(['run', ...flags(server.url), '--json', '--worktree', name, `write ${join(folder(name), target(name))} edited by ${name}`])))
    } finally {
      await server.close()
    }
    for (const result of results) expect(result.code, result.stderr).toBe(0)
    const ids = results.map((result) => String(headerOf(result.stdout).sessionId))
    for (const [i, name] of names.entries()) {
      expect(readFileSync(join(folder(name), target(name)), 'utf8')).toBe(`edited by ${name}\n`)
      // Every session's log holds its whole streamed answer.
      const log = readFileSync(join(home, 'seam', 'sessions', `${ids[i]}.jsonl`), 'utf8')
      expect(log).toContain(JSON.stringify(streamed))
    }
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello\n')
    expect(existsSync(join(repo, 'notes'))).toBe(false)

    for (const id of ids) expect((await seam(['worktree', 'commit', id, '--workspace', repo])).code).toBe(0)
    for (const [i, name] of names.entries()) {
      const merged = await seam(['worktree', 'merge', ids[i], '--mode', 'merge', '--workspace', repo])
      if (own.includes(name) || name === shared[0]) {
        expect(merged.code, merged.stderr).toBe(0)
        continue
      }
      const before = repoState(repo)
      expect(merged.code).toBe(1)
      expect(merged.stderr).toContain(`merging seam/${name} into main conflicts in 1 file; nothing was changed`)
      expect(merged.stderr).toContain('  conflict: README.md')
      expect(repoState(repo)).toEqual(before)
    }
    for (const name of own) expect(readFileSync(join(repo, 'notes', `${name}.txt`), 'utf8')).toBe(`edited by ${name}\n`)
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe(`edited by ${shared[0]}\n`)
    expect(git(repo, 'status', '--porcelain')).toBe('')
    // Five merge commits on main, one per session that landed.
    expect(git(repo, 'log', '--merges', '--format=%s').trim().split('\n')).toHaveLength(5)
  }, 360_000)
})

describe('the board of sessions this host does not hold', () => {
  it('shows their last message, files changed, cost and failure from their logs, and what another process appended since', async () => {
    newRepo()
    const worktree = join(scratch, `project${count}.worktrees`, 'elsewhere')
    // A model with a price, so the sessions have a cost.
    const priced = (url: string) => [...flags(url).slice(0, -4), '--model', 'claude-sonnet-5-5', '--approve', 'allow']
    const server = await startFakeAnthropic([writer(), writer()])
    let id: string
    try {
      const result = await seam(['run', ...priced(server.url), '--json', '--worktree', 'elsewhere', `write ${join(worktree, 'one.txt')} one`])
      expect(result.code, result.stderr).toBe(0)
      id = String(headerOf(result.stdout).sessionId)
    } finally {
      await server.close()
    }
    const host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home } })
    try {
      const call = async (method: string, input: unknown) => {
        const reply = await host.router.invoke(method, input, { transport: 'web' })
        if (!reply.ok) throw new Error(reply.error.message)
        return reply.output
      }
      await call('workspace/set', { path: repo })
      const rowOf = async () => ((await call('sessions/board', {})) as Array<{ id: string; status: string; lastMessage: string; filesChanged: number; costUsd: number; worktree?: { branch: string } }>).find((row) => row.id === id)
      const first = await rowOf()
      expect(first).toMatchObject({ status: 'closed', lastMessage: 'done', filesChanged: 1, worktree: { branch: 'seam/elsewhere' } })
      expect(first!.costUsd).toBeGreaterThan(0)

      // Another process goes on with it: the board reads what it appended; a failed turn shows as failed.
      const again = await startFakeAnthropic([writer(), writer(), { error: { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'no more' } } } }])
      try {
        expect((await seam(['resume', id, ...priced(again.url), `write ${join(worktree, 'two.txt')} two`])).code).toBe(0)
        expect((await rowOf())).toMatchObject({ status: 'closed', filesChanged: 2 })
        expect((await rowOf())!.costUsd).toBeGreaterThan(first!.costUsd)
        expect((await seam(['resume', id, ...priced(again.url), 'fail now'])).code).not.toBe(0)
      } finally {
        await again.close()
      }
      expect(await rowOf()).toMatchObject({ status: 'failed', filesChanged: 2 })
    } finally {
      await host.close()
    }
  }, 180_000)
})

describe('checkpoints in a worktree session', () => {
  it('seam revert and seam rewind put back the worktree\'s files, never the main checkout\'s', async () => {
    newRepo()
    const worktree = join(scratch, `project${count}.worktrees`, 'undo')
    const server = await startFakeAnthropic(Array.from({ length: 4 }, () => writer()))
    let id: string
    try {
      const result = await seam(['run', ...flags(server.url), '--json', '--worktree', 'undo', `write ${join(worktree, 'README.md')} changed in the worktree`, `write ${join(worktree, 'new.txt')} new in the worktree`])
      expect(result.code, result.stderr).toBe(0)
      id = String(headerOf(result.stdout).sessionId)
    } finally {
      await server.close()
    }
    // The main checkout has files of the same names, with its own contents.
    writeFileSync(join(repo, 'README.md'), 'main checkout\n')
    writeFileSync(join(repo, 'new.txt'), 'main checkout too\n')

    const reverted = await seam(['revert', id])
    expect(reverted.code, reverted.stderr).toBe(0)
    expect(reverted.stdout).toBe(`restored ${join(worktree, 'new.txt')}\n`)
    expect(existsSync(join(worktree, 'new.txt'))).toBe(false)
    expect(readFileSync(join(repo, 'new.txt'), 'utf8')).toBe('main checkout too\n')

    const rewound = await seam(['rewind', id, '1'])
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(rewound.stdout).toContain(`restored ${join(worktree, 'README.md')}`)
    expect(readFileSync(join(worktree, 'README.md'), 'utf8')).toBe('hello\n')
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('main checkout\n')
    expect(git(worktree, 'status', '--porcelain')).toBe('')
  }, 120_000)
})

describe('durability', () => {
  it('a worktree deleted outside Seam: listed as detached, git forgets it, and resuming says why the session cannot run', async () => {
    newRepo()
    const server = await startFakeAnthropic([{ text: 'ok' }])
    let id: string
    try {
      const result = await seam(['run', ...flags(server.url), '--json', '--worktree', 'gone', 'hello'])
      expect(result.code, result.stderr).toBe(0)
      id = String(headerOf(result.stdout).sessionId)
    } finally {
      await server.close()
    }
    const folder = join(scratch, `project${count}.worktrees`, 'gone')
    rmSync(folder, { recursive: true })
    const listed = await seam(['worktree', 'list', '--json', '--workspace', repo])
    expect(listed.stderr).toContain(`seam: git forgot the worktree ${folder} (its folder is gone)`)
    expect(JSON.parse(listed.stdout.trim())).toMatchObject({ id, state: 'detached' })
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(folder)
    const resumed = await seam(['resume', id, '--workspace', repo, '--json', 'again'])
    expect(resumed.code).not.toBe(0)
    expect(resumed.stderr).toContain('This session is detached')
    // The notice is in the session's log.
    const log = readFileSync(join(home, 'seam', 'sessions', `${id}.jsonl`), 'utf8')
    expect(log).toContain('"source":"worktrees"')
  }, 120_000)

  it('kill -9 during the creation (git checking out): the next start undoes it, the repository is as it was', async () => {
    newRepo()
    const before = repoState(repo)
    const marker = join(scratch, `checkout-${count}.pid`)
    // git runs post-checkout when `git worktree add` checks the files out: it parks there.
    const hook = join(repo, '.git', 'hooks', 'post-checkout')
    writeFileSync(hook, `#!/bin/sh\necho $$ > ${marker}\nexec sleep 60\n`)
    chmodSync(hook, 0o755)
    const child = spawn('setsid', [process.execPath, SEAM_BIN, 'run', '--workspace', repo, '--worktree', 'killed', 'hi'], {
      cwd: repo,
      env: { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home, FAKE_KEY: 'sk-test' },
      stdio: 'ignore'
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').trim() !== '', 60_000, 'the post-checkout hook to start')
    const hookPid = Number(readFileSync(marker, 'utf8').trim())
    process.kill(child.pid!, 'SIGKILL')
    await exited
    // The host-death watcher ends git's group (the hook with it).
    expect(await waitUntilDead(hookPid, 20_000)).toBe(true)
    expect(isAlive(hookPid)).toBe(false)
    expect(git(repo, 'branch', '--list', 'seam/killed')).not.toBe('')
    rmSync(hook)
    // The next Seam start (any command that loads the plugin) finishes the job.
    const listed = await seam(['worktree', 'list', '--workspace', repo])
    expect(listed.code, listed.stderr).toBe(0)
    expect(repoState(repo)).toEqual(before)
    expect(existsSync(join(scratch, `project${count}.worktrees`))).toBe(false)
  }, 180_000)
})
