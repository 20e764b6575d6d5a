// Changes the permissions of a Claude Code settings file, as Claude Code's "always allow" and a
// PermissionRequest hook's `updatedPermissions` do: rules appended to `permissions.<behavior>`
// (those already there are not repeated), removed from it, or put in its place;
// `permissions.defaultMode` set; folders added to or removed from
// `permissions.additionalDirectories`. Everything else in the file stays as it was. The file is written whole and atomically (a temp file, then a rename), so
// a crash leaves the old file or the new one, never half of one. A file Seam cannot read as a
// settings object (invalid JSON, `permissions` that is not an object, a list that is not a list)
// is left untouched and the write fails with an error naming the file and the field.
import { readFileSync } from 'node:fs'
import type { PermissionUpdate } from '@seam/sdk'
import { writeFileAtomic } from '@seam/sdk/node'
import { ruleProblem, type RuleBehavior } from './read'

export class SettingsWriteError extends Error {
  override readonly name = 'SettingsWriteError'
}

export interface RulesWritten {
  file: string
  /** The rules that were not in the list yet, in the order given. */
  added: string[]
}

/** Appends `rules` to `permissions.<behavior>` of `file` (created when missing). Throws SettingsWriteError, writing nothing, on any problem. */
export function addPermissionRules(file: string, behavior: RuleBehavior, rules: readonly string[]): RulesWritten {
  const changed = updatePermissions(file, { behavior, rules: [...rules], destination: 'localSettings' })
  return { file, added: changed.added }
}

export interface PermissionsWritten {
  file: string
  /** Rules or folders the file did not hold and now does. */
  added: string[]
  /** Rules or folders it held and no longer does. */
  removed: string[]
  /** The `defaultMode` now written, when the update set one. */
  mode?: string
}

/**
 * Applies one permission update (its `destination` is the caller's business: `file` is where it
 * goes) to `file`, created when missing. Throws SettingsWriteError, writing nothing, on any problem;
 * writes nothing when the file already says what the update asks.
 */
export function updatePermissions(file: string, update: PermissionUpdate): PermissionsWritten {
  if ('rules' in update) {
    update.rules.forEach((rule, index) => {
      const problem = ruleProblem(rule)
      if (problem !== undefined) throw new SettingsWriteError(`rules[${index}] ${problem}; nothing was written to ${file}`)
    })
  }
  const settings = readSettingsObject(file)
  const permissions = settings.permissions ?? {}
  if (!isRecord(permissions)) throw new SettingsWriteError(`${file}: "permissions" is ${describe(permissions)}, not an object; Seam will not overwrite it (fix the file, then try again)`)
  const listAt = (key: string): unknown[] => {
    const list = permissions[key] ?? []
    if (!Array.isArray(list)) throw new SettingsWriteError(`${file}: "permissions.${key}" is ${describe(list)}, not a list; Seam will not overwrite it (fix the file, then try again)`)
    return list
  }
  let key: string
  let value: unknown
  const written: PermissionsWritten = { file, added: [], removed: [] }
  if (update.type === 'setMode') {
    if (permissions.defaultMode === update.mode) return written
    key = 'defaultMode'
    value = update.mode
    written.mode = update.mode
  } else {
    key = 'rules' in update ? update.behavior : 'additionalDirectories'
    const list = listAt(key)
    const items = 'rules' in update ? update.rules : update.directories
    const present = new Set(list.filter((item): item is string => typeof item === 'string'))
    const given = new Set(items)
    let next: unknown[]
    if (update.type === 'removeRules' || update.type === 'removeDirectories') {
      next = list.filter((item) => !(typeof item === 'string' && given.has(item)))
      written.removed = [...present].filter((item) => given.has(item))
    } else if (update.type === 'replaceRules') {
      next = [...given]
      written.added = [...given].filter((item) => !present.has(item))
      written.removed = [...present].filter((item) => !given.has(item))
    } else {
      written.added = [...given].filter((item) => !present.has(item))
      next = [...list, ...written.added]
    }
    if (written.added.length === 0 && written.removed.length === 0 && next.length === list.length) return written
    value = next
  }
  // Keys keep their order: a new `permissions` goes last, a new key last inside it.
  writeFileAtomic(file, `${JSON.stringify({ ...settings, permissions: { ...permissions, [key]: value } }, null, 2)}\n`, 0o644)
  return written
}

/** The file's top-level object; `{}` when it does not exist. */
function readSettingsObject(file: string): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return {}
    throw new SettingsWriteError(`${file} cannot be read (${(error as Error).message}); nothing was written`)
  }
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new SettingsWriteError(`${file} is not valid JSON (${(error as Error).message}); Seam will not overwrite it (fix the file, then try again)`)
  }
  if (!isRecord(value)) throw new SettingsWriteError(`${file} holds ${describe(value)}, not a settings object; Seam will not overwrite it (fix the file, then try again)`)
  return value
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
