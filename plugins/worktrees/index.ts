// @seam/worktrees: sessions in their own git worktrees. Provides the `worktrees` service the
// host's front ends (CLI `seam run --worktree`, the UI, ACP) use to make a worktree on a new
// branch `seam/<name>`, review its diff, commit, merge, open a pull request or discard it. The
// `worktree/create` seam runs first, so a WorktreeCreate hook may make the folder itself. See README.md.
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { definePlugin } from '@seam/sdk'
import { defaultKeyGuard } from '@seam/sdk/node'
import type { WorktreeRecord, WorktreeService } from '@seam/sdk'
import { WorktreeError, gitRunner, type GitRunner } from './git'
import { availability, checkName, createWithGit, generatedName, mainWorktree, recoverInterrupted } from './create'
import { WorktreeRecords, type WorktreeFileRecord } from './records'
import { sweepDeadMergeChecks } from './merge-preview'
import { oneWorktreeChangeAtATime } from './worktree-lock'
import { commitAll, diffWorktree, mergeWorktree, openPullRequest, removeWorktree, suggestMessage } from './review'

export { WorktreeError } from './git'
export { worktreePath, MINIMUM_GIT } from './create'

export const WorktreesConfigSchema = z
  .object({
    /** `beside`: `<repo>.worktrees/<name>` next to the repository; `home`: under `<Seam home>/worktrees/`. */
    location: z.enum(['beside', 'home']).default('beside'),
    /** The git executable (a name on PATH or an absolute path). */
    git: z.string().min(1).default('git'),
    /** The GitHub CLI, for pull requests. */
    gh: z.string().min(1).default('gh')
  })
  .strict()
  .prefault({})
export type WorktreesConfig = z.infer<typeof WorktreesConfigSchema>

export default definePlugin({
  name: 'worktrees',
  schema: WorktreesConfigSchema,
  inject: ['workspace'],
  apply(ctx, config) {
    const seamHome = ctx.get('workspace').seamHome
    const childEnv = (env: Readonly<Record<string, string | undefined>>) => (ctx.maybe('keys') ?? defaultKeyGuard).childEnv(env)
    // Sessions starting in worktrees at once must not run `git worktree add` at once (see worktree-lock.ts).
    const git = oneWorktreeChangeAtATime(gitRunner(config.git, childEnv), path.join(seamHome, 'worktrees', 'locks'))
    const gh = gitRunner(config.gh, childEnv)
    const records = new WorktreeRecords(seamHome)
    /** What the start's prune made git forget, until `prune(repo)` reports it (the CLI says so). */
    const prunedAtStart: WorktreeFileRecord[] = []
    // Creations a crash cut short are undone before anything else touches their repositories;
    // then git forgets the worktrees Seam made whose folders were deleted while it was not running,
    // and the scratch worktrees of merge checks a crash cut short are removed.
    const recovered = recoverInterrupted(git, records)
      .then(
        (undone) => {
          for (const folder of undone) ctx.logger.info(`worktrees: undid the creation of ${folder}, cut short by a crash`)
        },
        (error: unknown) => ctx.logger.warn(`worktrees: could not undo interrupted creations: ${(error as Error).message}`)
      )
      .then(() => pruneGone(git, records))
      .then(
        (pruned) => {
          prunedAtStart.push(...pruned)
          for (const record of pruned) ctx.logger.info(`worktrees: git forgot the worktree ${record.path} (its folder is gone)`)
        },
        (error: unknown) => ctx.logger.warn(`worktrees: could not prune worktrees whose folders are gone: ${(error as Error).message}`)
      )
      .then(() => sweepDeadMergeChecks(git))
      .then(
        (swept) => {
          for (const folder of swept) ctx.logger.info(`worktrees: removed ${folder}, the scratch worktree of a merge check cut short by a crash`)
        },
        (error: unknown) => ctx.logger.warn(`worktrees: could not remove the scratch worktrees of interrupted merge checks: ${(error as Error).message}`)
      )

    const service: WorktreeService = {
      availability: (workspace) => availability(git, workspace),
      async create(options) {
        await recovered
        const name = options.name ?? generatedName()
        checkName(name)
        const repo = await mainWorktree(git, options.workspace)
        const decision = await ctx.waterfall('worktree/create', { sessionId: options.sessionId, name, cwd: options.workspace }, async () => ({}))
        if (decision.path !== undefined) return { worktree: await hookWorktree(decision.path, name, repo), notices: [] }
        return createWithGit({ git, records, seamHome, location: options.location ?? config.location }, { repo, workspace: options.workspace, sessionId: options.sessionId, name, location: options.location ?? config.location, ...(options.base !== undefined ? { base: options.base } : {}) })
      },
      exists: (worktree) => existsSync(worktree.path),
      diff: (worktree) => diffWorktree(git, worktree),
      suggestCommitMessage: (worktree) => suggestMessage(git, worktree),
      commit: (worktree, message) => commitAll(git, worktree, message),
      merge: (worktree, mode, message) => mergeWorktree(git, worktree, mode, message),
      pullRequest: (worktree, title, body) => openPullRequest(git, gh, worktree, title, body),
      async discard(worktree, options) {
        if (worktree.createdBy === 'git') {
          await removeWorktree(git, worktree, options.confirmed)
          records.remove(worktree.path)
        }
        await ctx.parallel('worktree/remove', { sessionId: options.sessionId, worktreePath: worktree.path, cwd: worktree.repo })
      },
      async prune(repo) {
        await recovered
        const earlier = prunedAtStart.filter((record) => record.repo === repo)
        prunedAtStart.splice(0, prunedAtStart.length, ...prunedAtStart.filter((record) => record.repo !== repo))
        return [...earlier, ...(await pruneGone(git, records, repo))].map((record) => record.path)
      }
    }
    ctx.provide('worktrees', service)
  }
})

/**
 * `git worktree prune` in each repository (or only `repo`) where a worktree Seam made lost its
 * folder, and their records dropped; the paths git forgot. A repository that is gone itself has
 * nothing left to prune: its records go.
 */
async function pruneGone(git: GitRunner, records: WorktreeRecords, repo?: string): Promise<WorktreeFileRecord[]> {
  const gone = records.all().filter((record) => record.state === 'ready' && (repo === undefined || record.repo === repo) && !existsSync(record.path))
  const pruned: WorktreeFileRecord[] = []
  for (const repository of new Set(gone.map((record) => record.repo))) {
    if (existsSync(repository)) {
      const result = await git(['worktree', 'prune'], repository)
      if (result.code !== 0) continue
    }
    for (const record of gone.filter((r) => r.repo === repository)) {
      records.remove(record.path)
      pruned.push(record)
    }
  }
  return pruned
}

/** A WorktreeCreate hook's path: it must be an absolute path to a folder that exists. */
async function hookWorktree(folder: string, name: string, repo: string): Promise<WorktreeRecord> {
  if (!path.isAbsolute(folder)) throw new WorktreeError(`a WorktreeCreate hook answered "${folder}", which is not an absolute path`, 'HOOK_PATH')
  let isFolder = false
  try {
    isFolder = statSync(folder).isDirectory()
  } catch {
    // Missing: reported below.
  }
  if (!isFolder) throw new WorktreeError(`a WorktreeCreate hook answered ${folder}, which is not an existing folder`, 'HOOK_PATH')
  return { name, repo, path: folder, branch: '', base: '', baseCommit: '', createdBy: 'hook' }
}
