// @seam/worktrees: sessions in their own git worktrees. Provides the `worktrees` service the
// host's front ends (CLI `seam run --worktree`, the UI, ACP) use to make a worktree on a new
// branch `seam/<name>`, review its diff, commit, merge, open a pull request or discard it. The
// `worktree/create` seam runs first, so a WorktreeCreate hook may make the folder itself. See README.md.
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { definePlugin } from '@seam/sdk'
import type { WorktreeRecord, WorktreeService } from '@seam/sdk'
import { WorktreeError, gitRunner } from './git'
import { availability, checkName, createWithGit, generatedName, mainWorktree, recoverInterrupted } from './create'
import { WorktreeRecords } from './records'
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
    const git = gitRunner(config.git)
    const gh = gitRunner(config.gh)
    const records = new WorktreeRecords(seamHome)
    // Creations a crash cut short are undone before anything else touches their repositories.
    const recovered = recoverInterrupted(git, records).then(
      (undone) => {
        for (const folder of undone) ctx.logger.info(`worktrees: undid the creation of ${folder}, cut short by a crash`)
      },
      (error: unknown) => ctx.logger.warn(`worktrees: could not undo interrupted creations: ${(error as Error).message}`)
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
        const gone = records.all().filter((record) => record.state === 'ready' && record.repo === repo && !existsSync(record.path))
        if (gone.length === 0) return []
        await git(['worktree', 'prune'], repo)
        for (const record of gone) records.remove(record.path)
        return gone.map((record) => record.path)
      }
    }
    ctx.provide('worktrees', service)
  }
})

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
