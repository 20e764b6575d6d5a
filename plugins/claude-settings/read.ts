// Reads the parts of Claude Code's settings files that are not hooks: `permissions` (allow, deny,
// ask, defaultMode, additionalDirectories) and `env`, from the same files and in the same order
// as the hooks bridge (user, project, local; the workspace's files only once it is trusted).
//
// A file that fails the settings validation is dropped whole, its permissions and env too, as
// Claude Code does (claude-code-hooks.md §2.1); the decision is the hooks bridge's own
// (`loadSettingsJson`), so hooks and permissions of one file always stand or fall together.
// Inside a valid file, one malformed rule, directory or variable is reported with its file and
// index and ignored; the rest loads.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parsePermissionRule } from '../hook-protocol/index'
import { loadSettingsJson, type SourceKind } from '../hooks-claude/settings-loader'
import { formatIssuePath } from '@seam/sdk'
import { claudeWorkspaceSettingsFiles } from '@seam/sdk/node'

/**
 * Which settings file a value came from; also the configuration order (later overrides scalars).
 * `seam`: the user's Seam rules (`<Seam home>/permissions.json`, where "Always allow everywhere" saves).
 */
export type ClaudeSource = SourceKind
export type RuleBehavior = 'allow' | 'deny' | 'ask'

/** Claude Code's permission modes (the values of `permissions.defaultMode`). */
export const CLAUDE_PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const
export type ClaudePermissionMode = (typeof CLAUDE_PERMISSION_MODES)[number]

interface Origin {
  source: ClaudeSource
  /** The settings file, absolute. */
  file: string
}

export interface SettingsRule extends Origin {
  behavior: RuleBehavior
  rule: string
  /** Position in the file's `permissions.<behavior>` list. */
  index: number
}

export interface SettingsDirectory extends Origin {
  /** As written. */
  path: string
  /** Absolute: `~/` is the home folder, a relative path is relative to the workspace. */
  resolved: string
  index: number
}

export interface SettingsEnvVar extends Origin {
  name: string
  value: string
}

export interface SettingsFileStatus extends Origin {
  /** unapproved: a workspace file that changed since the user approved it (trust pinning); not applied. */
  status: 'missing' | 'loaded' | 'invalid' | 'untrusted' | 'unapproved'
  /** Why an invalid file was dropped, naming the field. */
  problem?: string
}

export interface ClaudeSettingsSnapshot {
  /** Every rule of every loaded file, in configuration order (user, project, local; then allow, deny, ask). */
  readonly rules: readonly SettingsRule[]
  /** The `defaultMode` in force: the last loaded file that sets one (local > project > user). */
  readonly defaultMode?: Origin & { mode: ClaudePermissionMode }
  readonly additionalDirectories: readonly SettingsDirectory[]
  /** The variables in force, one per name: a later file overrides an earlier one. */
  readonly env: readonly SettingsEnvVar[]
  /** The workspace folder (what `/x` rule patterns and relative directories resolve against). */
  readonly workspaceRoot: string | null
  readonly files: readonly SettingsFileStatus[]
  /** Problems the user must see, each naming the file and the field. */
  readonly warnings: readonly string[]
}

export interface ReadOptions {
  userSettingsPath: string
  /** The user's Seam rules, in the settings files' shape (`{"permissions": {"allow": [...]}}`); user-level, no trust needed. */
  seamRulesPath?: string
  workspaceRoot: string | null
  trusted: boolean
  home: string
  /** In a trusted workspace, whether this file's settings are what the user approved; default: all are. */
  approvedFile?: (file: string) => boolean
}

export { claudeWorkspaceSettingsFiles as workspaceSettingsFiles } from '@seam/sdk/node'

/** Every file the snapshot reads, in configuration order. */
export function settingsFiles(options: Pick<ReadOptions, 'userSettingsPath' | 'workspaceRoot' | 'seamRulesPath'>): Array<Origin> {
  const files: Origin[] = [{ source: 'user', file: options.userSettingsPath }]
  if (options.seamRulesPath !== undefined) files.push({ source: 'seam', file: options.seamRulesPath })
  if (options.workspaceRoot !== null) {
    const { project, local } = claudeWorkspaceSettingsFiles(options.workspaceRoot)
    files.push({ source: 'project', file: project }, { source: 'local', file: local })
  }
  return files
}

/** Reads every file now (synchronously: settings files are small). Never throws. */
export function readClaudeSettings(options: ReadOptions): ClaudeSettingsSnapshot {
  const rules: SettingsRule[] = []
  const additionalDirectories: SettingsDirectory[] = []
  const env = new Map<string, SettingsEnvVar>()
  const files: SettingsFileStatus[] = []
  const warnings: string[] = []
  let defaultMode: ClaudeSettingsSnapshot['defaultMode']
  for (const origin of settingsFiles(options)) {
    if (isWorkspaceSource(origin.source) && !options.trusted) {
      files.push({ ...origin, status: 'untrusted' })
      continue
    }
    if (isWorkspaceSource(origin.source) && options.approvedFile && !options.approvedFile(origin.file)) {
      files.push({ ...origin, status: 'unapproved' })
      warnings.push(
        `Claude Code settings: ${origin.file} changed since you trusted this workspace, so its permissions and env are not applied. Review and approve the change in the workspace trust dialog (Settings → Workspace; headless: --trust-workspace).`
      )
      continue
    }
    const json = readJson(origin.file)
    if (json.status !== 'loaded') {
      files.push(json.problem === undefined ? { ...origin, status: json.status } : { ...origin, status: json.status, problem: json.problem })
      if (json.problem !== undefined) warnings.push(`Claude Code settings: ${origin.file} was skipped: ${json.problem}`)
      continue
    }
    const validity = loadSettingsJson(json.value, origin.file, origin.source)
    if (validity.status === 'invalid') {
      const problem = validity.problem ?? 'invalid'
      files.push({ ...origin, status: 'invalid', problem })
      warnings.push(`Claude Code settings: ${origin.file} was skipped (its permissions and env too): ${problem}`)
      continue
    }
    files.push({ ...origin, status: 'loaded' })
    const read = readFile(json.value as Record<string, unknown>, origin, options)
    rules.push(...read.rules)
    additionalDirectories.push(...read.directories)
    for (const variable of read.env) env.set(variable.name, variable)
    if (read.defaultMode !== undefined) defaultMode = { ...origin, mode: read.defaultMode }
    warnings.push(...read.warnings)
  }
  const snapshot: ClaudeSettingsSnapshot = { rules, additionalDirectories, env: [...env.values()], workspaceRoot: options.workspaceRoot, files, warnings }
  return defaultMode === undefined ? snapshot : { ...snapshot, defaultMode }
}

/** The workspace's own files (project, local): applied only once the workspace is trusted. */
export function isWorkspaceSource(source: ClaudeSource): boolean {
  return source === 'project' || source === 'local'
}

type JsonRead = { status: 'loaded'; value: unknown } | { status: 'missing' | 'invalid'; problem?: string }

function readJson(file: string): JsonRead {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' }
    return { status: 'invalid', problem: `cannot be read: ${(error as Error).message}` }
  }
  try {
    return { status: 'loaded', value: JSON.parse(text) }
  } catch (error) {
    return { status: 'invalid', problem: `is not valid JSON: ${(error as Error).message}` }
  }
}

interface FileRead {
  rules: SettingsRule[]
  directories: SettingsDirectory[]
  env: SettingsEnvVar[]
  defaultMode?: ClaudePermissionMode
  warnings: string[]
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** One valid file's permissions and env; each malformed item is a warning naming file and index. */
function readFile(json: Record<string, unknown>, origin: Origin, options: ReadOptions): FileRead {
  const out: FileRead = { rules: [], directories: [], env: [], warnings: [] }
  const warn = (where: PropertyKey[], problem: string): void => void out.warnings.push(`Claude Code settings: ${origin.file}: ${formatIssuePath(where)} ${problem}`)

  const permissions = json.permissions
  if (permissions !== undefined) {
    if (!isRecord(permissions)) warn(['permissions'], `is ${describe(permissions)}, not an object; it is ignored`)
    else {
      for (const behavior of ['allow', 'deny', 'ask'] as const) {
        const list = permissions[behavior]
        if (list === undefined) continue
        if (!Array.isArray(list)) {
          warn(['permissions', behavior], `is ${describe(list)}, not a list of rules; it is ignored`)
          continue
        }
        list.forEach((rule: unknown, index) => {
          const problem = ruleProblem(rule)
          if (problem !== undefined) warn(['permissions', behavior, index], `${problem}; this rule is ignored`)
          else out.rules.push({ ...origin, behavior, rule: (rule as string).trim(), index })
        })
      }
      const mode = permissions.defaultMode
      if (mode !== undefined) {
        if (typeof mode === 'string' && (CLAUDE_PERMISSION_MODES as readonly string[]).includes(mode)) out.defaultMode = mode as ClaudePermissionMode
        else warn(['permissions', 'defaultMode'], `is ${describe(mode)}, not one of ${CLAUDE_PERMISSION_MODES.join(', ')}; it is ignored`)
      }
      const directories = permissions.additionalDirectories
      if (directories !== undefined) {
        if (!Array.isArray(directories)) warn(['permissions', 'additionalDirectories'], `is ${describe(directories)}, not a list of folders; it is ignored`)
        else {
          directories.forEach((dir: unknown, index) => {
            if (typeof dir !== 'string' || dir.trim() === '') warn(['permissions', 'additionalDirectories', index], `is ${describe(dir)}, not a folder path; it is ignored`)
            else out.directories.push({ ...origin, path: dir, resolved: resolveDirectory(dir, options), index })
          })
        }
      }
    }
  }

  const env = json.env
  if (env !== undefined) {
    if (!isRecord(env)) warn(['env'], `is ${describe(env)}, not an object of variables; it is ignored`)
    else {
      for (const [name, value] of Object.entries(env)) {
        if (!ENV_NAME.test(name)) warn(['env', name], 'is not a valid environment variable name; it is ignored')
        else if (typeof value !== 'string') warn(['env', name], `is ${describe(value)}, not a string; it is ignored`)
        else out.env.push({ ...origin, name, value })
      }
    }
  }
  return out
}

/**
 * Why `rule` is not a Claude Code permission rule, or undefined. Besides the `Tool(specifier)`
 * shape (the same parser as a hook's `if`), a tool name starts with an uppercase letter unless it
 * is an MCP tool (`mcp__server__tool`), as Claude Code's own rule validation requires.
 */
export function ruleProblem(rule: unknown): string | undefined {
  if (typeof rule !== 'string') return `is ${describe(rule)}, not a rule`
  if (rule.trim() === '') return 'is empty, not a rule'
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok) return parsed.error
  if (!parsed.tool.startsWith('mcp__') && !/^[A-Z]/.test(parsed.tool)) {
    return `invalid permission rule ${JSON.stringify(rule)}: tool names start with an uppercase letter (or are mcp__server__tool)`
  }
  return undefined
}

/** An `additionalDirectories` entry as an absolute path: `~` is the home, relative is from the workspace. */
export function resolveDirectory(dir: string, options: Pick<ReadOptions, 'home' | 'workspaceRoot'>): string {
  const trimmed = dir.trim()
  if (trimmed === '~') return options.home
  if (trimmed.startsWith('~/')) return path.join(options.home, trimmed.slice(2))
  return path.resolve(options.workspaceRoot ?? options.home, trimmed)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
  if (typeof value === 'object') return 'an object'
  return `${typeof value} ${String(value)}`
}
