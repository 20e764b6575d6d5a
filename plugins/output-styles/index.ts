// @seam/output-styles: Claude Code's output styles (discover.ts, builtins.ts). The style the
// `outputStyle` setting names (`.claude/settings.local.json`, then `.claude/settings.json` once the
// workspace is trusted, then `~/.claude/settings.json`) becomes a section of the system prompt.
// It is read again at each session's start, when one of those files changes, and at once when the
// `outputStyles` service switches it (the settings page), so a switch applies from the next turn.
// See README.md.
import { homedir } from 'node:os'
import { z } from 'zod'
import { definePlugin, type Disposable } from '@seam/sdk'
import { claudeSettingsFiles, claudeUserSettingsPath, claudeWorkspaceSettingsFiles, readSettingsJson, setSettingsKey, watchPatchFiles } from '@seam/sdk/node'
import { DEFAULT_STYLE } from './builtins'
import { discoverStyles, selectStyle, type OutputStyle, type StyleSource } from './discover'

export { discoverStyles, selectStyle, type OutputStyle, type StyleSource } from './discover'
export { BUILTIN_STYLES, DEFAULT_STYLE } from './builtins'

export const OutputStylesConfigSchema = z
  .object({
    /** Claude Code's user settings file; default `~/.claude/settings.json`. */
    userSettingsPath: z.string().optional(),
    /** The home whose `.claude/output-styles` holds the user's styles; default the user's home. */
    home: z.string().optional()
  })
  .strict()
  .prefault({})

export const PROMPT_SECTION = 'output-style'

/** One style as the settings page lists it. */
export interface OutputStyleEntry {
  name: string
  description?: string
  source: StyleSource
  file?: string
}

/** Every style of the workspace, the one in force, and where a switch is saved. */
export interface OutputStylesView {
  styles: OutputStyleEntry[]
  /** The name of the style in force (`Default` when none is set or the one set is not found). */
  current: string
  /** What `outputStyle` says and the file that says it, when one does. */
  setting?: { value: string; file: string }
  /** The settings file a switch writes: the workspace's `.claude/settings.local.json` once trusted (as Claude Code does), else the user's. */
  saveTo: string
  /** Unreadable files, bad front matter, an `outputStyle` that names no style. */
  problems: string[]
}

/** What the settings page and other host parts use. */
export interface OutputStylesService {
  view(): OutputStylesView
  /** Saves `outputStyle` = `name` and applies it now (from the next turn); throws, naming the style, when there is none of that name. */
  select(name: string): OutputStylesView
  /** Resolves once edits of the settings files are watched (an edit before that applies at the next session start). */
  readonly watching: Promise<void>
}

declare module '@seam/sdk' {
  interface Services {
    outputStyles: OutputStylesService
  }
}

/** `outputStyle` of the most specific settings file that sets it, with that file; problems name the file. `files`: most specific first. */
export function outputStyleSetting(files: ReadonlyArray<string>): { value?: string; file?: string; problems: string[] } {
  const problems: string[] = []
  for (const file of files) {
    const read = readSettingsJson(file)
    if (read.problem !== undefined) {
      problems.push(`${read.problem}; its outputStyle is ignored`)
      continue
    }
    const value = (read.data as { outputStyle?: unknown } | null | undefined)?.outputStyle
    if (value === undefined) continue
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${file}: outputStyle: expected the name of an output style; ignored`)
      continue
    }
    return { value, file, problems }
  }
  return { problems }
}

/** The system prompt section a style makes (none for an empty body: Default). */
export function styleSection(style: OutputStyle): string | undefined {
  return style.body === '' ? undefined : `# Output style: ${style.name}\n\n${style.body}`
}

export default definePlugin({
  name: 'output-styles',
  schema: OutputStylesConfigSchema,
  inject: ['workspace', 'prompt'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const home = config.home ?? homedir()
    const userSettings = claudeUserSettingsPath(config.userSettingsPath, home)
    let section: { text: string; dispose: Disposable } | undefined

    /** The styles and the setting in force for `root`. */
    const resolve = (root: string | null): OutputStylesView & { style?: OutputStyle } => {
      const trusted = root !== null && root === workspace.root && workspace.trusted
      const files = claudeSettingsFiles(userSettings, root, trusted).map((f) => f.file).reverse()
      const setting = outputStyleSetting(files)
      const found = discoverStyles({ home, workspace: root, trusted, plugins: root !== null ? (ctx.maybe('claudePlugins')?.list(root) ?? []) : [] })
      const problems = [...setting.problems, ...found.problems]
      let style: OutputStyle | undefined
      if (setting.value !== undefined) {
        style = selectStyle(found.styles, setting.value)
        if (!style) problems.push(`${setting.file}: outputStyle: no output style "${setting.value}" (found: ${found.styles.map((s) => s.name).join(', ')}); the default is used`)
      }
      return {
        styles: found.styles.map(({ name, description, source, file }) => ({ name, source, ...(description !== undefined ? { description } : {}), ...(file !== undefined ? { file } : {}) })),
        current: style?.name ?? DEFAULT_STYLE,
        ...(setting.value !== undefined && setting.file !== undefined ? { setting: { value: setting.value, file: setting.file } } : {}),
        saveTo: trusted && root !== null ? claudeWorkspaceSettingsFiles(root).local : userSettings,
        problems,
        ...(style ? { style } : {})
      }
    }

    /** Puts the style in force for `root` into the system prompt (or takes it out); returns what to tell the session. */
    const apply = (root: string | null): OutputStylesView => {
      const { style, ...view } = resolve(root)
      const text = style ? styleSection(style) : undefined
      if (section?.text !== text) {
        section?.dispose()
        section = undefined
        if (text !== undefined) section = { text, dispose: ctx.prompt.section(PROMPT_SECTION, text) }
      }
      return view
    }
    apply(workspace.root)
    // An edit of a settings file (by hand, by Claude Code, by another Seam window) applies from the next turn.
    const watched = claudeSettingsFiles(userSettings, workspace.root, workspace.trusted).map((f) => f.file)
    const watcher = watchPatchFiles(watched, () => apply(workspace.root), { debounceMs: 60 })
    ctx.onDispose(watcher)
    ctx.on('agent/session-start', (agent) => {
      for (const notice of apply(workspace.root ?? agent.workspace).problems) agent.notify('warn', notice, 'output-styles')
    })

    ctx.provide('outputStyles', {
      view: () => apply(workspace.root),
      select(name) {
        const { styles, saveTo } = resolve(workspace.root)
        const style = selectStyle(styles.map((entry) => ({ ...entry, body: '' })), name)
        if (!style) throw Object.assign(new Error(`no output style "${name}" (found: ${styles.map((entry) => entry.name).join(', ')})`), { field: 'name' })
        setSettingsKey(saveTo, 'outputStyle', style.name)
        return apply(workspace.root)
      },
      watching: watcher.ready
    } satisfies OutputStylesService)
  }
})
