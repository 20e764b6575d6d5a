// The contract's theme method, answered by src-main/app/theme-handlers.ts through the `themes`
// service of plugins/themes: every Claude Code theme of the enabled plugins and `~/.claude/themes`,
// already mapped onto Seam's CSS variables, and Claude Code's own `theme` preference. Which theme
// is in force is a UI preference the renderer keeps (src-renderer/app/theme.ts).
import { z } from 'zod'

export const ThemeEntrySchema = z.object({
  /** `custom:<slug>` (a user theme) or `<plugin>@<marketplace>:<slug>`. */
  id: z.string(),
  name: z.string(),
  base: z.string(),
  scheme: z.enum(['light', 'dark']),
  /** `user` or `name@marketplace`. */
  source: z.string(),
  file: z.string(),
  /** CSS variable name (`--bg`) to a colour; only variables tokens.css defines. */
  variables: z.record(z.string().regex(/^--[a-z0-9-]+$/), z.string().regex(/^#[0-9a-f]{6}$/)),
  adjustments: z.array(z.string()),
  warnings: z.array(z.string())
})
export type ThemeEntryView = z.output<typeof ThemeEntrySchema>

export const ThemesViewSchema = z.object({
  /** false: the themes entry of the plugin tree is off; the rest is empty. */
  available: z.boolean(),
  themes: z.array(ThemeEntrySchema),
  problems: z.array(z.string()),
  /** Claude Code's `theme` in `~/.claude.json`, and the Seam choice it maps to (`light`, `dark`, `system` or a theme id). */
  claudeCode: z.object({ value: z.string(), file: z.string(), choice: z.string().optional() }).optional()
})
export type ThemesViewData = z.output<typeof ThemesViewSchema>

export const ThemeMethods = {
  /** Every plugin and user theme, mapped; a theme that cannot be read is a problem naming its file and field. */
  'themes/list': { input: z.object({}).strict(), output: ThemesViewSchema }
} as const
