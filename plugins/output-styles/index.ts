// @seam/output-styles: Claude Code's output styles (discover.ts). The style the `outputStyle`
// setting names (`.claude/settings.local.json`, then `.claude/settings.json` once the workspace is
// trusted, then `~/.claude/settings.json`) becomes a section of the system prompt, re-read at each
// session's start. See README.md.
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { definePlugin, type Disposable } from '@seam/sdk'
import { discoverStyles, selectStyle, type OutputStyle } from './discover'

export { discoverStyles, selectStyle, type OutputStyle } from './discover'

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

/** `outputStyle` of the most specific settings file that sets it, with that file; problems name the file. */
export function outputStyleSetting(files: ReadonlyArray<string>): { value?: string; file?: string; problems: string[] } {
  const problems: string[] = []
  for (const file of files) {
    let raw: unknown
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file}: ${(error as Error).message}; its outputStyle is ignored`)
      continue
    }
    const value = (raw as { outputStyle?: unknown } | null)?.outputStyle
    if (value === undefined) continue
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${file}: outputStyle: expected the name of an output style; ignored`)
      continue
    }
    return { value, file, problems }
  }
  return { problems }
}

/** The system prompt section a style makes. */
export function styleSection(style: OutputStyle): string {
  return `# Output style: ${style.name}\n\n${style.body}`
}

export default definePlugin({
  name: 'output-styles',
  schema: OutputStylesConfigSchema,
  inject: ['workspace', 'prompt'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const home = config.home ?? homedir()
    const userSettings = config.userSettingsPath ?? join(home, '.claude', 'settings.json')
    let section: { text: string; dispose: Disposable } | undefined

    /** Finds the style in force for `root` and puts it in the system prompt (or takes it out); returns what to tell the session. */
    const apply = (root: string | null): string[] => {
      const trusted = root !== null && root === workspace.root && workspace.trusted
      const files = [...(root !== null && trusted ? [join(root, '.claude', 'settings.local.json'), join(root, '.claude', 'settings.json')] : []), userSettings]
      const setting = outputStyleSetting(files)
      const notices = [...setting.problems]
      let text: string | undefined
      if (setting.value !== undefined && setting.value.toLowerCase() !== 'default') {
        const found = discoverStyles({ home, workspace: root, trusted, plugins: root !== null ? (ctx.maybe('claudePlugins')?.list(root) ?? []) : [] })
        notices.push(...found.problems)
        const style = selectStyle(found.styles, setting.value)
        if (style) text = styleSection(style)
        else notices.push(`${setting.file}: outputStyle: no output style "${setting.value}" (found: ${found.styles.map((s) => s.name).join(', ') || 'none'}); the default is used`)
      }
      if (section?.text !== text) {
        section?.dispose()
        section = undefined
        if (text !== undefined) section = { text, dispose: ctx.prompt.section(PROMPT_SECTION, text) }
      }
      return notices
    }
    apply(workspace.root)
    ctx.on('agent/session-start', (agent) => {
      for (const notice of apply(workspace.root ?? agent.workspace)) agent.notify('warn', notice, 'output-styles')
    })
  }
})
