// Where Codex hooks come from (codex-hooks.md §2): $CODEX_HOME first, then the `.codex/` folder of
// every directory from the repository root (the nearest ancestor with `.git`, else the workspace)
// down to the working directory; within one folder `hooks.json` before `config.toml`. Everything
// is merged. Files are small and read synchronously, so the trust dialog can list them at once.
import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TrustItem } from '@seam/sdk'
import { parseConfigToml, parseHooksJson, type ParsedHookFile } from './hook-files'
import type { CodexHandler, LayerScope, LoadedHooks, SkippedHandler } from './types'

export interface DiscoveryInput {
  codexHome: string
  /** The session's workspace folder. */
  workspace: string
  /** The session's working directory. */
  cwd: string
  /** Whether project-level (workspace) hooks may run. */
  trusted: boolean
  /** In a trusted workspace, whether a project hook is what the user approved; default: all are. */
  approved?: (item: TrustItem) => boolean
  defaultTimeoutSec: number
}

/** How the trust dialog names these items. */
export const TRUST_SOURCE = 'Codex hooks'

/** A project hook as a trust item: its command shown, its whole definition hashed. */
export function codexTrustItem(handler: Omit<CodexHandler, 'scope' | 'order'>): TrustItem {
  const content = JSON.stringify({ timeoutSec: handler.timeoutSec, async: handler.async, statusMessage: handler.statusMessage ?? null })
  const item: TrustItem = { source: TRUST_SOURCE, file: handler.sourceFile, event: handler.event, command: handler.command, content }
  if (handler.matcher !== undefined) item.matcher = handler.matcher
  return item
}

export interface HookFileRef {
  file: string
  kind: 'json' | 'toml'
  scope: LayerScope
  /** Folder the file belongs to: a layer. */
  layer: string
}

/** Events Seam maps onto a seam; hooks for the others are loaded but never run. */
export const MAPPED_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'SessionEnd'])

export function defaultCodexHome(configured?: string): string {
  const home = configured ?? process.env.CODEX_HOME ?? path.join(os.homedir(), '.codex')
  return path.resolve(expandHome(home))
}

/** The nearest ancestor of `cwd` (itself included) holding `.git`, else `undefined`. */
export function repositoryRoot(cwd: string): string | undefined {
  let dir = path.resolve(cwd)
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir
    const parent = path.dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/** Directories whose `.codex/` folder is a project layer, root first. */
export function projectDirs(workspace: string, cwd: string): string[] {
  const target = path.resolve(cwd)
  const ws = path.resolve(workspace)
  const top = repositoryRoot(target) ?? (isWithin(target, ws) ? ws : target)
  const dirs: string[] = []
  for (let dir = target; ; dir = path.dirname(dir)) {
    dirs.unshift(dir)
    if (dir === top || path.dirname(dir) === dir) break
  }
  return dirs
}

/** Every file to look at, in Codex's order (existing or not). */
export function hookFiles(codexHome: string, workspace: string, cwd: string): HookFileRef[] {
  const home = path.resolve(codexHome)
  const refs: HookFileRef[] = layerFiles(home, 'user')
  for (const dir of projectDirs(workspace, cwd)) {
    const layer = path.join(dir, '.codex')
    if (layer === home) continue // the user layer already (a workspace at ~)
    refs.push(...layerFiles(layer, 'project'))
  }
  return refs
}

function layerFiles(layer: string, scope: LayerScope): HookFileRef[] {
  return [
    { file: path.join(layer, 'hooks.json'), kind: 'json', scope, layer },
    { file: path.join(layer, 'config.toml'), kind: 'toml', scope, layer }
  ]
}

/** Reads and parses one file; `undefined` when it does not exist. */
export function readHookFile(ref: HookFileRef, defaultTimeoutSec: number): ParsedHookFile | undefined {
  let text: string
  try {
    text = readFileSync(ref.file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    return { handlers: [], warnings: [`${ref.file}: cannot be read (${(error as Error).message}); ignored`], declaresHooks: false, state: {} }
  }
  return ref.kind === 'json' ? parseHooksJson(ref.file, text, defaultTimeoutSec) : parseConfigToml(ref.file, text, defaultTimeoutSec)
}

export function loadHooks(input: DiscoveryInput): LoadedHooks {
  const refs = hookFiles(input.codexHome, input.workspace, input.cwd)
  const warnings: string[] = []
  const all: CodexHandler[] = []
  const skipped: SkippedHandler[] = []
  const untrusted = new Set<CodexHandler>()
  const declaredIn = new Map<string, string[]>()
  let state: ParsedHookFile['state'] = {}
  let featureHooks: { value: boolean; file: string } | undefined

  for (const ref of refs) {
    const parsed = readHookFile(ref, input.defaultTimeoutSec)
    if (!parsed) continue
    const loads = ref.scope === 'user' || input.trusted
    // Codex does not load an untrusted project layer at all: neither its hooks nor its features.
    if (loads) {
      warnings.push(...parsed.warnings)
      if (parsed.featureHooks !== undefined) featureHooks = { value: parsed.featureHooks, file: ref.file }
      if (ref.scope === 'user') state = { ...state, ...parsed.state }
      else if (Object.keys(parsed.state).length > 0) warnings.push(`${ref.file}: hooks.state is only read from the user config ($CODEX_HOME/config.toml); ignored`)
      if (parsed.declaresHooks) declaredIn.set(ref.layer, [...(declaredIn.get(ref.layer) ?? []), ref.file])
    }
    for (const handler of parsed.handlers) {
      const full: CodexHandler = { ...handler, scope: ref.scope, order: all.length }
      all.push(full)
      if (!loads) untrusted.add(full)
    }
  }
  for (const [layer, files] of declaredIn) {
    if (files.length > 1) warnings.push(`${layer}: loading hooks from both ${files.map((f) => path.basename(f)).join(' and ')}; prefer a single representation`)
  }

  const handlers: CodexHandler[] = []
  const approved = input.approved ?? (() => true)
  for (const handler of all) {
    if (untrusted.has(handler)) skipped.push({ handler, why: 'untrusted' })
    else if (handler.scope === 'project' && !approved(codexTrustItem(handler))) skipped.push({ handler, why: 'unapproved' })
    else if (state[handler.key]?.enabled === false) skipped.push({ handler, why: 'disabled' })
    else handlers.push(handler)
  }
  const unmapped = new Map<string, Set<string>>()
  for (const handler of handlers) {
    if (MAPPED_EVENTS.has(handler.event)) continue
    const files = unmapped.get(handler.event) ?? new Set<string>()
    files.add(handler.sourceFile)
    unmapped.set(handler.event, files)
  }

  const loaded: LoadedHooks = {
    handlers,
    skipped,
    warnings,
    unmapped: [...unmapped].map(([event, files]) => ({ event, files: [...files] })),
    files: refs.map((ref) => ref.file)
  }
  if (featureHooks?.value === false) {
    loaded.disabledBy = featureHooks.file
    loaded.handlers = []
  }
  return loaded
}

/** Every command declared in the workspace's `.codex/` folders, for the trust dialog. */
export function projectCommands(codexHome: string, workspace: string, defaultTimeoutSec: number): TrustItem[] {
  return hookFiles(codexHome, workspace, workspace)
    .filter((ref) => ref.scope === 'project')
    .flatMap((ref) => readHookFile(ref, defaultTimeoutSec)?.handlers ?? [])
    .map(codexTrustItem)
}

export function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}

function expandHome(value: string): string {
  if (value === '~') return os.homedir()
  return value.startsWith('~/') ? path.join(os.homedir(), value.slice(2)) : value
}
