// @seam/themes: Claude Code themes as Seam's UI colours. Lists every theme of the enabled Claude
// Code plugins (`themes/`, or the manifest's `experimental.themes`) and of `~/.claude/themes`, each
// checked (theme-file.ts) and mapped onto Seam's CSS variables (mapping.ts), with what Claude
// Code's own `theme` preference (`~/.claude.json`) says. The renderer applies the one chosen and
// keeps the choice (Settings → Theme). See README.md.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { definePlugin, type Disposable, type InstalledPlugin } from '@seam/sdk'
import { readSettingsJson } from '@seam/sdk/node'
import { mapTheme } from './mapping'
import { readThemeFile, type ParsedTheme, type ThemeBase } from './theme-file'

export { mapTheme, SEAM_SCHEMES, TOKEN_MAP, MIN_CONTRAST } from './mapping'
export { parseThemeText, readThemeFile, THEME_BASES } from './theme-file'
export { parseColour, contrast } from './colours'

export const ThemesConfigSchema = z
  .object({
    /** The home holding `.claude/themes` and `.claude.json` (Claude Code's preferences); default the user's home. */
    home: z.string().optional(),
    /** Edits within this many milliseconds are told as one change. */
    debounceMs: z.number().int().min(0).max(10_000).default(100)
  })
  .strict()
  .prefault({})

/** One theme the settings page offers. */
export interface ThemeEntry {
  /** `custom:<slug>` for a user theme (Claude Code's own preference value); `<plugin>@<marketplace>:<slug>` for a plugin's. */
  id: string
  name: string
  base: ThemeBase
  scheme: 'light' | 'dark'
  /** `user` (`~/.claude/themes`) or the plugin, `name@marketplace` (or its name when loaded from a folder). */
  source: string
  file: string
  /** Seam variables the theme sets (hex). */
  variables: Record<string, string>
  /** Colours moved for contrast, in words. */
  adjustments: string[]
  /** Overrides ignored (not a colour), naming file and field. */
  warnings: string[]
}

/** Claude Code's `theme` preference and what it picks in Seam. */
export interface ClaudeCodeTheme {
  value: string
  file: string
  /** `light`, `dark`, `system` or a theme's id; absent when it names no theme Seam has. */
  choice?: string
}

export interface ThemesView {
  themes: ThemeEntry[]
  /** Theme files skipped (file and field) and unreadable folders. */
  problems: string[]
  claudeCode?: ClaudeCodeTheme
}

export interface ThemesService {
  view(): ThemesView
  /**
   * Called (at most once per `debounceMs`) when a theme file or folder changes on disk, or the
   * enabled plugins change: the host tells the window, which lists the themes again.
   */
  onChange(listener: () => void): Disposable
}

declare module '@seam/sdk' {
  interface Services {
    themes: ThemesService
  }
}

export default definePlugin({
  name: 'themes',
  schema: ThemesConfigSchema,
  inject: ['workspace'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const home = config.home ?? homedir()
    const plugins = () => ctx.maybe('claudePlugins')?.list(workspace.root ?? home) ?? []
    const listeners = new Set<() => void>()
    let timer: ReturnType<typeof setTimeout> | undefined
    const changed = () => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = undefined
        for (const listener of [...listeners]) listener()
      }, config.debounceMs)
      timer.unref?.()
    }
    // Claude Code watches its themes folder and repaints on an edit; Seam watches every folder a listed theme comes from.
    let watchers: FSWatcher[] = []
    const rearm = () => {
      for (const watcher of watchers) watcher.close()
      watchers = []
      const folders = new Set([join(home, '.claude', 'themes'), ...plugins().flatMap((plugin) => (plugin.themes ?? []).map((path) => (/\.json$/i.test(path) ? dirname(path) : path)))])
      const add = (folder: string, listener: (event: string, name: string | null) => void) => {
        try {
          // Not persistent: watching never keeps a headless run (seam run, the ACP agent) from exiting.
          const watcher = watch(folder, { persistent: false }, listener)
          // A folder removed while watched: the next plugin change re-arms.
          watcher.on('error', () => watcher.close())
          watchers.push(watcher)
        } catch {
          // The folder does not exist (yet): nothing to watch.
        }
      }
      for (const folder of folders) add(folder, changed)
      // `~/.claude` or `~/.claude/themes` made (or removed) after the start: watch them from then on.
      const madeLater = (wanted: string) => (_event: string, name: string | null) => {
        if (name !== wanted) return
        rearm()
        changed()
      }
      add(home, madeLater('.claude'))
      add(join(home, '.claude'), madeLater('themes'))
    }
    // Armed by the first listener (a window): a headless run (seam run, the ACP agent) shows no theme
    // and so lists no plugins and watches nothing at its start.
    let offPlugins: (() => void) | undefined
    let armed = false
    const arm = () => {
      if (armed) return
      armed = true
      rearm()
      offPlugins = ctx.maybe('claudePlugins')?.onChange(() => {
        rearm()
        changed()
      })
    }
    ctx.onDispose(() => {
      offPlugins?.()
      for (const watcher of watchers) watcher.close()
      if (timer) clearTimeout(timer)
      listeners.clear()
    })
    ctx.provide('themes', {
      view: () => listThemes(home, plugins()),
      onChange(listener) {
        listeners.add(listener)
        arm()
        return () => void listeners.delete(listener)
      }
    } satisfies ThemesService)
  }
})

/** Every theme of `~/.claude/themes` and of the plugins, in that order, and Claude Code's preference. */
export function listThemes(home: string, plugins: readonly InstalledPlugin[]): ThemesView {
  const themes: ThemeEntry[] = []
  const problems: string[] = []
  const add = (file: string, source: string, id: (theme: ParsedTheme) => string) => {
    const read = readThemeFile(file)
    if (read.problem !== undefined) return void problems.push(read.problem)
    const { theme } = read
    const mapped = mapTheme(theme)
    themes.push({ id: id(theme), name: theme.name, base: theme.base, scheme: theme.scheme, source, file, variables: mapped.variables, adjustments: mapped.adjustments, warnings: theme.warnings })
  }
  for (const file of jsonFiles(join(home, '.claude', 'themes'))) add(file, 'user', (theme) => `custom:${theme.slug}`)
  for (const plugin of plugins) {
    const source = plugin.marketplace !== undefined ? `${plugin.name}@${plugin.marketplace}` : plugin.name
    for (const path of plugin.themes ?? []) {
      for (const file of /\.json$/i.test(path) ? [path] : jsonFiles(path)) add(file, source, (theme) => `${source}:${theme.slug}`)
    }
  }
  const claudeCode = claudeCodeTheme(join(home, '.claude.json'), themes, problems)
  return { themes, problems, ...(claudeCode ? { claudeCode } : {}) }
}

/**
 * Claude Code keeps the `/theme` choice as `theme` in `~/.claude.json`: a built-in name (`dark`,
 * `light`, their `-daltonized` and `-ansi` forms), `auto` (follow the terminal) or
 * `custom:<slug>` for `~/.claude/themes/<slug>.json`. Seam reads it (never writes that file) as the
 * choice to start from when the user has made none in Seam.
 */
function claudeCodeTheme(file: string, themes: readonly ThemeEntry[], problems: string[]): ClaudeCodeTheme | undefined {
  const read = readSettingsJson(file)
  if (read.problem !== undefined) {
    problems.push(`${read.problem}; its theme is ignored`)
    return undefined
  }
  const value = (read.data as { theme?: unknown } | null | undefined)?.theme
  if (value === undefined) return undefined
  if (typeof value !== 'string') {
    problems.push(`${file}: theme: expected a theme name; ignored`)
    return undefined
  }
  const found: ClaudeCodeTheme = { value, file }
  if (value === 'auto') found.choice = 'system'
  else if (/^dark(-daltonized|-ansi)?$/.test(value)) found.choice = 'dark'
  else if (/^light(-daltonized|-ansi)?$/.test(value)) found.choice = 'light'
  else if (value.startsWith('custom:')) {
    const slug = value.slice('custom:'.length)
    // A user theme of that slug; else (how Claude Code names a plugin's theme is not recorded) a plugin theme of that file name.
    const theme = themes.find((t) => t.id === value) ?? themes.find((t) => t.id.endsWith(`:${slug}`))
    if (theme) found.choice = theme.id
  }
  return found
}

function jsonFiles(dir: string): string[] {
  let entries: string[]
  try {
    entries = readdirSync(dir).sort()
  } catch {
    return []
  }
  return entries
    .filter((entry) => /\.json$/i.test(entry))
    .map((entry) => join(dir, entry))
    .filter((file) => {
      try {
        return statSync(file).isFile()
      } catch {
        return false
      }
    })
}
