// Trust in a worktree session's worktree (issue 32), as the UI's badge and trust dialog see it:
// through the real router and host, a real repository with Claude Code hooks made here with the
// real git. The items the repository's trust approved are approved in its worktrees too: the badge
// counts, and the dialog lists as changed, only what the worktree's branch changed. A window or
// `seam run --workspace` pointed straight at a worktree Seam made inherits it the same way, before
// any of its sessions is opened; a worktree made by plain git does not.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createHost, type Host } from './host'
import { git, makeRepo } from '../../plugins/worktrees/test-repo'
import { ensureBuilt, hookRecorder, hookRecords, runSeamHeadless } from '../../test-support/built-cli'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'

let home: string
let host: Host | undefined
const caller = { transport: 'web' as const }

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-wt-trust-'))
})
afterEach(async () => {
  await host?.close()
  host = undefined
  await rm(home, { recursive: true, force: true })
})

async function call<T>(method: string, input: unknown): Promise<T> {
  const reply = await host!.router.invoke(method, input, caller)
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error)
  return reply.output as T
}

type Preview = { workspace: string; trusted: boolean; items: Array<{ command: string; status: string; previous?: string }> }
type Status = { workspaceTrusted: boolean; trustChanges?: number }

const hooks = (second: string) => JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo first hook' }, { type: 'command', command: second }] }] } })

it('a worktree inherits the repository\'s approved items: the badge counts only the item its branch changed, and the dialog shows it as changed from the approved text', async () => {
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home } })
  const repo = makeRepo(join(home, 'repo'), { 'README.md': 'hello\n' })
  await mkdir(join(repo, '.claude'))
  await writeFile(join(repo, '.claude', 'settings.json'), hooks('echo second hook'))
  git(repo, 'add', '--all')
  git(repo, 'commit', '--quiet', '-m', 'hooks')
  git(repo, 'checkout', '--quiet', '-b', 'changed')
  await writeFile(join(repo, '.claude', 'settings.json'), hooks('echo second hook, changed on the branch'))
  git(repo, 'commit', '--quiet', '-am', 'change a hook')
  git(repo, 'checkout', '--quiet', 'main')

  await call('workspace/set', { path: repo })
  await call('workspace/trust', { trusted: true })
  expect(await call<Status>('app/status', {})).toMatchObject({ workspaceTrusted: true, trustChanges: 0 })
  const same = await call<{ worktree: { path: string } }>('worktrees/create', { name: 'same' })
  const edited = await call<{ worktree: { path: string } }>('worktrees/create', { name: 'edited', base: 'changed' })

  // The worktree of main: both hooks are the approved ones.
  await call('workspace/set', { path: same.worktree.path })
  expect(await call<Status>('app/status', {})).toMatchObject({ workspaceTrusted: true, trustChanges: 0 })
  const samePreview = await call<Preview>('workspace/trust-preview', {})
  expect(samePreview.items.map((item) => [item.command, item.status])).toEqual([
    ['echo first hook', 'approved'],
    ['echo second hook', 'approved']
  ])

  // The worktree of the branch: only the hook it changed is waiting, with the text approved in main.
  await call('workspace/set', { path: edited.worktree.path })
  expect(await call<Status>('app/status', {})).toMatchObject({ workspaceTrusted: true, trustChanges: 1 })
  const editedPreview = await call<Preview>('workspace/trust-preview', {})
  expect(editedPreview.items.map((item) => [item.command, item.status, item.previous])).toEqual([
    ['echo first hook', 'approved', undefined],
    ['echo second hook, changed on the branch', 'changed', 'echo second hook']
  ])
})

it('a window, then `seam run --workspace`, pointed straight at a worktree Seam made inherit the repository\'s trust before any of its sessions is opened; a worktree made by plain git does not', async () => {
  const env = { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home }
  host = await createHost({ mode: 'web', env })
  const repo = makeRepo(join(home, 'repo'), { 'README.md': 'hello\n' })
  await mkdir(join(repo, '.claude'))
  await writeFile(join(repo, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hookRecorder(home, 'start.jsonl') }] }] } }))
  git(repo, 'add', '--all')
  git(repo, 'commit', '--quiet', '-m', 'hooks')
  await call('workspace/set', { path: repo })
  await call('workspace/trust', { trusted: true })
  const made = await call<{ worktree: { path: string } }>('worktrees/create', { name: 'inherits' })
  const plain = join(home, 'plain-worktree')
  git(repo, 'worktree', 'add', '--quiet', '-b', 'plain', plain)
  await call('workspace/set', { path: repo })
  await host.close()

  // A new host (another window, a restart): no session of the worktree has been opened in it.
  host = await createHost({ mode: 'web', env })
  await call('workspace/set', { path: made.worktree.path })
  expect(await call<Status>('app/status', {})).toMatchObject({ workspaceTrusted: true, trustChanges: 0 })
  const preview = await call<Preview>('workspace/trust-preview', {})
  expect(preview).toMatchObject({ workspace: made.worktree.path, trusted: true })
  expect(preview.items.map((item) => item.status)).toEqual(['approved'])
  await call('workspace/set', { path: plain })
  expect(await call<Status>('app/status', {})).toMatchObject({ workspaceTrusted: false })
  await host.close()
  host = undefined

  // `seam run --workspace <worktree>` in another process: the repository's approved hook runs there.
  await ensureBuilt()
  const server = await startFakeAnthropic([{ text: 'one' }, { text: 'two' }])
  try {
    for (const workspace of [made.worktree.path, plain]) {
      const run = await runSeamHeadless(['run', '--workspace', workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', 'hello'], { cwd: workspace, home })
      expect(run.code, run.stderr).toBe(0)
    }
  } finally {
    await server.close()
  }
  expect((await hookRecords(home, 'start.jsonl')).map((input) => input.cwd)).toEqual([made.worktree.path])
}, 120_000)
