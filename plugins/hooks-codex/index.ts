// @seam/hooks-codex: runs Codex CLI hooks (hooks.json, [hooks] in config.toml) unchanged, as
// translators onto Seam's seams (spec/seams.md, spec/codex-hooks.md). See README.md.
import type {} from '@seam/sdk'
import type {} from '@seam/sdk'
import type {} from '@seam/sdk'
import { definePlugin } from '@seam/sdk'
import { registerAgentStages } from './agent-stages'
import { registerCompactionAndEnd } from './compact-and-end'
import { CodexBridge } from './bridge'
import { CodexHooksConfigSchema } from './config'
import { registerPermissionRequest } from './permission-request'
import { registerToolStages } from './tool-stages'

export { CodexHooksConfigSchema, type CodexHooksConfig } from './config'
export { loadHooks, hookFiles, projectDirs, repositoryRoot, defaultCodexHome, MAPPED_EVENTS } from './discovery'
export type { CodexHandler, LoadedHooks, SkippedHandler } from './types'

const codexHooks = definePlugin({
  name: 'hooks-codex',
  schema: CodexHooksConfigSchema,
  inject: ['workspace'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const bridge = new CodexBridge(ctx, config, workspace)
    ctx.onDispose(() => bridge.dispose())
    workspace.contributeTrustItems(ctx, (dir) => bridge.trustItems(dir))
    registerAgentStages(bridge)
    registerCompactionAndEnd(bridge)
    registerToolStages(bridge)
    registerPermissionRequest(bridge)
  }
})

export default codexHooks
