// The two keys of Claude Code's settings files that concern plugins (cc:settings-reference.md):
// `enabledPlugins` ({"plugin@marketplace": true|false}) and `extraKnownMarketplaces`
// ({name: {source, autoUpdate?}}), from the user's `~/.claude/settings.json` and, once the
// workspace is trusted, its `.claude/settings.json` and `.claude/settings.local.json`.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { MarketplaceSourceSchema, type MarketplaceSource } from './marketplace'

export type SettingsScope = 'user' | 'project' | 'local'

const PluginSettingsSchema = z
  .object({
    enabledPlugins: z.record(z.string(), z.boolean()).optional(),
    extraKnownMarketplaces: z.record(z.string(), z.object({ source: MarketplaceSourceSchema, autoUpdate: z.boolean().optional() }).passthrough()).optional()
  })
  .passthrough()

export interface PluginSettingsFile {
  scope: SettingsScope
  file: string
  enabledPlugins: Record<string, boolean>
  extraKnownMarketplaces: Record<string, MarketplaceSource>
  /** Why the file's plugin keys were not used (bad JSON, a bad field). */
  problem?: string
}

export function settingsFiles(userSettingsPath: string, workspace: string | null, trusted: boolean): Array<{ scope: SettingsScope; file: string }> {
  const files: Array<{ scope: SettingsScope; file: string }> = [{ scope: 'user', file: userSettingsPath }]
  if (workspace !== null && trusted) {
    files.push({ scope: 'project', file: join(workspace, '.claude', 'settings.json' ) }, { scope: 'local', file: join(workspace, '.claude', 'settings.local.json') })
  }
  return files
}

export function readPluginSettings(scope: SettingsScope, file: string): PluginSettingsFile {
  const empty: PluginSettingsFile = { scope, file, enabledPlugins: {}, extraKnownMarketplaces: {} }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? empty : { ...empty, problem: `${file}: cannot be read: ${(error as Error).message}` }
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    return { ...empty, problem: `${file}: not valid JSON: ${(error as Error).message}; its enabledPlugins and extraKnownMarketplaces are ignored` }
  }
  const parsed = PluginSettingsSchema.safeParse(raw)
  if (!parsed.success) return { ...empty, problem: `${formatZodError(file, parsed.error)}; its enabledPlugins and extraKnownMarketplaces are ignored` }
  const markets = Object.fromEntries(Object.entries(parsed.data.extraKnownMarketplaces ?? {}).map(([name, value]) => [name, value.source]))
  return { ...empty, enabledPlugins: parsed.data.enabledPlugins ?? {}, extraKnownMarketplaces: markets }
}

/** A cheap fingerprint of files: size and mtime of each (missing: `-`). */
export function filesStamp(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const stat = statSync(file)
        return `${stat.size}:${stat.mtimeMs}`
      } catch {
        return '-'
      }
    })
    .join('|')
}
