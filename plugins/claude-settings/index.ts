// @seam/claude-settings: the non-hook parts of Claude Code's settings files (`permissions` and
// `env`), read from ~/.claude/settings.json and, once the workspace is trusted,
// <workspace>/.claude/settings{,.local}.json, kept current while Seam runs. It decides nothing
// itself: the permission policy reads the rules and defaultMode, the workspace guard the
// additionalDirectories, and every tool and hook process of a session gets the env. See README.md.
import { createHash } from 'node:crypto'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { PermissionUpdate, TrustItem } from '@seam/sdk'
import { definePlugin, type Logger } from '@seam/sdk'
import { claudeUserSettingsPath, watchPatchFiles } from '@seam/sdk/node'
import { isWorkspaceSource, readClaudeSettings, resolveDirectory, settingsFiles, workspaceSettingsFiles, type ClaudeSettingsSnapshot, type ClaudeSource, type ReadOptions, type RuleBehavior } from './read'
import { addPermissionRules, SettingsWriteError, updatePermissions, type PermissionsWritten, type RulesWritten } from './write'

export * from './read'
export { addPermissionRules, SettingsWriteError, type RulesWritten } from './write'

/**
 * Where saved rules go: Claude Code's `localSettings` (`<workspace>/.claude/settings.local.json`),
 * `projectSettings` (`.claude/settings.json`), `userSettings` (`~/.claude/settings.json`), or
 * `userSeam`, the user's Seam rules (`<Seam home>/permissions.json`).
 */
export type SettingsDestination = 'localSettings' | 'projectSettings' | 'userSettings' | 'userSeam'

/** The user's Seam rules file, inside the Seam home. */
export const SEAM_RULES_FILE_NAME = 'permissions.json'

export const ClaudeSettingsConfigSchema = z
  .object({
    /** Claude Code's user settings file. Default: `~/.claude/settings.json`. */
    userSettingsPath: z.string().min(1).optional()
  })
  .strict()
  .prefault({})

/** What other plugins read: the snapshot in force now, and a way to hear about edits. */
export interface ClaudeSettingsService {
  snapshot(): ClaudeSettingsSnapshot
  /** Resolves once edits to the files are watched (an edit before that may be picked up only at the next change). */
  readonly watching: Promise<void>
  /** Called after a reload that changed anything; returns the unsubscribe. */
  onChange(listener: (snapshot: ClaudeSettingsSnapshot) => void): () => void
  /**
   * Adds rules to a settings file (merged, atomic; a file it cannot read is left alone and this
   * throws a SettingsWriteError naming the file and field) and reloads, so they apply at once.
   * In the workspace's files they are approved too: the user allowed them, so trust pinning does
   * not hold the file back as changed.
   */
  addRules(destination: SettingsDestination, behavior: RuleBehavior, rules: readonly string[]): RulesWritten
  /**
   * Applies one permission update (rules added, removed or replaced, `defaultMode`,
   * `additionalDirectories`) to a settings file, the same way: atomic, a file it cannot read left
   * alone (SettingsWriteError naming file and field), reloaded, and what it adds to the
   * workspace's files approved.
   */
  update(destination: SettingsDestination, update: PermissionUpdate): PermissionsWritten
}

declare module '@seam/sdk' {
  interface Services {
    claudeSettings: ClaudeSettingsService
  }
}

const NOTICE_SOURCE = 'claude-settings'

export default definePlugin({
  name: 'claude-settings',
  schema: ClaudeSettingsConfigSchema,
  inject: ['workspace'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const home = homedir()
    const options: ReadOptions = {
      userSettingsPath: claudeUserSettingsPath(config.userSettingsPath, home),
      seamRulesPath: join(workspace.seamHome, SEAM_RULES_FILE_NAME),
      workspaceRoot: workspace.root,
      trusted: workspace.trusted,
      home,
      // Trust is pinned to what the dialog showed: a file whose items changed is not applied until approved.
      approvedFile: (file) => workspace.root === null || workspaceTrustItems(workspace.root, { home }).filter((item) => item.file === file).every((item) => workspace.isApproved(item))
    }
    let current = readClaudeSettings(options)
    let signature = JSON.stringify(current)
    logWarnings(ctx.logger, current.warnings, [])
    const listeners = new Set<(snapshot: ClaudeSettingsSnapshot) => void>()

    const reload = (): void => {
      const next = readClaudeSettings(options)
      const nextSignature = JSON.stringify(next)
      if (nextSignature === signature) return
      const previous = current
      current = next
      signature = nextSignature
      ctx.logger.info('Claude Code settings changed: permissions and env reloaded')
      workspace.itemsChanged()
      logWarnings(ctx.logger, next.warnings, previous.warnings)
      for (const listener of listeners) {
        try {
          listener(next)
        } catch (error) {
          ctx.kernel.reportError(error, { plugin: 'claude-settings', phase: 'change listener' })
        }
      }
    }
    // The same folder watch as the patch files: an editor's replace-on-save is one change.
    const stopWatching = watchPatchFiles(settingsFiles(options).map((origin) => origin.file), reload, { debounceMs: 60 })
    ctx.onDispose(stopWatching)

    // A session is told once what was skipped or ignored (the log has it too).
    ctx.on('agent/session-start', (agent) => {
      for (const warning of current.warnings) agent.notify('warn', warning, NOTICE_SOURCE)
      const untrusted = untrustedNotice(options)
      if (untrusted !== undefined) agent.notify('warn', untrusted, NOTICE_SOURCE)
    })

    workspace.contributeTrustItems(ctx, (root) => workspaceTrustItems(root, options))

    const fileOf = (destination: SettingsDestination): string => {
      if (destination === 'userSettings') return options.userSettingsPath
      if (destination === 'userSeam') return options.seamRulesPath as string
      if (workspace.root === null) throw new SettingsWriteError(`there is no workspace to save ${destination} rules in`)
      const files = workspaceSettingsFiles(workspace.root)
      return destination === 'localSettings' ? files.local : files.project
    }

    /** What Seam writes to the workspace's files on the user's (or their hook's) word is approved: pinned before the write, so the reload right after finds the file approved. */
    const approveWrites = (destination: SettingsDestination, file: string, items: Array<Pick<TrustItem, 'event' | 'command'>>): void => {
      const source: ClaudeSource = destination === 'localSettings' ? 'local' : destination === 'projectSettings' ? 'project' : 'user'
      if (!isWorkspaceSource(source) || workspace.root === null || !workspace.trusted || items.length === 0) return
      workspace.approveItems(items.map((item) => ({ source: TRUST_SOURCE, file, ...item })))
    }

    ctx.provide('claudeSettings', {
      addRules(destination, behavior, rules) {
        const file = fileOf(destination)
        approveWrites(destination, file, rules.map((rule) => ({ event: `permissions.${behavior}`, command: rule.trim() })))
        const written = addPermissionRules(file, behavior, rules)
        if (written.added.length > 0) reload()
        return written
      },
      update(destination, update) {
        const file = fileOf(destination)
        approveWrites(
          destination,
          file,
          update.type === 'setMode'
            ? [{ event: 'permissions.defaultMode', command: update.mode }]
            : 'rules' in update
              ? update.rules.map((rule) => ({ event: `permissions.${update.behavior}`, command: rule.trim() }))
              : update.type === 'addDirectories'
                ? update.directories.map((dir) => ({ event: 'permissions.additionalDirectories', command: resolveDirectory(dir, { home: options.home, workspaceRoot: workspace.root }) }))
                : []
        )
        const written = updatePermissions(file, update)
        if (written.added.length > 0 || written.removed.length > 0 || written.mode !== undefined) reload()
        return written
      },
      snapshot: () => current,
      watching: stopWatching.ready,
      onChange(listener) {
        listeners.add(listener)
        return () => void listeners.delete(listener)
      }
    })
    ctx.provide('settingsEnv', {
      vars: () => Object.fromEntries(current.env.map((variable) => [variable.name, variable.value]))
    })
  }
})

const TRUST_SOURCE = 'Claude Code settings'

/** What trusting `root` would apply from its files: every rule, the mode, folders and variable names. */
export function workspaceTrustItems(root: string, options: Pick<ReadOptions, 'home'>): TrustItem[] {
  const read = readClaudeSettings({ userSettingsPath: '', workspaceRoot: root, trusted: true, home: options.home })
  const mine = <T extends { source: ClaudeSource }>(items: readonly T[]): T[] => items.filter((item) => isWorkspaceSource(item.source))
  const items: TrustItem[] = mine(read.rules).map((rule) => ({ source: TRUST_SOURCE, file: rule.file, event: `permissions.${rule.behavior}`, command: rule.rule }))
  if (read.defaultMode && isWorkspaceSource(read.defaultMode.source)) {
    items.push({ source: TRUST_SOURCE, file: read.defaultMode.file, event: 'permissions.defaultMode', command: read.defaultMode.mode })
  }
  for (const dir of mine(read.additionalDirectories)) items.push({ source: TRUST_SOURCE, file: dir.file, event: 'permissions.additionalDirectories', command: dir.resolved })
  // Names only: values may be secrets, and the dialog is about what changes, not what it is set to.
  // The value's digest is part of the pinned hash (never stored or shown), so a changed value needs approval too.
  for (const variable of mine(read.env)) {
    items.push({ source: TRUST_SOURCE, file: variable.file, event: 'env', command: variable.name, content: createHash('sha256').update(variable.value).digest('hex') })
  }
  return items
}

/** Said once per session when an untrusted workspace declares permissions or env that are not applied. */
function untrustedNotice(options: ReadOptions): string | undefined {
  if (options.trusted || options.workspaceRoot === null) return undefined
  const skipped = workspaceTrustItems(options.workspaceRoot, options)
  if (skipped.length === 0) return undefined
  const files = [...new Set(skipped.map((item) => item.file))].join(', ')
  return `Claude Code settings: this workspace is not trusted, so the ${skipped.length} permission setting(s) and variable(s) in ${files} are not applied. Trust the workspace to apply them.`
}

function logWarnings(logger: Logger, warnings: readonly string[], previous: readonly string[]): void {
  const known = new Set(previous)
  for (const warning of warnings) if (!known.has(warning)) logger.warn(warning)
}
