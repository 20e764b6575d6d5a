// The two keys of Claude Code's settings files that concern plugins (cc:settings-reference.md):
// `enabledPlugins` ({"plugin@marketplace": true|false}) and `extraKnownMarketplaces`
// ({name: {source, autoUpdate?}}), from the user's `~/.claude/settings.json` and, once the
// workspace is trusted, its `.claude/settings.json` and `.claude/settings.local.json`.
import { statSync } from 'node:fs'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { claudeSettingsFiles, readSettingsJson, type ClaudeSettingsScope } from '@seam/sdk/node'
import { MarketplaceSourceSchema, type MarketplaceSource } from './marketplace'

export type SettingsScope = ClaudeSettingsScope

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

/** The files, least specific first (user; project and local once trusted). */
export const settingsFiles = claudeSettingsFiles

export function readPluginSettings(scope: SettingsScope, file: string): PluginSettingsFile {
  const empty: PluginSettingsFile = { scope, file, enabledPlugins: {}, extraKnownMarketplaces: {} }
  const read = readSettingsJson(file)
  if (read.problem !== undefined) return { ...empty, problem: `${read.problem}; its enabledPlugins and extraKnownMarketplaces are ignored` }
  if (read.data === undefined) return empty
  const raw = read.data
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
