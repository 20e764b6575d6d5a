// Output styles as Claude Code keeps them: `~/.claude/output-styles/*.md` (user),
// `<workspace>/.claude/output-styles/*.md` (project, once the workspace is trusted) and each enabled
// plugin's `output-styles/` (or its manifest's `outputStyles`), named `plugin:name`. A style is a
// Markdown file whose front matter may give `name` and `description`; its body is the text that
// changes the system prompt. Claude Code's built-in styles (builtins.ts) come after them, so a
// file of the same name wins. The `outputStyle` key of the settings files (local, then project,
// then user) selects one by name.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { formatZodError, type InstalledPlugin } from '@seam/sdk'
import { BUILTIN_STYLES } from './builtins'

export type StyleSource = 'project' | 'user' | `plugin:${string}` | 'built-in'

export interface OutputStyle {
  /** What `outputStyle` names: the front matter `name`, else the file's name; `plugin:name` for a plugin's. */
  name: string
  description?: string
  source: StyleSource
  /** The Markdown file; none for a built-in style. */
  file?: string
  /** What goes into the system prompt; empty for Default. */
  body: string
}

const FrontMatterSchema = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    'keep-coding-instructions': z.boolean().optional()
  })
  .passthrough()

export interface StyleRoots {
  home: string
  workspace: string | null
  trusted: boolean
  plugins: readonly InstalledPlugin[]
}

/** Every style found, project first, then user, then plugins, then the built-in ones; and what could not be read (file and field). */
export function discoverStyles(roots: StyleRoots): { styles: OutputStyle[]; problems: string[] } {
  const styles: OutputStyle[] = []
  const problems: string[] = []
  const add = (file: string, source: StyleSource, prefix?: string) => {
    const style = readStyle(file, source, prefix, problems)
    if (style) styles.push(style)
  }
  if (roots.workspace !== null && roots.trusted) for (const file of markdownFiles(join(roots.workspace, '.claude', 'output-styles'))) add(file, 'project')
  for (const file of markdownFiles(join(roots.home, '.claude', 'output-styles'))) add(file, 'user')
  for (const plugin of roots.plugins) {
    for (const path of plugin.outputStyles ?? []) for (const file of /\.md$/i.test(path) ? [path] : markdownFiles(path)) add(file, `plugin:${plugin.name}`, plugin.name)
  }
  styles.push(...BUILTIN_STYLES)
  return { styles, problems }
}

/** The style `wanted` names: exact, then case-insensitive; a plugin's also by its bare name. The first found wins (project, user, plugins, built-in). */
export function selectStyle(styles: readonly OutputStyle[], wanted: string): OutputStyle | undefined {
  const bare = (style: OutputStyle) => (style.source.startsWith('plugin:') ? style.name.slice(style.name.indexOf(':') + 1) : style.name)
  return (
    styles.find((s) => s.name === wanted) ??
    styles.find((s) => s.name.toLowerCase() === wanted.toLowerCase()) ??
    styles.find((s) => bare(s).toLowerCase() === wanted.toLowerCase())
  )
}

function readStyle(file: string, source: StyleSource, prefix: string | undefined, problems: string[]): OutputStyle | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    problems.push(`${file}: cannot be read: ${(error as Error).message}`)
    return undefined
  }
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  let front: z.output<typeof FrontMatterSchema> = {}
  if (match) {
    let raw: unknown
    try {
      raw = parseYaml(match[1]) ?? {}
    } catch (error) {
      problems.push(`${file}: front matter is not YAML: ${(error as Error).message}; skipped`)
      return undefined
    }
    const parsed = FrontMatterSchema.safeParse(raw)
    if (!parsed.success) {
      problems.push(`${formatZodError(file, parsed.error)}; skipped`)
      return undefined
    }
    front = parsed.data
  }
  const own = front.name ?? basename(file).replace(/\.md$/i, '')
  const style: OutputStyle = { name: prefix ? `${prefix}:${own}` : own, source, file, body: (match ? text.slice(match[0].length) : text.replace(/^\uFEFF/, '')).trim() }
  if (front.description !== undefined) style.description = front.description
  return style
}

function markdownFiles(dir: string): string[] {
  let entries: string[]
  try {
    entries = readdirSync(dir).sort()
  } catch {
    return []
  }
  return entries.filter((entry) => /\.md$/i.test(entry)).map((entry) => join(dir, entry)).filter((file) => {
    try {
      return statSync(file).isFile()
    } catch {
      return false
    }
  })
}
