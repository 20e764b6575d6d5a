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
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import type { InstalledPlugin } from '@seam/sdk'
import { writeFileAtomic } from '@seam/sdk/node'
import { listingDescription, parseSkillText, type ParsedSkillFile, type SkillFileProblem, type SkillFrontMatter } from './front-matter'

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
  plugin?: Pick<InstalledPlugin, 'name' | 'root' | 'dataDir' | 'userConfig'>
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

/**
 * Parsed SKILL.md files kept across processes, by the SHA-1 of their text: parsing YAML is most of
 * a session start's cost with many skills (bench/skills.ts), and a new Seam process would parse
 * every file again. `format` changes when the front matter schema does, so an old cache is ignored.
 */
const PARSE_CACHE_FORMAT = 1
const ParseCacheSchema = z.object({
  format: z.literal(PARSE_CACHE_FORMAT),
  entries: z.record(z.string(), z.union([z.object({ front: z.record(z.string(), z.unknown()), body: z.string() }), z.object({ message: z.string(), field: z.string().optional() })]))
})

export class SkillFinder {
  /** Parsed files by path, kept while their size and mtime stay the same. */
  private readonly cache = new Map<string, { key: string; parsed: ParsedSkillFile | SkillFileProblem }>()
  /** The cross-process cache (by text hash), loaded on first use; `used` is what this process needed. */
  private persisted: Map<string, ParsedSkillFile | SkillFileProblem> | undefined
  private readonly used = new Map<string, ParsedSkillFile | SkillFileProblem>()
  private dirty = false

  /** `parseCacheFile`: where parsed files are kept across processes (none: parse in each process). */
  constructor(private readonly parseCacheFile?: string) {}

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
      const found = { scope: 'plugin' as const, origin: `plugin ${plugin.name}`, plugin: { name: plugin.name, root: plugin.root, dataDir: plugin.dataDir, ...(plugin.userConfig ? { userConfig: plugin.userConfig } : {}) }, workspaceContent: false }
      for (const path of plugin.skills) {
        // A skills path may itself be one skill (a SKILL.md at its root) or hold skill folders.
        if (existsSync(join(path, 'SKILL.md'))) add(`${plugin.name}:${basename(path)}`, join(path, 'SKILL.md'), found)
        else for (const folder of skillFolders(path)) add(`${plugin.name}:${basename(folder)}`, join(folder, 'SKILL.md'), found)
      }
    }
    catalog.skills.sort((a, b) => a.name.localeCompare(b.name))
    this.savePersisted()
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
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      return { message: `cannot be read: ${(error as Error).message}` }
    }
    const hash = createHash('sha1').update(text).digest('hex')
    let parsed = this.loadPersisted().get(hash)
    if (!parsed) {
      parsed = parseSkillText(text)
      this.dirty = true
    }
    this.used.set(hash, parsed)
    this.cache.set(file, { key, parsed })
    return parsed
  }

  private loadPersisted(): Map<string, ParsedSkillFile | SkillFileProblem> {
    if (this.persisted) return this.persisted
    this.persisted = new Map()
    if (!this.parseCacheFile) return this.persisted
    try {
      const parsed = ParseCacheSchema.safeParse(JSON.parse(readFileSync(this.parseCacheFile, 'utf8')))
      if (parsed.success) this.persisted = new Map(Object.entries(parsed.data.entries) as Array<[string, ParsedSkillFile | SkillFileProblem]>)
    } catch {
      // No cache yet, or an unreadable one: every file is parsed and the cache written anew.
    }
    return this.persisted
  }

  /** Writes the files this process parsed or used (old entries go), when something new was parsed. */
  private savePersisted(): void {
    if (!this.parseCacheFile || !this.dirty) return
    this.dirty = false
    this.persisted = new Map(this.used)
    try {
      writeFileAtomic(this.parseCacheFile, JSON.stringify({ format: PARSE_CACHE_FORMAT, entries: Object.fromEntries(this.used) }))
    } catch {
      // A cache that cannot be written only costs the next process the parse.
    }
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
