// Reads one Codex hook file: `hooks.json`, or the `[hooks]` tables (plus `[features]`) of a
// `config.toml` (codex-hooks.md §1, §2.1). A structurally wrong file is dropped whole, as Codex
// drops it; what Codex ignores silently (unknown events and handler keys, snake_case event names,
// misspelt keys) is ignored here too, but with a warning naming the file and the key.
import { z } from 'zod'
import { parse as parseToml } from 'smol-toml'
import { CODEX_HOOK_EVENTS, isCodexHookEvent, matcherError, type CodexHookEvent } from '../hook-protocol'
import type { CodexHandler } from './types'

/** A handler before discovery gives it a scope and a display order. */
export type FileHandler = Omit<CodexHandler, 'scope' | 'order'>

export interface ParsedHookFile {
  handlers: FileHandler[]
  warnings: string[]
  /** The file declared hooks (an event table), even if none of them can run. */
  declaresHooks: boolean
  /** config.toml only: `features.hooks` (or the deprecated `features.codex_hooks`). */
  featureHooks?: boolean
  /** config.toml only: `[hooks.state."<key>"]` entries. */
  state: Record<string, { enabled?: boolean }>
}

/** Events whose matcher Codex drops (spec §2.2). */
const MATCHERLESS: ReadonlySet<CodexHookEvent> = new Set<CodexHookEvent>(['UserPromptSubmit', 'Stop', 'Interrupt'])

/** Keys Codex ignores although they look meaningful, with the key it does read. */
const IGNORED_KEYS: Readonly<Record<string, string>> = { timeoutSec: 'timeout', timeout_sec: 'timeout', status_message: 'statusMessage' }
const COMMAND_KEYS: ReadonlySet<string> = new Set(['type', 'command', 'timeout', 'async', 'statusMessage', 'commandWindows', 'additionalContextLimit'])
const GROUP_KEYS: ReadonlySet<string> = new Set(['matcher', 'hooks'])

const HooksJsonFile = z.strictObject({ description: z.string().nullish(), hooks: z.record(z.string(), z.unknown()).nullish() })

const ConfigTomlFile = z.looseObject({
  hooks: z.record(z.string(), z.unknown()).optional(),
  features: z.looseObject({ hooks: z.boolean().optional(), codex_hooks: z.boolean().optional() }).optional()
})

const StateTable = z.record(z.string(), z.looseObject({ enabled: z.boolean().optional(), trusted_hash: z.string().optional() }))

const Group = z.looseObject({ matcher: z.string().nullish(), hooks: z.array(z.unknown()) })

const Handler = z.looseObject({
  type: z.enum(['command', 'prompt', 'agent', 'mcp_tool']),
  command: z.string().nullish(),
  timeout: z.number().int().nonnegative().nullish(),
  async: z.boolean().nullish(),
  statusMessage: z.string().nullish(),
  commandWindows: z.string().nullish(),
  additionalContextLimit: z.number().int().nonnegative().nullish()
})

/** Thrown inside the parse to drop the whole file. */
class FileRejected extends Error {}

/** `platform`: on Windows a handler's `commandWindows`, when set, runs instead of `command` (Codex's documented field). */
export function parseHooksJson(file: string, text: string, defaultTimeoutSec: number, platform: NodeJS.Platform = process.platform): ParsedHookFile {
  const empty: ParsedHookFile = { handlers: [], warnings: [], declaresHooks: false, state: {} }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { ...empty, warnings: [`${file}: not valid JSON (${errorText(error)}); the file is ignored`] }
  }
  const top = HooksJsonFile.safeParse(json)
  if (!top.success) return { ...empty, warnings: [`${file}: ${fieldError('', top.error)}; the file is ignored`] }
  if (!top.data.hooks) return empty
  return parseHooksTable(file, top.data.hooks, defaultTimeoutSec, platform)
}

export function parseConfigToml(file: string, text: string, defaultTimeoutSec: number, platform: NodeJS.Platform = process.platform): ParsedHookFile {
  const empty: ParsedHookFile = { handlers: [], warnings: [], declaresHooks: false, state: {} }
  let toml: unknown
  try {
    toml = parseToml(text)
  } catch (error) {
    return { ...empty, warnings: [`${file}: not valid TOML (${firstLine(errorText(error))}); its hooks and features are ignored`] }
  }
  const top = ConfigTomlFile.safeParse(toml)
  if (!top.success) return { ...empty, warnings: [`${file}: ${fieldError('', top.error)}; its hooks and features are ignored`] }
  const warnings: string[] = []
  const features = top.data.features
  let featureHooks = features?.hooks
  if (features?.codex_hooks !== undefined) {
    warnings.push(`${file}: features.codex_hooks is deprecated; use features.hooks`)
    featureHooks ??= features.codex_hooks
  }
  let state: ParsedHookFile['state'] = {}
  const hooks = { ...(top.data.hooks ?? {}) }
  if ('state' in hooks) {
    const parsed = StateTable.safeParse(hooks.state)
    if (parsed.success) state = parsed.data
    else warnings.push(`${file}: ${fieldError('hooks.state', parsed.error)}; hooks.state is ignored`)
    delete hooks.state
  }
  const parsed = Object.keys(hooks).length > 0 ? parseHooksTable(file, hooks, defaultTimeoutSec, platform) : { ...empty }
  return { ...parsed, warnings: [...warnings, ...parsed.warnings], state, ...(featureHooks !== undefined ? { featureHooks } : {}) }
}

function parseHooksTable(file: string, hooks: Record<string, unknown>, defaultTimeoutSec: number, platform: NodeJS.Platform): ParsedHookFile {
  const warnings: string[] = []
  const byEvent = new Map<CodexHookEvent, FileHandler[]>()
  try {
    for (const [name, value] of Object.entries(hooks)) {
      if (!isCodexHookEvent(name)) {
        warnings.push(unknownEventWarning(file, name))
        continue
      }
      byEvent.set(name, parseEvent(file, name, value, defaultTimeoutSec, warnings, platform))
    }
  } catch (error) {
    if (error instanceof FileRejected) return { handlers: [], warnings: [`${file}: ${error.message}; the whole file is ignored (Codex drops it too)`], declaresHooks: true, state: {} }
    throw error
  }
  // Codex orders a file's handlers by event in its canonical order, then group, then handler.
  const handlers = CODEX_HOOK_EVENTS.flatMap((event) => byEvent.get(event) ?? [])
  return { handlers, warnings, declaresHooks: byEvent.size > 0, state: {} }
}

function parseEvent(file: string, event: CodexHookEvent, value: unknown, defaultTimeoutSec: number, warnings: string[], platform: NodeJS.Platform): FileHandler[] {
  const where = `hooks.${event}`
  if (!Array.isArray(value)) throw new FileRejected(`${where}: expected a list of matcher groups`)
  const handlers: FileHandler[] = []
  value.forEach((rawGroup, groupIndex) => {
    const groupWhere = `${where}[${groupIndex}]`
    const group = Group.safeParse(rawGroup)
    if (!group.success) throw new FileRejected(fieldError(groupWhere, group.error))
    for (const key of Object.keys(group.data)) {
      if (!GROUP_KEYS.has(key)) warnings.push(`${file}: ${groupWhere}.${key} is not a Codex field; ignored`)
    }
    const matcher = group.data.matcher ?? undefined
    const problem = matcherError('codex', matcher)
    if (problem !== undefined) {
      warnings.push(`${file}: ${groupWhere}.matcher: ${problem}; this group is skipped (as in Codex)`)
      // Still validate its handlers: a malformed handler drops the file even in a skipped group.
    }
    if (matcher !== undefined && matcher !== '' && matcher !== '*' && MATCHERLESS.has(event)) {
      warnings.push(`${file}: ${groupWhere}.matcher is ignored: ${event} hooks always run`)
    }
    group.data.hooks.forEach((rawHandler, handlerIndex) => {
      const handlerWhere = `${groupWhere}.hooks[${handlerIndex}]`
      const parsed = Handler.safeParse(rawHandler)
      if (!parsed.success) throw new FileRejected(fieldError(handlerWhere, parsed.error))
      const handler = parsed.data
      if (problem !== undefined) return
      if (handler.type === 'prompt' || handler.type === 'agent') {
        warnings.push(`${file}: ${handlerWhere}: "${handler.type}" handlers are not supported yet (Codex skips them too); skipped`)
        return
      }
      if (handler.type === 'mcp_tool') {
        warnings.push(`${file}: ${handlerWhere}: Seam does not run "mcp_tool" handlers; skipped`)
        return
      }
      for (const key of Object.keys(handler)) {
        if (COMMAND_KEYS.has(key)) continue
        const meant = IGNORED_KEYS[key]
        warnings.push(
          meant
            ? `${file}: ${handlerWhere}.${key} is ignored (Codex reads "${meant}")`
            : `${file}: ${handlerWhere}.${key} is not a Codex handler field; ignored`
        )
      }
      const command = (platform === 'win32' && handler.commandWindows ? handler.commandWindows : handler.command) ?? ''
      if (command.trim() === '') {
        warnings.push(`${file}: ${handlerWhere}: the command is blank; skipped (as in Codex)`)
        return
      }
      const entry: FileHandler = {
        event,
        command,
        // Codex: default 600 s, minimum 1 (0 becomes 1).
        timeoutSec: handler.timeout == null ? defaultTimeoutSec : Math.max(1, handler.timeout),
        async: handler.async === true,
        sourceFile: file,
        key: `${file}:${snakeCase(event)}:${groupIndex}:${handlerIndex}`
      }
      if (matcher !== undefined) entry.matcher = matcher
      if (handler.statusMessage != null) entry.statusMessage = handler.statusMessage
      handlers.push(entry)
    })
  })
  return handlers
}

function unknownEventWarning(file: string, name: string): string {
  const normalized = name.replace(/[_-]/g, '').toLowerCase()
  const meant = CODEX_HOOK_EVENTS.find((event) => event.toLowerCase() === normalized)
  if (meant) return `${file}: hooks.${name} is ignored: event names must be PascalCase ("${meant}")`
  return `${file}: hooks.${name} is not a Codex hook event; ignored`
}

export function snakeCase(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()
}

/** `where.field.path: message; ...`, so a warning names the exact field. */
function fieldError(where: string, error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const suffix = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')
      const field = `${where}${suffix}`.replace(/^\./, '')
      return `${field || '(top level)'}: ${issue.message}`
    })
    .join('; ')
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function firstLine(text: string): string {
  return text.split('\n')[0]
}
