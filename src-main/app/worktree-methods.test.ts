// The worktree methods and the board as the UI reaches them (issue 32): through the real router
// and host, on a real repository made here with the real git; malformed input names the field.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createHost, type Host } from './host'
import { git, makeRepo } from '../../plugins/worktrees/test-repo'
import { waitFor } from '../process/liveness'

let home: string
let host: Host | undefined
const caller = { transport: 'web' as const }

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-wt-host-'))
})
afterEach(async () => {
  await host?.close()
  host = undefined
  await rm(home, { recursive: true, force: true })
})

async function call(method: string, input: unknown): Promise<unknown> {
  const reply = await host!.router.invoke(method, input, caller)
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error)
  return reply.output
}

it('a folder that is not a repository: the option is unavailable with the reason; malformed input names the field', async () => {
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
  const plain = join(home, 'plain')
  await mkdir(plain)
  await call('workspace/set', { path: plain })
  expect(await call('worktrees/availability', {})).toEqual({ available: false, reason: expect.stringContaining('is not in a git repository') })
  expect(await host.router.invoke('worktrees/create', { name: 'has space' }, caller)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'name' } })
  expect(await host.router.invoke('worktrees/merge', { sessionId: 'x', mode: 'rebase' }, caller)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'mode' } })
  await expect(call('worktrees/create', {})).rejects.toThrow('is not in a git repository')
})

it('create, board, diff, commit with the suggested message, merge, and discard (refused with uncommitted changes until confirmed)', async () => {
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
  const repo = makeRepo(join(home, 'repo'))
  await call('workspace/set', { path: repo })
  expect(await call('worktrees/availability', {})).toEqual({ available: true, repo })
  const plain = (await call('sessions/create', {})) as { id: string }
  const made = (await call('worktrees/create', { name: 'ui' })) as { id: string; worktree: { path: string; branch: string } }
  expect(made.worktree).toMatchObject({ branch: 'seam/ui', path: join(home, 'repo.worktrees', 'ui') })

  const board = (await call('sessions/board', {})) as Array<{ id: string; status: string; worktree?: unknown }>
  expect(board.map((row) => [row.id, row.status, row.worktree !== undefined]).sort()).toEqual([[made.id, 'idle', true], [plain.id, 'idle', false]].sort())

  await writeFile(join(made.worktree.path, 'README.md'), 'changed in the worktree\n')
  const diff = (await call('worktrees/diff', { sessionId: made.id })) as { files: Array<{ path: string; patch: string }>; uncommitted: boolean }
  expect(diff.uncommitted).toBe(true)
  expect(diff.files.map((file) => file.path)).toEqual(['README.md'])
  expect(diff.files[0].patch).toContain('+changed in the worktree')
  await expect(call('worktrees/diff', { sessionId: plain.id })).rejects.toThrow(`session ${plain.id} does not run in a worktree`)

  const { message } = (await call('worktrees/commit-message', { sessionId: made.id })) as { message: string }
  expect(message).toBe('Update README.md\n')
  await call('worktrees/commit', { sessionId: made.id, message: 'Edited README' })
  expect(await call('worktrees/merge', { sessionId: made.id, mode: 'fast-forward' })).toMatchObject({ merged: true, mode: 'fast-forward' })
  expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Edited README')

  await writeFile(join(made.worktree.path, 'later.txt'), 'not committed\n')
  await expect(call('worktrees/discard', { sessionId: made.id, confirmed: false })).rejects.toThrow('The worktree has uncommitted changes: confirm to discard them.')
  expect(existsSync(made.worktree.path)).toBe(true)
  await call('worktrees/discard', { sessionId: made.id, confirmed: true })
  expect(existsSync(made.worktree.path)).toBe(false)
  expect(git(repo, 'branch', '--list', 'seam/ui')).toBe('')
  const after = (await call('sessions/board', {})) as Array<{ id: string; status: string }>
  expect(after.find((row) => row.id === made.id)?.status).toBe('detached')
})

it('host start: git forgets the worktrees Seam made whose folders were deleted while no Seam ran (git worktree prune)', async () => {
  const env = { ...process.env, SEAM_HOME: home, HOME: home }
  host = await createHost({ mode: 'web', env })
  const repo = makeRepo(join(home, 'repo'))
  await call('workspace/set', { path: repo })
  const made = (await call('worktrees/create', { name: 'gone' })) as { worktree: { path: string } }
  await host.close()
  host = undefined
  await rm(made.worktree.path, { recursive: true })
  expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(made.worktree.path)

  host = await createHost({ mode: 'web', env })
  await waitFor(() => !git(repo, 'worktree', 'list', '--porcelain').includes(made.worktree.path), 20_000, 'the worktree to be pruned at start')
  await waitFor(() => host!.runtime.logs().some((record) => record.message.includes(`git forgot the worktree ${made.worktree.path} (its folder is gone)`)), 5_000, 'the prune to be logged')
})
