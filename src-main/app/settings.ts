// Seam's own settings file (<Seam home>/settings.json), validated on load and on every change.
// A file that fails to load is never replaced: loading reports the field and keeps the defaults
// in memory, and every change is refused (naming the file and the problem) until the user fixes
// or deletes the file and restarts Seam.
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { ApprovalModeSchema, ProviderKindSchema } from '../../src-shared/contract/setting-kinds'
import { formatZodError } from '../../src-shared/validation'
import { CompactionSettingsSchema, ModelTableSchema } from '../../src-shared/model-table'
import { ToolEnvSettingsSchema } from '../security/keys'
import { writeFileAtomic } from './atomic-file'

export const SeamSettingsSchema = z.object({
  approvalMode: ApprovalModeSchema.default('ask-side-effects'),
  maxParallelToolCalls: z.number().int().min(1).max(64).default(10),
  maxSteps: z.number().int().min(1).max(1000).default(50),
  hookConcurrency: z.number().int().min(1).max(64).default(8),
  /** Desktop notifications when Seam needs the user and its window is not focused (an approval, a turn's end). */
  desktopNotifications: z.boolean().default(true),
  /** Seconds a finished turn waits for the user before Claude Code's Notification hook fires with `idle_prompt` (Claude Code: 60). */
  idlePromptSeconds: z.number().positive().max(86_400).default(60),
  /** The desktop app checks its release feed for a newer version (packaged builds with a feed only). Off unless turned on. */
  autoUpdate: z.boolean().default(false),
  workspace: z.string().nullable().default(null),
  trustedWorkspaces: z.array(z.string()).default([]),
  provider: z
    .object({ provider: ProviderKindSchema, baseUrl: z.string().url(), model: z.string().min(1) })
    .nullable()
    .default(null),
  /** Context window and prices (USD per million tokens) per model name, over the built-in defaults. */
  models: ModelTableSchema.default({}),
  /** Automatic compaction before a request that would fill more than `threshold` of the context window. */
  compaction: CompactionSettingsSchema.prefault({}),
  /** The base URL each stored provider key was saved with, by provider kind: the key is sent nowhere else. */
  keyBaseUrls: z.record(z.string(), z.string()).default({}),
  /** Tool and hook process environments: more variables to strip, key variables to let back in. */
  toolEnv: ToolEnvSettingsSchema.default({ strip: [], allow: [], mcpServers: {} }),
  /** Claude Code-shaped hooks declared in Seam's own settings (same shape as .claude/settings.json "hooks"). */
  hooks: z.record(z.string(), z.unknown()).optional(),
  /** User-level MCP servers (the .mcp.json `mcpServers` shape); each entry is validated by the mcp plugin. */
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  /** MCP servers the user disabled (by name). */
  mcpDisabled: z.array(z.string()).default([]),
  /** Channels whose messages reach sessions (Claude Code's `--channels` entries: `plugin:<name>@<marketplace>`, `server:<name>`); plugins/channels checks each. */
  channels: z.array(z.string()).default([])
})
export type SeamSettings = z.infer<typeof SeamSettingsSchema>

export class SettingsFile {
  private current: SeamSettings
  readonly loadError?: string

  constructor(readonly path: string) {
    const { settings, error } = readSettings(path)
    this.current = settings
    this.loadError = error
  }

  get value(): Readonly<SeamSettings> {
    return this.current
  }

  update(patch: Partial<SeamSettings>): SeamSettings {
    if (this.loadError) {
      const message = `${this.loadError}; Seam will not overwrite ${this.path}: fix or delete it, then restart Seam`
      throw Object.assign(new Error(message), { code: 'SETTINGS_UNREADABLE' })
    }
    const next = SeamSettingsSchema.safeParse({ ...this.current, ...patch })
    if (!next.success) throw new Error(formatZodError('settings', next.error))
    this.current = next.data
    writeFileAtomic(this.path, JSON.stringify(this.current, null, 2) + '\n')
    return this.current
  }
}

function readSettings(path: string): { settings: SeamSettings; error?: string } {
  const defaults = SeamSettingsSchema.parse({})
  if (!existsSync(path)) return { settings: defaults }
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { settings: defaults, error: `${path}: cannot be read (${(error as Error).message})` }
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    return { settings: defaults, error: `${path}: not valid JSON (${(error as Error).message})` }
  }
  const parsed = SeamSettingsSchema.safeParse(raw)
  if (!parsed.success) return { settings: defaults, error: formatZodError(path, parsed.error) }
  return { settings: parsed.data }
}
