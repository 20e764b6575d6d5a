// Where skills are found, and which one a name means. Highest precedence first:
//   1. personal  ~/.claude/skills/<name>/SKILL.md      (Claude Code: personal beats project)
//   2. project   .claude/skills/<name>/SKILL.md, from the workspace up to the repository root,
//                the folder nearest the workspace first
//   3. agents-user     ~/.agents/skills                (Codex and other agents' user folder)
//   4. agents-project  .agents/skills, workspace up to the repository root
//   5. codex-user      ~/.codex/skills ($CODEX_HOME/skills; Codex's older user folder)
//   plugin: <plugin>/skills/<name>/SKILL.md (or a SKILL.md at a skills path), named
//   `<plugin>:<name>`, so they never clash with the others.
// The command name comes from the folder (a plugin skill's from its front matter `name` when it has
// one). A name found again lower down is ignored and the clash is reported; a SKILL.md that is not
// valid is reported (file and field) and skipped. Files are re-read when their size or mtime changes.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { InstalledPlugin } from '@seam/sdk'
import { listingDescription, readSkillFile, type ParsedSkillFile, type SkillFileProblem, type SkillFrontMatter } from './front-matter'

export type SkillScope = 'personal' | 'project' | 'agents-user' | 'agents-project' | 'codex-user' | 'plugin'

export interface Skill {
  /** What `/name` and the Skill tool's `skill` take: the folder's name, or `plugin:name`. */
  name: string
  scope: SkillScope
  /** Where it was found, in words (`project .claude/skills`). */
  origin: string
  /** The skill's folder: `${CLAUDE_SKILL_DIR}`. */
  dir: string
  file: string
  /** What the model's listing says of it: description (or the body's first paragraph) and when_to_use. */
  description: string
  front: SkillFrontMatter
  body: string
  /** For a plugin's skill: the plugin (`${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`). */
  plugin?: Pick<InstalledPlugin, 'name' | 'root' | 'dataDir'>
  /** Found inside the workspace (project, agents-project): gated by workspace trust. */
  workspaceContent: boolean
}

export interface SkillProblem {
  name: string
  file: string
  field?: string
  message: string
}

export interface SkillCatalog {
  /** Sorted by name. */
  skills: Skill[]
  problems: SkillProblem[]
  /** One sentence per name found more than once: which one is used, which is ignored. */
  clashes: string[]
}

export interface SkillRoots {
  /** The user's home (`~`). */
  home: string
  /** `$CODEX_HOME` (default `~/.codex`). */
  codexHome: string
  /** The session's workspace; null: no project skills. */
  workspace: string | null
  plugins?: readonly InstalledPlugin[]
}

interface Root {
  dir: string
  scope: Exclude<SkillScope, 'plugin'>
  origin: string
}

/** The folders searched, highest precedence first (plugins aside). */
export function skillRoots(roots: SkillRoots): Root[] {
  const chain = roots.workspace ? foldersToRepoRoot(roots.workspace) : []
  return [
    { dir: join(roots.home, '.claude', 'skills'), scope: 'personal', origin: 'personal ~/.claude/skills' },
    ...chain.map((folder): Root => ({ dir: join(folder, '.claude', 'skills'), scope: 'project', origin: 'project .claude/skills' })),
    { dir: join(roots.home, '.agents', 'skills'), scope: 'agents-user', origin: 'user ~/.agents/skills' },
    ...chain.map((folder): Root => ({ dir: join(folder, '.agents', 'skills'), scope: 'agents-project', origin: 'project .agents/skills' })),
    { dir: join(roots.codexHome, 'skills'), scope: 'codex-user', origin: 'Codex ~/.codex/skills' }
  ]
}

export class SkillFinder {
  /** Parsed files by path, kept while their size and mtime stay the same. */
  private readonly cache = new Map<string, { key: string; parsed: ParsedSkillFile | SkillFileProblem }>()

  discover(roots: SkillRoots): SkillCatalog {
    const catalog: SkillCatalog = { skills: [], problems: [], clashes: [] }
    const byName = new Map<string, Skill>()
    const seenFiles = new Set<string>()
    const add = (name: string, file: string, found: Omit<Skill, 'name' | 'file' | 'dir' | 'description' | 'front' | 'body'>) => {
      if (seenFiles.has(file)) return
      seenFiles.add(file)
      const parsed = this.read(file)
      if (!('front' in parsed)) {
        catalog.problems.push({ name, file, message: parsed.message, ...(parsed.field !== undefined ? { field: parsed.field } : {}) })
        return
      }
      const skillName = found.plugin && parsed.front.name && COMMAND_NAME.test(parsed.front.name) ? `${found.plugin.name}:${parsed.front.name}` : name
      const earlier = byName.get(skillName)
      if (earlier) {
        catalog.clashes.push(`skill "${skillName}": the ${earlier.origin} one (${earlier.file}) is used; the ${found.origin} one (${file}) is ignored`)
        return
      }
      const skill: Skill = { ...found, name: skillName, file, dir: dirname(file), description: listingDescription(parsed.front, parsed.body), front: parsed.front, body: parsed.body }
      byName.set(skillName, skill)
      catalog.skills.push(skill)
    }
    for (const root of skillRoots(roots)) {
      for (const folder of skillFolders(root.dir)) {
        add(basename(folder), join(folder, 'SKILL.md'), { scope: root.scope, origin: root.origin, workspaceContent: root.scope === 'project' || root.scope === 'agents-project' })
      }
    }
    for (const plugin of roots.plugins ?? []) {
      const found = { scope: 'plugin' as const, origin: `plugin ${plugin.name}`, plugin: { name: plugin.name, root: plugin.root, dataDir: plugin.dataDir }, workspaceContent: false }
      for (const path of plugin.skills) {
        // A skills path may itself be one skill (a SKILL.md at its root) or hold skill folders.
        if (existsSync(join(path, 'SKILL.md'))) add(`${plugin.name}:${basename(path)}`, join(path, 'SKILL.md'), found)
        else for (const folder of skillFolders(path)) add(`${plugin.name}:${basename(folder)}`, join(folder, 'SKILL.md'), found)
      }
    }
    catalog.skills.sort((a, b) => a.name.localeCompare(b.name))
    return catalog
  }

  private read(file: string): ParsedSkillFile | SkillFileProblem {
    let key: string
    try {
      const stat = statSync(file)
      key = `${stat.size}:${stat.mtimeMs}`
    } catch (error) {
      return { message: `cannot be read: ${(error as Error).message}` }
    }
    const cached = this.cache.get(file)
    if (cached?.key === key) return cached.parsed
    const parsed = readSkillFile(file)
    this.cache.set(file, { key, parsed })
    return parsed
  }
}

/** What a slash command name may be (the host's `parseSlash` reads the same characters). */
const COMMAND_NAME = /^[A-Za-z0-9_][\w.-]*$/

/** The sub-folders of `dir` that hold a SKILL.md, sorted; none when `dir` is missing. */
function skillFolders(dir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names
    .filter((name) => !name.startsWith('.') && COMMAND_NAME.test(name))
    .sort()
    .map((name) => join(dir, name))
    .filter((folder) => existsSync(join(folder, 'SKILL.md')))
}

/** The workspace, then each parent up to the repository root (the nearest folder with `.git`); only the workspace outside a repository. */
export function foldersToRepoRoot(workspace: string): string[] {
  const start = resolve(workspace)
  const chain: string[] = []
  for (let folder = start; ; folder = dirname(folder)) {
    chain.push(folder)
    if (existsSync(join(folder, '.git'))) return chain
    if (dirname(folder) === folder) return [start]
  }
}
