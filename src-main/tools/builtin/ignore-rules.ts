// Ignore files as ripgrep (and so Claude Code's Glob and Grep) reads them: `.gitignore` in every
// directory of a git repository plus the repository's `.git/info/exclude` and the user's global
// excludes file (git's `core.excludesFile`), and `.ignore` / `.rgignore` anywhere. Each file's rules apply relative to its own directory; gitignore
// semantics (globs, `!` negation, trailing `/` for directories) come from the `ignore` package.
import fs from 'node:fs/promises'
import path from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { spawnGuarded } from '../../process/guarded-spawn'

/** Ignore file names, strongest first within one directory (ripgrep's precedence). */
export const IGNORE_FILE_NAMES = ['.rgignore', '.ignore', '.gitignore'] as const
type IgnoreFileName = (typeof IGNORE_FILE_NAMES)[number]

/** One directory's rules: its ignore files, strongest first. */
export interface IgnoreLayer {
  /** The directory the rules are relative to (absolute). */
  dir: string
  matchers: Ignore[]
}

export type IgnoreVerdict = 'ignored' | 'included' | 'none'

/**
 * What `layers` (shallowest first) say about `target`: the deepest directory's rules that match
 * decide, and within a directory the strongest file that matches. `none`: no rule matched.
 */
export function ignoreVerdict(layers: readonly IgnoreLayer[], target: string, isDir: boolean): IgnoreVerdict {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!
    const relative = relativeBelow(layer.dir, target)
    if (relative === undefined) continue
    const probe = isDir ? `${relative}/` : relative
    for (const matcher of layer.matchers) {
      const result = matcher.test(probe)
      if (result.ignored) return 'ignored'
      if (result.unignored) return 'included'
    }
  }
  return 'none'
}

/**
 * `target` relative to `dir`, `/`-separated, when it lies strictly below it (both absolute and
 * normalized, as the walker makes them); undefined otherwise. Slicing, not path.relative: it runs
 * for every entry of a walk against every layer.
 */
export function relativeBelow(dir: string, target: string): string | undefined {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep
  if (!target.startsWith(prefix) || target.length === prefix.length) return undefined
  const relative = target.slice(prefix.length)
  return path.sep === '/' ? relative : relative.split(path.sep).join('/')
}

/** The layer for `dir` from the ignore files among `names` (the directory's entries); undefined when it has none. */
export async function readLayer(dir: string, names: ReadonlySet<string>, inRepo: boolean): Promise<IgnoreLayer | undefined> {
  const wanted = IGNORE_FILE_NAMES.filter((name) => names.has(name) && (name !== '.gitignore' || inRepo))
  if (wanted.length === 0) return undefined
  const matchers: Ignore[] = []
  for (const name of wanted) {
    const matcher = await readIgnoreFile(path.join(dir, name))
    if (matcher) matchers.push(matcher)
  }
  return matchers.length > 0 ? { dir, matchers } : undefined
}

/** A matcher for the rules in `file`; undefined when it cannot be read (gone, a directory, no permission): ripgrep skips those too. */
export async function readIgnoreFile(file: string): Promise<Ignore | undefined> {
  try {
    // Case-sensitive like ripgrep (the package's default is git's core.ignorecase=true).
    return ignore({ ignorecase: false, allowRelativePaths: true }).add(await fs.readFile(file, 'utf8'))
  } catch {
    return undefined
  }
}

/** The nearest directory at or above `dir` that holds a `.git` (a folder, or a worktree's file); undefined outside a repository. */
export async function findRepoRoot(dir: string): Promise<string | undefined> {
  for (let current = dir; ; ) {
    if (await exists(path.join(current, '.git'))) return current
    const parent = path.dirname(current)
    if (parent === current) return undefined
    current = parent
  }
}

/** How long the global excludes file's name is kept (one `git config` run per repository, not per walk). */
const GLOBAL_EXCLUDES_TTL_MS = 5_000
/** How long the `git config` query may take before it is killed (then git's default place applies). */
const GIT_TIMEOUT_MS = 2_000
const globalExcludes = new Map<string, { at: number; file: Promise<string | undefined> }>()

/**
 * The user's global excludes file, as git finds it: `core.excludesFile` (user, system or the
 * repository's config, `~` expanded), else `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`.
 * Without git on the machine, the default place.
 */
export function globalExcludesFile(repoRoot: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const key = [repoRoot, env.HOME ?? '', env.XDG_CONFIG_HOME ?? '', env.GIT_CONFIG_GLOBAL ?? ''].join('\0')
  const cached = globalExcludes.get(key)
  if (cached && Date.now() - cached.at < GLOBAL_EXCLUDES_TTL_MS) return cached.file
  const file = new Promise<string | undefined>((resolve) => {
    const fallback = (configured: string): void => {
      // Unset (git exits 1) or no git: git's default place.
      if (configured !== '') return resolve(path.resolve(repoRoot, configured))
      const configHome = env.XDG_CONFIG_HOME || (env.HOME ? path.join(env.HOME, '.config') : undefined)
      resolve(configHome ? path.join(configHome, 'git', 'ignore') : undefined)
    }
    // Its own process group under the host-death watcher, like every child Seam starts.
    const git = spawnGuarded('git', ['config', '--path', '--get', 'core.excludesFile'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'ignore'] })
    const deadline = setTimeout(() => git.signalGroup('SIGKILL'), GIT_TIMEOUT_MS)
    let stdout = ''
    git.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const done = (configured: string): void => {
      clearTimeout(deadline)
      git.release()
      fallback(configured)
    }
    git.child.on('error', () => done(''))
    git.child.on('close', (code) => done(code === 0 ? stdout.trim() : ''))
  })
  globalExcludes.set(key, { at: Date.now(), file })
  return file
}

/**
 * The rules that apply at `root` from above it: the global excludes file (weakest), the
 * repository's `.git/info/exclude`, then the ignore files of every ancestor from the filesystem
 * root down to `root`'s parent (`.gitignore` only inside the repository), shallowest first.
 */
export async function ancestorLayers(root: string, repoRoot: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = []
  if (repoRoot !== undefined) {
    const globalFile = await globalExcludesFile(repoRoot, env)
    const global = globalFile ? await readIgnoreFile(globalFile) : undefined
    if (global) layers.push({ dir: repoRoot, matchers: [global] })
    const exclude = await readIgnoreFile(path.join(repoRoot, '.git', 'info', 'exclude'))
    if (exclude) layers.push({ dir: repoRoot, matchers: [exclude] })
  }
  const ancestors: string[] = []
  for (let current = path.dirname(root); ancestors[ancestors.length - 1] !== current; current = path.dirname(current)) ancestors.push(current)
  for (const dir of ancestors.reverse()) {
    const inRepo = repoRoot !== undefined && isAtOrBelow(repoRoot, dir)
    const names = new Set<IgnoreFileName>(IGNORE_FILE_NAMES)
    const layer = await readLayer(dir, names, inRepo)
    if (layer) layers.push(layer)
  }
  return layers
}

function isAtOrBelow(ancestor: string, dir: string): boolean {
  const relative = path.relative(ancestor, dir)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file)
    return true
  } catch {
    return false
  }
}
