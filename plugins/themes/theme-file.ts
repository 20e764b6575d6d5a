// A Claude Code theme file (`themes/*.json` of a plugin, `~/.claude/themes/*.json`):
// `{ "$schema"?, "name"?, "base"?, "overrides"? }`. `name` is the label (default: the file's name
// without `.json`), `base` the built-in preset it starts from (default `dark`), `overrides` a map
// of colour tokens to colour values. A file that is not JSON, or whose `name`, `base` or
// `overrides` has the wrong shape, is skipped with a problem naming the file and the field. As in
// Claude Code, one override whose value is not a colour is ignored and the rest of the theme
// applies; Seam also says so (a warning naming `overrides.<token>`). Unknown tokens are ignored
// silently, as Claude Code does: its token set grows and published themes carry newer ones.
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { COLOUR_FORMS, parseColour, type Rgb } from './colours'

export const THEME_BASES = ['dark', 'light', 'dark-daltonized', 'light-daltonized', 'dark-ansi', 'light-ansi'] as const
export type ThemeBase = (typeof THEME_BASES)[number]

export const ThemeFileSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
    base: z.enum(THEME_BASES).optional(),
    overrides: z.record(z.string(), z.unknown()).optional()
  })
  .passthrough()

export interface ParsedTheme {
  /** The file's name without `.json`: Claude Code's slug (`custom:<slug>` for a user theme). */
  slug: string
  name: string
  base: ThemeBase
  /** Seam's scheme the theme starts from: a `dark*` base is dark, a `light*` base light. */
  scheme: 'dark' | 'light'
  /** Each valid override, resolved to sRGB (ANSI forms through the scheme's palette). */
  colours: Record<string, Rgb>
  file: string
  /** Overrides ignored, each naming the file and `overrides.<token>`. */
  warnings: string[]
}

export type ThemeRead = { theme: ParsedTheme; problem?: undefined } | { theme?: undefined; problem: string }

/** Reads and checks one theme file; a problem (file and field, "skipped") when it cannot be used. */
export function readThemeFile(file: string): ThemeRead {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return { problem: `${file}: cannot be read: ${(error as Error).message}; skipped` }
  }
  return parseThemeText(file, text)
}

export function parseThemeText(file: string, text: string): ThemeRead {
  let raw: unknown
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    return { problem: `${file}: not JSON: ${(error as Error).message}; skipped` }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { problem: `${file}: expected a JSON object with name, base and overrides; skipped` }
  const parsed = ThemeFileSchema.safeParse(raw)
  if (!parsed.success) return { problem: `${formatZodError(file, parsed.error)}; skipped` }
  const slug = basename(file).replace(/\.json$/i, '')
  const base = parsed.data.base ?? 'dark'
  const scheme = base.startsWith('light') ? 'light' : 'dark'
  const colours: Record<string, Rgb> = {}
  const warnings: string[] = []
  for (const [token, value] of Object.entries(parsed.data.overrides ?? {})) {
    const rgb = typeof value === 'string' ? parseColour(value, scheme) : undefined
    if (rgb) colours[token] = rgb
    else warnings.push(`${file}: overrides.${token}: ${JSON.stringify(value)} is not a colour (${COLOUR_FORMS}); ignored, the base's colour is kept`)
  }
  return { theme: { slug, name: parsed.data.name ?? slug, base, scheme, colours, file, warnings } }
}
