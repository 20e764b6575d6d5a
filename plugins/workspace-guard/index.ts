// workspace-guard: a `tools` guard (S12) that refuses file tools whose paths leave the workspace.
// Paths are resolved exactly as the built-in tools resolve them, then through symlinks, so a link
// inside the workspace that points outside (ws/link -> /etc) is refused too.
import path from 'node:path'
import { z } from 'zod'
import type { SealedCall } from '@seam/sdk'
import { definePlugin } from '@seam/sdk'
import type {} from '../claude-settings/index'
import type {} from '../permission-policy/index'
import { isWithin, resolveToolPath } from '@seam/sdk/node'
import { realPath } from './real-path'
import { describeEscape, fileToolTargets } from './targets'

const rootPath = z
  .string()
  .min(1)
  .refine((value) => path.isAbsolute(value) || value === '~' || value.startsWith('~/'), 'must be an absolute path (or start with ~/)')

export const WorkspaceGuardConfigSchema = z.object({
  /** The directory file tools are confined to. Default: the session's working directory. */
  workspace: rootPath.optional(),
  /** More directories the file tools may use, e.g. a shared library checkout. */
  extraRoots: z.array(rootPath).default([]),
  /** Also allow the folders of Claude Code's `permissions.additionalDirectories` (the `claudeSettings` service). */
  claudeDirectories: z.boolean().default(true),
  /** Turn the confinement off: every path is allowed (unless readOnlyOutside keeps writes in). */
  allowOutside: z.boolean().default(false),
  /** Outside the roots, allow reading (Read, Glob, Grep) but refuse writing (Write, Edit). */
  readOnlyOutside: z.boolean().optional()
})

export type WorkspaceGuardConfig = z.output<typeof WorkspaceGuardConfigSchema>

const workspaceGuard = definePlugin({
  name: 'workspace-guard',
  schema: WorkspaceGuardConfigSchema,
  apply(ctx, config) {
    // Read per call: the settings files reload on edits; without the service there are none.
    // A session's own folders (a hook's `addDirectories` for the session) count as the settings' do.
    const claudeRoots = (sessionId: string): string[] =>
      config.claudeDirectories
        ? [...(ctx.maybe('claudeSettings')?.snapshot().additionalDirectories.map((dir) => dir.resolved) ?? []), ...(ctx.maybe('permissionPolicy')?.sessionDirectories(sessionId) ?? [])]
        : []
    // The output files of the session's background tasks are the model's to Read, wherever Seam keeps them (Claude Code's "Read on that file").
    const taskFiles = (sessionId: string): string[] => ctx.maybe('backgroundTasks')?.list(sessionId).map((task) => task.outputPath) ?? []
    ctx.guard('tools', (call) => checkWorkspaceAccess(call, config, claudeRoots(call.sessionId), () => taskFiles(call.sessionId)))
  }
})

export default workspaceGuard

/**
 * The deny reason for `call`, or undefined when it stays inside the allowed roots (or is not a file
 * tool). `readableFiles` are single files a reading call may use wherever they are (the session's
 * background task output files).
 */
export function checkWorkspaceAccess(call: SealedCall, config: WorkspaceGuardConfig, settingsRoots: readonly string[] = [], readableFiles: () => readonly string[] = () => []): string | undefined {
  const access = fileToolTargets(call)
  if (!access) return undefined
  const outsideAllowed = access.writes ? config.allowOutside && !config.readOnlyOutside : config.allowOutside || config.readOnlyOutside === true
  if (outsideAllowed) return undefined

  const roots = [config.workspace ?? call.cwd, ...config.extraRoots, ...settingsRoots].map((root) => resolveToolPath(call.cwd, root))
  const realRoots = roots.map((root) => realPath(root))
  for (const target of access.targets) {
    let real: string
    try {
      real = realPath(target.path)
    } catch (error) {
      return `workspace-guard: ${call.name} refused: cannot resolve ${target.path} (${error instanceof Error ? error.message : String(error)}).`
    }
    if (realRoots.some((root) => isWithin(root, real))) continue
    if (!access.writes && readableFiles().some((file) => file === target.path || file === real)) continue
    return describeEscape({
      tool: call.name,
      target,
      real,
      roots,
      readOnlyOutside: config.readOnlyOutside === true && access.writes
    })
  }
  return undefined
}
