// Adds permission rules to a Claude Code settings file, as Claude Code's "always allow" and a
// PermissionRequest hook's `updatedPermissions` do: the rules are appended to
// `permissions.<behavior>` (those already there are not repeated) and everything else in the
// file stays as it was. The file is written whole and atomically (a temp file, then a rename), so
// a crash leaves the old file or the new one, never half of one. A file Seam cannot read as a
// settings object (invalid JSON, `permissions` that is not an object, a list that is not a list)
// is left untouched and the write fails with an error naming the file and the field.
import { readFileSync } from 'node:fs'
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
  rules.forEach((rule, index) => {
    const problem = ruleProblem(rule)
    if (problem !== undefined) throw new SettingsWriteError(`rules[${index}] ${problem}; nothing was written to ${file}`)
  })
  const settings = readSettingsObject(file)
  const permissions = settings.permissions ?? {}
  if (!isRecord(permissions)) throw new SettingsWriteError(`${file}: "permissions" is ${describe(permissions)}, not an object; Seam will not overwrite it (fix the file, then try again)`)
  const list = permissions[behavior] ?? []
  if (!Array.isArray(list)) throw new SettingsWriteError(`${file}: "permissions.${behavior}" is ${describe(list)}, not a list; Seam will not overwrite it (fix the file, then try again)`)
  const present = new Set(list.filter((item): item is string => typeof item === 'string'))
  const added = [...new Set(rules)].filter((rule) => !present.has(rule))
  if (added.length === 0) return { file, added }
  // Keys keep their order: a new `permissions` goes last, a new list last inside it.
  const next = { ...settings, permissions: { ...permissions, [behavior]: [...list, ...added] } }
  writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, 0o644)
  return { file, added }
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
