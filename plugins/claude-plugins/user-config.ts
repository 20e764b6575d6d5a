// A plugin's `userConfig` (plugin.json): the options the user is asked for when the plugin is
// enabled, their values kept per plugin in Seam's home, and the `${user_config.KEY}` variables
// they become. claude-code-extensions.md §1(c) records only "userConfig: prompted when the plugin
// is enabled"; the option fields, where values live and how they reach the plugin's processes are
// Seam's choices, written down in README.md ("userConfig").
import { readFileSync, rmSync } from 'node:fs'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { writeFileAtomic } from '@seam/sdk/node'

export const USER_CONFIG_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/

/** A plugin variable as written in its files: `${CLAUDE_PLUGIN_ROOT}` or `${user_config.KEY}`. */
export const PLUGIN_VARIABLE = /\$\{([A-Z_]+|user_config\.[A-Za-z_][A-Za-z0-9_]*)\}/g

/** What a sensitive value is shown as, wherever a person or the model would see it. */
export const SENSITIVE_MASK = '••••••'

export const UserConfigOptionSchema = z
  .object({
    type: z.enum(['string', 'number', 'boolean', 'directory', 'file']).default('string'),
    title: z.string().optional(),
    description: z.string().optional(),
    /** Kept out of everything shown or sent to the model: masked in lists, the form and the trust dialog. */
    sensitive: z.boolean().default(false),
    required: z.boolean().default(false),
    default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    min: z.number().optional(),
    max: z.number().optional()
  })
  .passthrough()
export type UserConfigOption = z.output<typeof UserConfigOptionSchema>

export const UserConfigSchema = z.record(z.string().regex(USER_CONFIG_KEY, 'a userConfig key is letters, digits and "_" (it is written as ${user_config.KEY})'), UserConfigOptionSchema)
export type UserConfig = z.output<typeof UserConfigSchema>

export type UserConfigValue = string | number | boolean
const StoredSchema = z.object({ version: z.literal(1), values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) })

/** One option as the plugin manager and the CLI show it: a sensitive value is never included, only whether it is set. */
export interface UserConfigField {
  key: string
  type: UserConfigOption['type']
  title?: string
  description?: string
  sensitive: boolean
  required: boolean
  /** A value is stored (or the option has a default). */
  set: boolean
  /** The value in effect; absent for a sensitive option. */
  value?: UserConfigValue
}

export class UserConfigError extends Error {}

/** One file per plugin (PluginStore.userConfigFile), 0600 in a 0700 folder: every value of that plugin. */
export class UserConfigStore {
  constructor(readonly file: (plugin: string, marketplace: string | undefined) => string) {}

  read(plugin: string, marketplace: string | undefined): Record<string, UserConfigValue> {
    const file = this.file(plugin, marketplace)
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw error
    }
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch (error) {
      throw new UserConfigError(`${file}: not valid JSON: ${(error as Error).message}`)
    }
    const parsed = StoredSchema.safeParse(raw)
    if (!parsed.success) throw new UserConfigError(formatZodError(file, parsed.error))
    return parsed.data.values
  }

  /** Validates `changes` against `options` (errors name the key), merges them into what is stored and writes the file whole. */
  write(plugin: string, marketplace: string | undefined, options: UserConfig, changes: Readonly<Record<string, unknown>>): Record<string, UserConfigValue> {
    const next = { ...this.read(plugin, marketplace) }
    for (const [key, raw] of Object.entries(changes)) {
      const option = options[key]
      if (option === undefined) throw new UserConfigError(`userConfig.${key}: the plugin has no such option (it has ${Object.keys(options).join(', ') || 'none'})`)
      if (raw === null || raw === '') {
        delete next[key]
        continue
      }
      next[key] = coerceValue(key, option, raw)
    }
    writeFileAtomic(this.file(plugin, marketplace), `${JSON.stringify({ version: 1, values: next }, null, 2)}\n`, 0o600)
    return next
  }

  /** Forgets every value of a plugin (on uninstall). */
  remove(plugin: string, marketplace: string | undefined): void {
    rmSync(this.file(plugin, marketplace), { force: true })
  }
}

/** A value typed in (a string from the CLI or the form) or sent as JSON, checked against its option. */
export function coerceValue(key: string, option: UserConfigOption, raw: unknown): UserConfigValue {
  const field = `userConfig.${key}`
  switch (option.type) {
    case 'number': {
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN
      if (!Number.isFinite(value)) throw new UserConfigError(`${field}: expected a number, got ${JSON.stringify(raw)}`)
      if (option.min !== undefined && value < option.min) throw new UserConfigError(`${field}: ${value} is below the minimum ${option.min}`)
      if (option.max !== undefined && value > option.max) throw new UserConfigError(`${field}: ${value} is above the maximum ${option.max}`)
      return value
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw
      if (typeof raw === 'string' && /^(true|yes|y|on|1)$/i.test(raw.trim())) return true
      if (typeof raw === 'string' && /^(false|no|n|off|0)$/i.test(raw.trim())) return false
      throw new UserConfigError(`${field}: expected true or false, got ${JSON.stringify(raw)}`)
    }
    default: {
      if (typeof raw !== 'string') throw new UserConfigError(`${field}: expected text, got ${JSON.stringify(raw)}`)
      if (/[\r\n\0]/.test(raw)) throw new UserConfigError(`${field}: a value is one line (no newline or NUL)`)
      return raw
    }
  }
}

/** Each option with its value in effect (stored, else default), the sensitive ones masked. */
export function userConfigFields(options: UserConfig, stored: Readonly<Record<string, UserConfigValue>>): UserConfigField[] {
  return Object.entries(options).map(([key, option]) => {
    const value = stored[key] ?? option.default
    const field: UserConfigField = { key, type: option.type, sensitive: option.sensitive, required: option.required, set: value !== undefined }
    if (option.title !== undefined) field.title = option.title
    if (option.description !== undefined) field.description = option.description
    if (value !== undefined && !option.sensitive) field.value = value
    return field
  })
}

/** The required options with no value and no default. */
export function missingOptions(options: UserConfig, stored: Readonly<Record<string, UserConfigValue>>): string[] {
  return Object.entries(options).flatMap(([key, option]) => (option.required && stored[key] === undefined && option.default === undefined ? [key] : []))
}

/**
 * `user_config.KEY` → value, for substitution. `sensitiveAs` replaces a sensitive value (the
 * trust dialog and model-visible text get a mask; processes get the value, `undefined`).
 */
export function userConfigVars(options: UserConfig, stored: Readonly<Record<string, UserConfigValue>>, sensitiveAs?: string): Record<string, string> {
  const vars: Record<string, string> = {}
  for (const [key, option] of Object.entries(options)) {
    const value = stored[key] ?? option.default
    if (value === undefined) continue
    if (option.sensitive && sensitiveAs !== undefined) {
      vars[`user_config.${key}`] = sensitiveAs
      continue
    }
    vars[`user_config.${key}`] = String(value)
  }
  return vars
}
