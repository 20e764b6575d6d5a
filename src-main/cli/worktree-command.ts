// `seam worktree list | diff ID | commit ID | merge ID | pr ID | discard ID`: review and land a
// worktree session's work from the terminal, through the same `worktrees` service the UI uses.
import type { WorktreeMergeMode, WorktreeRecord } from '../../src-shared/host/worktrees'
import type { HostRuntime } from '../app/runtime'
import { worktreeService } from '../app/worktree-sessions'
import { UsageError } from './usage-error'

export interface WorktreeCommandFlags {
  json: boolean
  force: boolean
  message?: string
  mode?: string
}

type Out = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }

const MODES: Record<string, WorktreeMergeMode> = { 'fast-forward': 'fast-forward', ff: 'fast-forward', merge: 'merge', squash: 'squash' }

export async function worktreeCommand(runtime: HostRuntime, args: string[], flags: WorktreeCommandFlags, io: Out): Promise<number> {
  const [action, id] = args
  const workspace = runtime.workspace()!
  if (action === 'list') {
    const service = await worktreeService(runtime, workspace)
    const availability = await service.availability(workspace)
    if (!availability.available) {
      io.stderr.write(`seam: ${availability.reason}\n`)
      return 1
    }
    const pruned = await service.prune(availability.repo)
    for (const folder of pruned) io.stderr.write(`seam: git forgot the worktree ${folder} (its folder is gone)\n`)
    for (const summary of await runtime.sessions.store.list()) {
      const worktree = summary.worktree
      if (!worktree || worktree.repo !== availability.repo) continue
      const state = service.exists(worktree) ? 'attached' : 'detached'
      io.stdout.write(flags.json ? JSON.stringify({ id: summary.id, title: summary.title, state, worktree }) + '\n' : `${summary.id}  ${worktree.branch || '(hook)'}  ${state}  ${worktree.path}  ${summary.title}\n`)
    }
    return 0
  }
  if (!id) throw new UsageError(`seam worktree ${action ?? ''} needs a session id (seam worktree list shows them)`.replace('  ', ' '))
  const summary = (await runtime.sessions.store.list()).find((s) => s.id === id)
  if (!summary) throw new UsageError(`no session ${id}`)
  if (!summary.worktree) throw new UsageError(`session ${id} does not run in a worktree`)
  const worktree: WorktreeRecord = summary.worktree
  const service = await worktreeService(runtime, worktree.repo)
  switch (action) {
    case 'diff': {
      const diff = await service.diff(worktree)
      if (flags.json) io.stdout.write(JSON.stringify(diff) + '\n')
      else {
        io.stdout.write(`${worktree.branch} against ${worktree.base}: ${diff.files.length} file(s), ${diff.commits} commit(s)${diff.uncommitted ? ', uncommitted changes' : ''}\n`)
        for (const file of diff.files) io.stdout.write(`${file.status} ${file.path} +${file.additions} -${file.deletions}\n`)
        for (const file of diff.files) io.stdout.write(file.patch)
      }
      return 0
    }
    case 'commit': {
      const message = flags.message ?? (await service.suggestCommitMessage(worktree))
      const commit = await service.commit(worktree, message)
      io.stdout.write(`${commit}\n`)
      return 0
    }
    case 'merge': {
      const mode = MODES[flags.mode ?? 'merge']
      if (!mode) throw new UsageError(`--mode must be fast-forward, merge or squash (got "${flags.mode}")`)
      const result = await service.merge(worktree, mode, flags.message)
      if (flags.json) io.stdout.write(JSON.stringify(result) + '\n')
      if (result.merged) {
        if (!flags.json) io.stdout.write(`merged ${worktree.branch} into ${worktree.base} (${result.mode}): ${result.commit}\n`)
        return 0
      }
      io.stderr.write(`seam: ${result.reason}\n`)
      for (const file of result.conflicts) io.stderr.write(`  conflict: ${file}\n`)
      return 1
    }
    case 'pr': {
      const message = flags.message ?? `Seam session ${worktree.name}`
      const [title, ...body] = message.split('\n')
      io.stdout.write(`${await service.pullRequest(worktree, title, body.join('\n').trim())}\n`)
      return 0
    }
    case 'discard': {
      await runtime.sessions.close(id, 'closed')
      await service.discard(worktree, { sessionId: id, confirmed: flags.force })
      io.stdout.write(`removed ${worktree.path}${worktree.branch ? ` and ${worktree.branch}` : ''}\n`)
      return 0
    }
    default:
      throw new UsageError(`unknown worktree action "${action ?? ''}" (list, diff, commit, merge, pr, discard)`)
  }
}
