// The four sources of hooks, merged as Claude Code merges them (every matching hook runs), with
// Seam's trust gate on the workspace files, and live reload when a file changes.
//
// Configuration order (which decides ties, see README): user, project, local, enabled plugins, Seam settings.
import { existsSync, watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { ClaudeHookEvent } from '../hook-protocol/index'
import type { TrustItem } from '@seam/sdk'
import { claudeWorkspaceSettingsFiles } from '@seam/sdk/node'
import { loadHooksObject, loadPluginHooks, loadSettingsFile, type ConfiguredHandler, type LoadedSource } from './settings-loader'

/** How the trust dialog names these items. */
export const TRUST_SOURCE = 'Claude Code hooks'

/** A workspace hook as a trust item: the whole handler definition is hashed, the command shown. */
export function handlerTrustItem(handler: ConfiguredHandler): TrustItem {
  const item: TrustItem = { source: TRUST_SOURCE, file: handler.file, event: handler.event, command: handler.label, content: JSON.stringify(handler.handler) }
  if (handler.matcher !== undefined) item.matcher = handler.matcher
  return item
}

/** Events this bridge fires; hooks on any other Claude Code event load but never run. */
export const MAPPED_EVENTS: ReadonlySet<ClaudeHookEvent> = new Set<ClaudeHookEvent>([
  'SessionStart',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'PostToolBatch',
  'Stop',
  'StopFailure',
  'SessionEnd',
  'InstructionsLoaded',
  'PreCompact',
  'PostCompact',
  'Notification',
  'WorktreeCreate',
  'WorktreeRemove'
])

export interface SourceSettings {
  userSettingsPath: string
  /** The workspace folder; `null` when the host has none (then only user and Seam hooks load). */
  workspaceRoot: string | null
  /** Workspace files run only when the user trusts the workspace. */
  trusted: boolean
  /** In a trusted workspace, whether this hook is what the user approved (new and changed ones are not); default: all are. */
  approved?: (item: TrustItem) => boolean
  seamHooks?: Record<string, unknown>
  /** The enabled Claude Code plugins' hooks (the `claudePlugins` service), read at each load. */
  pluginHooks?: () => ReadonlyArray<{ file: string; hooks: Readonly<Record<string, unknown>>; env?: Readonly<Record<string, string>> }>
}

export interface HooksSnapshot {
  /** Handlers that may run, per event, in configuration order. */
  readonly byEvent: ReadonlyMap<ClaudeHookEvent, readonly ConfiguredHandler[]>
  readonly sources: readonly LoadedSource[]
  /** The file whose `disableAllHooks: true` turned every hook off. */
  readonly disabledBy?: string
  /** Handlers declared in the workspace's files that do not run because the workspace is not trusted. */
  readonly untrusted: readonly ConfiguredHandler[]
  /** Handlers of a trusted workspace that are new or changed since the user approved its hooks: they do not run. */
  readonly unapproved: readonly ConfiguredHandler[]
  /** Load problems the user must see: skipped files (naming the field), dropped groups, unsupported handlers. */
  readonly warnings: readonly string[]
  /** Hooks on events Seam does not fire (they load but never run). */
  readonly unmapped: readonly string[]
}

const workspaceFiles = claudeWorkspaceSettingsFiles

/** Loads every source now (synchronously: settings files are small). */
export function loadSnapshot(settings: SourceSettings): HooksSnapshot {
  const user = loadSettingsFile(settings.userSettingsPath, 'user')
  const seam = loadHooksObject(settings.seamHooks)
  const workspace = settings.workspaceRoot === null ? [] : loadWorkspace(settings.workspaceRoot)
  const approved = settings.approved ?? (() => true)
  const unapproved: ConfiguredHandler[] = []
  const trusted = settings.trusted
    ? workspace.map((source) => {
        const kept = source.handlers.filter((handler) => {
          if (approved(handlerTrustItem(handler))) return true
          unapproved.push(handler)
          return false
        })
        return kept.length === source.handlers.length ? source : { ...source, handlers: kept }
      })
    : []
  // A plugin's hooks run with the user's (cc:hooks.md "Hook locations"), after the settings files.
  const plugins = (settings.pluginHooks?.() ?? []).map((p) => loadPluginHooks(p.hooks, p.file, p.env))
  const active = [user, ...trusted, ...plugins, seam]
  const disabling = active.find((source) => source.status === 'loaded' && source.disableAllHooks)

  const byEvent = new Map<ClaudeHookEvent, ConfiguredHandler[]>()
  const warnings: string[] = unapproved.map(
    (handler) =>
      `Claude Code hooks: ${handler.event} [${handler.label}] (${handler.file}) is new or changed since you trusted this workspace, so it did not run. Review and approve the change in the workspace trust dialog (Settings → Workspace; headless: --trust-workspace).`
  )
  const unmapped = new Set<string>()
  for (const source of active) {
    if (source.status === 'invalid') warnings.push(`Claude Code hooks: ${source.file} was skipped: ${source.problem ?? 'invalid'}`)
    warnings.push(...source.notes.map((note) => `Claude Code hooks: ${note}`))
    if (disabling) continue
    for (const handler of source.handlers) {
      if (!MAPPED_EVENTS.has(handler.event)) {
        unmapped.add(handler.event)
        continue
      }
      if (handler.unsupported !== undefined) continue
      let list = byEvent.get(handler.event)
      if (!list) byEvent.set(handler.event, (list = []))
      list.push(handler)
    }
  }
  const snapshot: HooksSnapshot = {
    byEvent,
    sources: [user, ...workspace, ...plugins, seam],
    untrusted: settings.trusted ? [] : workspace.flatMap((source) => source.handlers),
    unapproved,
    warnings,
    unmapped: [...unmapped]
  }
  return disabling ? { ...snapshot, disabledBy: disabling.file } : snapshot
}

export function loadWorkspace(root: string): LoadedSource[] {
  const files = workspaceFiles(root)
  return [loadSettingsFile(files.project, 'project'), loadSettingsFile(files.local, 'local')]
}

/** What a reload compares: a change in any of it is a new configuration. */
function signature(snapshot: HooksSnapshot): string {
  return JSON.stringify(snapshot.sources.map((s) => [s.file, s.status, s.problem, s.disableAllHooks, s.handlers, s.notes]))
}

const DEBOUNCE_MS = 60

/**
 * Keeps a snapshot current: watches the directories of the files (or, while a directory does
 * not exist yet, its parent), debounces bursts of events, re-reads everything and reports a
 * snapshot that differs from the last one.
 */
export class HookSources {
  private current: HooksSnapshot
  private currentSignature: string
  private watchers: FSWatcher[] = []
  private timer: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly settings: SourceSettings,
    private readonly onChange: (snapshot: HooksSnapshot, previous: HooksSnapshot) => void
  ) {
    this.current = loadSnapshot(settings)
    this.currentSignature = signature(this.current)
  }

  get snapshot(): HooksSnapshot {
    return this.current
  }

  /** Re-reads every source now; reports (and returns) the new snapshot when it changed. */
  reload(): HooksSnapshot {
    const next = loadSnapshot(this.settings)
    const nextSignature = signature(next)
    if (nextSignature !== this.currentSignature) {
      const previous = this.current
      this.current = next
      this.currentSignature = nextSignature
      this.onChange(next, previous)
    }
    return this.current
  }

  /** Starts watching; the returned function stops. */
  watch(): () => void {
    this.arm()
    return () => this.close()
  }

  private files(): string[] {
    const files = [this.settings.userSettingsPath]
    if (this.settings.workspaceRoot !== null) {
      const { project, local } = workspaceFiles(this.settings.workspaceRoot)
      files.push(project, local)
    }
    return files
  }

  private arm(): void {
    this.disarm()
    if (this.closed) return
    const byDir = new Map<string, Set<string>>()
    for (const file of this.files()) {
      // Watch the file's folder; while it does not exist, watch for it to appear in its parent.
      let dir = dirname(file)
      let name = basename(file)
      if (!existsSync(dir)) {
        name = basename(dir)
        dir = dirname(dir)
        if (!existsSync(dir)) continue
      }
      let names = byDir.get(dir)
      if (!names) byDir.set(dir, (names = new Set()))
      names.add(name)
    }
    for (const [dir, names] of byDir) {
      try {
        const watcher = watch(dir, { persistent: false }, (_type, filename) => {
          if (filename === null || names.has(filename.toString())) this.schedule()
        })
        watcher.on('error', () => this.schedule())
        this.watchers.push(watcher)
      } catch {
        // The folder vanished between the check and the watch: the next change re-arms.
      }
    }
  }

  private schedule(): void {
    if (this.closed) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = undefined
      if (this.closed) return
      this.reload()
      this.arm() // a folder may have appeared or gone
    }, DEBOUNCE_MS)
  }

  private disarm(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close()
  }

  private close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.disarm()
  }
}
