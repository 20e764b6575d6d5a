// Composing the running plugin tree: the base profile, then each patch layer in order. Every
// mistake fails the whole composition with a ProfileError naming the file and the line, so a bad
// layer never half-applies.
import { Document, stringify } from 'yaml'
import { formatIssuePath } from '../../src-shared/validation'
import { parsePatch, where, type PatchRow } from './patch'
import { profileEntrySchema, ProfileError, type ComposedEntry, type PluginCatalog, type ProfileEntry } from './profile'

export interface PatchLayer {
  /** Shown in errors and in the dump; usually the absolute path. */
  file: string
  text: string
}

export const BASE_PROFILE = 'base profile'

export function composeProfile(base: readonly ProfileEntry[], layers: readonly PatchLayer[], catalog: PluginCatalog): ComposedEntry[] {
  const entries: ComposedEntry[] = []
  base.forEach((raw, index) => {
    const fail = (message: string, field?: string): never => {
      throw new ProfileError(`${BASE_PROFILE}: entry ${index + 1}: ${message}`, BASE_PROFILE, undefined, field)
    }
    const parsed = profileEntrySchema.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      fail(`${formatIssuePath(issue.path)}: ${issue.message}`, formatIssuePath(issue.path))
    }
    const entry = parsed.data as ProfileEntry
    const origin = `${BASE_PROFILE} entry ${index + 1}`
    const existing = entries.find((e) => e.id === entry.id)
    if (existing) fail(`duplicate id "${entry.id}" (also ${existing.origin})`, 'id')
    const problem = checkPlugin(entry, catalog)
    if (problem) fail(describeProblem(problem), formatIssuePath(problem.path))
    entries.push({ ...entry, origin })
  })
  for (const layer of layers) {
    for (const row of parsePatch(layer.file, layer.text)) applyRow(entries, layer.file, row, catalog)
  }
  return entries
}

function applyRow(entries: ComposedEntry[], file: string, row: PatchRow, catalog: PluginCatalog): void {
  const fail = (message: string, path: readonly PropertyKey[] = []): never => {
    const line = row.lineOf(path)
    throw new ProfileError(`${where(file, line)}: row ${row.row}: ${message}`, file, line, path.length ? formatIssuePath(path) : undefined)
  }
  const indexOf = (id: string, path: readonly PropertyKey[]): number => {
    const at = entries.findIndex((e) => e.id === id)
    if (at < 0) fail(`unknown id "${id}"${known(entries)}`, path)
    return at
  }
  const action = row.action
  switch (action.kind) {
    case 'insert': {
      let at = entries.length
      if (action.before !== undefined) at = indexOf(action.before, ['before'])
      if (action.after !== undefined) at = indexOf(action.after, ['after']) + 1
      const added: ComposedEntry[] = []
      action.entries.forEach((entry, i) => {
        const clash = entries.find((e) => e.id === entry.id) ?? added.find((e) => e.id === entry.id)
        if (clash) fail(`duplicate id "${entry.id}": already defined at ${clash.origin}`, ['insert', i, 'id'])
        const problem = checkPlugin(entry, catalog)
        if (problem) fail(describeProblem(problem, ['insert', i]), ['insert', i, ...problem.path])
        added.push({ ...entry, origin: where(file, row.lineOf(['insert', i])) })
      })
      entries.splice(at, 0, ...added)
      return
    }
    case 'remove': {
      entries.splice(indexOf(action.id, ['id']), 1)
      return
    }
    case 'update': {
      const at = indexOf(action.id, ['id'])
      const next: ComposedEntry = { ...entries[at], origin: where(file, row.line) }
      if (action.config) {
        if (action.config.value === undefined) delete next.config
        else next.config = action.config.value
      }
      if (action.disabled !== undefined) next.disabled = action.disabled
      if (action.config || next.disabled !== true) {
        const problem = checkPlugin(next, catalog)
        if (problem) fail(`id "${action.id}": ${describeProblem(problem)}`, action.config ? problem.path : ['disabled'])
      }
      entries[at] = next
      return
    }
  }
}

interface PluginProblem {
  /** Path of the failing field inside the entry (`['plugin']`, `['config', 'timeoutMs']`). */
  path: PropertyKey[]
  text: string
}

function describeProblem(problem: PluginProblem, prefix: readonly PropertyKey[] = []): string {
  return `${formatIssuePath([...prefix, ...problem.path])}: ${problem.text}`
}

/**
 * The plugin key must be in the catalog and the config must pass its schema. A disabled entry
 * may name a plugin that is not in the catalog (a bundle that is disabled or not installed yet):
 * it is checked when something enables it.
 */
function checkPlugin(entry: ProfileEntry, catalog: PluginCatalog): PluginProblem | undefined {
  const found = catalog.get(entry.plugin)
  if (!found) {
    if (entry.disabled) return undefined
    const names = [...catalog.keys()].sort()
    return { path: ['plugin'], text: `unknown plugin "${entry.plugin}" (available: ${names.join(', ') || 'none'})` }
  }
  const schema = found.plugin.schema
  if (!schema) return undefined
  const result = schema.safeParse(entry.config)
  if (result.success) return undefined
  const issue = result.error.issues[0]
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : ''
  return { path: ['config', ...issue.path], text: `${issue.message}${more}` }
}

function known(entries: readonly ComposedEntry[]): string {
  const ids = entries.map((e) => e.id)
  if (ids.length === 0) return ' (the profile is empty)'
  return ` (known ids: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', ...' : ''})`
}

/**
 * A stable, human-readable YAML dump of the composed tree: one item per entry with id, plugin,
 * disabled and config (keys sorted), each preceded by a comment naming where it came from.
 */
export function dumpProfile(entries: readonly (ProfileEntry | ComposedEntry)[]): string {
  const doc = new Document(
    entries.map((entry) => {
      const item: Record<string, unknown> = { id: entry.id, plugin: entry.plugin, disabled: entry.disabled ?? false }
      if (entry.config !== undefined) item.config = sortKeys(entry.config)
      return item
    })
  )
  const seq = doc.contents as unknown as { items: { commentBefore?: string }[] }
  entries.forEach((entry, i) => {
    if ('origin' in entry && entry.origin) seq.items[i].commentBefore = ` from ${entry.origin}`
  })
  return entries.length === 0 ? stringify([]) : doc.toString({ lineWidth: 0 })
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])])
    )
  }
  return value
}
