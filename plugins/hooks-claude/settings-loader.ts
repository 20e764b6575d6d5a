// Reads one source of Claude Code hooks (a settings file, or the hooks object from Seam's own
// settings) into a flat list of handlers in configuration order. As in Claude Code, a file that
// fails validation is dropped whole (but here with a problem that names the file and the field),
// unknown event names are ignored, and a matcher group whose `hooks` is not an array is dropped
// while the rest of the file loads (claude-code-hooks.md §2.1, §2.2).
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { isClaudeHookEvent, matcherError, parsePermissionRule, type ClaudeHookEvent } from '../hook-protocol/index'
import { formatIssuePath } from '@seam/sdk'
import { GroupSchema, HandlerSchema, SettingsFileSchema, type HandlerDefinition } from './settings-schema'

/** Where a handler was declared; also the configuration order of the sources (`scoped`: a session's own, the `scopedHooks` service, last). */
export type SourceKind = 'user' | 'project' | 'local' | 'plugin' | 'seam' | 'scoped'

export interface ConfiguredHandler {
  event: ClaudeHookEvent
  matcher?: string
  handler: HandlerDefinition
  source: SourceKind
  /** The settings file (absolute path), or `Seam settings`. */
  file: string
  /** JSON path inside the file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  where: string
  /** Claude Code runs identical commands once per event occurrence: the command string (exec form: command + args), or the URL. */
  key?: string
  /** What notices and records name: the command, the URL or the prompt. */
  label: string
  /** Set when the handler can never run here (unsupported type or shell, malformed `if`). */
  unsupported?: string
  /** A Claude Code plugin's hook: the variables exported to it (CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA). */
  env?: Readonly<Record<string, string>>
}

export interface LoadedSource {
  source: SourceKind
  file: string
  status: 'missing' | 'loaded' | 'invalid'
  /** Why the whole file was dropped (`invalid`), naming the field. */
  problem?: string
  disableAllHooks: boolean
  /** Configuration order. */
  handlers: ConfiguredHandler[]
  /** Warnings that do not drop the file: a dropped group, a matcher that is not a valid regex, an unsupported handler. */
  notes: string[]
  /** Event names that are not Claude Code events (ignored, as Claude Code does). */
  unknownEvents: string[]
}

export const SEAM_SETTINGS_LABEL = 'Seam settings'

/** Reads and validates one settings file. Never throws. */
export function loadSettingsFile(path: string, source: SourceKind): LoadedSource {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return empty(source, path, 'missing')
    return invalid(source, path, `cannot be read: ${(error as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return invalid(source, path, `is not valid JSON: ${(error as Error).message}`)
  }
  return loadSettingsJson(json, path, source)
}

/**
 * A settings file's parsed JSON, validated as loadSettingsFile does. Other readers of the same
 * files (plugins/claude-settings: permissions, env) use it to drop a file whole exactly when the
 * hooks are dropped (claude-code-hooks.md §2.1: "its hooks and everything else").
 */
export function loadSettingsJson(json: unknown, path: string, source: SourceKind): LoadedSource {
  const top = SettingsFileSchema.safeParse(json)
  if (!top.success) return invalid(source, path, issueText(top.error, []))
  const loaded = readHooks(top.data.hooks ?? {}, source, path, ['hooks'])
  loaded.disableAllHooks = top.data.disableAllHooks === true
  return loaded
}

/** A Claude Code plugin's hooks (`hooks/hooks.json`, its manifest's `hooks`), run with the plugin's variables exported. */
export function loadPluginHooks(hooks: Readonly<Record<string, unknown>>, file: string, env: Readonly<Record<string, string>> | undefined): LoadedSource {
  const loaded = readHooks({ ...hooks }, 'plugin', file, ['hooks'])
  if (env !== undefined) for (const handler of loaded.handlers) handler.env = env
  return loaded
}

/** The `hooks` object of Seam's own settings (same shape as a settings file's `hooks`). */
export function loadHooksObject(hooks: Record<string, unknown> | undefined, source: SourceKind = 'seam', file = SEAM_SETTINGS_LABEL): LoadedSource {
  if (hooks === undefined) return empty(source, file, 'missing')
  return readHooks(hooks, source, file, ['hooks'])
}

function readHooks(hooks: Record<string, unknown>, source: SourceKind, file: string, prefix: PropertyKey[]): LoadedSource {
  const loaded = empty(source, file, 'loaded')
  for (const [event, value] of Object.entries(hooks)) {
    if (!isClaudeHookEvent(event)) {
      loaded.unknownEvents.push(event)
      continue
    }
    const groups = z.array(GroupSchema).safeParse(value)
    if (!groups.success) return invalid(source, file, issueText(groups.error, [...prefix, event]))
    for (const [g, group] of groups.data.entries()) {
      const groupPath = [...prefix, event, g]
      if (!Array.isArray(group.hooks)) {
        loaded.notes.push(`${file}: ${formatIssuePath([...groupPath, 'hooks'])} is not an array; this matcher group is ignored`)
        continue
      }
      const badMatcher = matcherError('claude', group.matcher)
      if (badMatcher !== undefined) loaded.notes.push(`${file}: ${formatIssuePath([...groupPath, 'matcher'])}: ${badMatcher}; the group matches nothing`)
      const handlers = z.array(HandlerSchema).safeParse(group.hooks)
      if (!handlers.success) return invalid(source, file, issueText(handlers.error, [...groupPath, 'hooks']))
      for (const [h, handler] of handlers.data.entries()) {
        const where = formatIssuePath([...groupPath, 'hooks', h])
        const configured = describe(event, group.matcher, handler, source, file, where)
        if (configured.unsupported !== undefined) loaded.notes.push(`${file}: ${where} (${configured.label}): ${configured.unsupported}`)
        loaded.handlers.push(configured)
      }
    }
  }
  return loaded
}

function describe(event: ClaudeHookEvent, matcher: string | undefined, handler: HandlerDefinition, source: SourceKind, file: string, where: string): ConfiguredHandler {
  const configured: ConfiguredHandler = { event, handler, source, file, where, label: labelOf(handler) }
  if (matcher !== undefined) configured.matcher = matcher
  switch (handler.type) {
    case 'command':
      configured.key = handler.args ? JSON.stringify([handler.command, ...handler.args]) : handler.command
      if (handler.shell === 'powershell') configured.unsupported = 'shell "powershell" is not supported yet; this hook will not run'
      break
    case 'http':
      configured.key = `http ${handler.url}`
      break
    default:
      configured.unsupported = `"${handler.type}" hooks are not supported yet; this hook will not run`
  }
  if (configured.unsupported === undefined && handler.if !== undefined) {
    const rule = parsePermissionRule(handler.if)
    if (!rule.ok) configured.unsupported = `its "if" is not a permission rule (${rule.error}); this hook will not run`
  }
  return configured
}

function labelOf(handler: HandlerDefinition): string {
  switch (handler.type) {
    case 'command':
      return handler.args ? [handler.command, ...handler.args].join(' ') : handler.command
    case 'http':
      return handler.url
    case 'prompt':
    case 'agent':
      return `${handler.type}: ${handler.prompt.length > 60 ? `${handler.prompt.slice(0, 60)}…` : handler.prompt}`
    default:
      return handler.type
  }
}

function issueText(error: z.ZodError, prefix: PropertyKey[]): string {
  const issue = error.issues[0]
  const path = formatIssuePath([...prefix, ...(issue?.path ?? [])])
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : ''
  return `${path}: ${issue?.message ?? 'invalid'}${more}`
}

function empty(source: SourceKind, file: string, status: LoadedSource['status']): LoadedSource {
  return { source, file, status, disableAllHooks: false, handlers: [], notes: [], unknownEvents: [] }
}

function invalid(source: SourceKind, file: string, problem: string): LoadedSource {
  return { ...empty(source, file, 'invalid'), problem }
}
