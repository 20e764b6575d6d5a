// `seam plugin tag`, as `claude plugin tag` (README, "Dependencies"): tags the plugin's current
// version `name--v<version>` in its git repository, the form dependency ranges resolve against
// (release-tags.ts). It reads the plugin as an install would, takes the version from plugin.json
// and the enclosing marketplace's entry (refusing when they disagree), and refuses a working tree
// with changes under the plugin's folder or a tag that exists, unless forced.
import { existsSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { valid } from 'semver'
import { gitEnv, runTool } from './fetch'
import { readPluginFolder } from './manifest'
import { MARKETPLACE_FILE, readMarketplace, type MarketplaceEntry } from './marketplace'
import { releaseTagPrefix } from './release-tags'

export class ReleaseTagError extends Error {}

export interface ReleaseTagPlan {
  name: string
  version: string
  tag: string
  pluginDir: string
  /** The commit tagged (HEAD). */
  commit: string
  /** The marketplace entry that lists the plugin, when one encloses it. */
  entry?: { file: string; name: string }
  /** The tag exists already (only with `force`: it is moved). */
  replaces: boolean
}

/** Checks everything `claude plugin tag` checks and says what would be tagged; throws ReleaseTagError naming what is wrong. */
export async function planReleaseTag(pluginDir: string, options: { force?: boolean } = {}): Promise<ReleaseTagPlan> {
  if (!existsSync(pluginDir)) throw new ReleaseTagError(`${resolve(pluginDir)} does not exist`)
  // Real paths: git names the repository's root by its real path.
  const dir = realpathSync(pluginDir)
  const top = await git(dir, 'rev-parse', '--show-toplevel')
  if (top.code !== 0) throw new ReleaseTagError(`${dir} is not in a git repository: release tags live in the repository that hosts the plugin`)
  const repoRoot = top.stdout.trim()
  const enclosing = findMarketplaceEntry(dir, repoRoot)
  let layout
  try {
    layout = readPluginFolder(dir, enclosing?.entry ? { ...enclosing.entry, name: enclosing.entry.name } : undefined)
  } catch (error) {
    throw new ReleaseTagError((error as Error).message)
  }
  if (layout.problems.length > 0) throw new ReleaseTagError(`the plugin has problems to fix first:\n  ${layout.problems.join('\n  ')}`)
  const entryVersion = enclosing?.entry.version
  if (layout.manifestFile !== undefined && layout.version !== undefined && entryVersion !== undefined && layout.version !== entryVersion) {
    throw new ReleaseTagError(`${layout.manifestFile} says version ${layout.version} but the entry "${enclosing?.entry.name}" of ${enclosing?.file} says ${entryVersion}: make them agree before tagging`)
  }
  const version = layout.version ?? entryVersion
  if (version === undefined) throw new ReleaseTagError(`${layout.name} has no version (set "version" in ${layout.manifestFile ?? join(dir, '.claude-plugin', 'plugin.json')}): a release tag names one`)
  if (valid(version) !== version) throw new ReleaseTagError(`${layout.name}'s version "${version}" is not a semver version (MAJOR.MINOR.PATCH): dependency ranges cannot match it`)
  const tag = `${releaseTagPrefix(layout.name)}${version}`
  const status = await git(dir, 'status', '--porcelain', '--untracked-files=all', '--', '.')
  if (status.code !== 0) throw new ReleaseTagError(`git status failed: ${status.stderr.trim()}`)
  const changed = status.stdout.split('\n').filter((line) => line.trim() !== '')
  if (changed.length > 0 && !options.force) {
    throw new ReleaseTagError(`the working tree has changes under ${dir}; commit them first (or --force):\n  ${changed.slice(0, 20).join('\n  ')}${changed.length > 20 ? `\n  … and ${changed.length - 20} more` : ''}`)
  }
  const head = await git(dir, 'rev-parse', '--verify', 'HEAD^{commit}')
  if (head.code !== 0) throw new ReleaseTagError(`${repoRoot} has no commit to tag`)
  const existing = await git(dir, 'rev-parse', '--verify', '--quiet', `refs/tags/${tag}`)
  const replaces = existing.code === 0
  if (replaces && !options.force) throw new ReleaseTagError(`tag ${tag} already exists in ${repoRoot}: bump the version, or --force to move it`)
  return { name: layout.name, version, tag, pluginDir: dir, commit: head.stdout.trim(), ...(enclosing ? { entry: { file: enclosing.file, name: enclosing.entry.name } } : {}), replaces }
}

/** Creates the planned tag at HEAD. */
export async function createReleaseTag(plan: ReleaseTagPlan): Promise<void> {
  const created = await git(plan.pluginDir, 'tag', ...(plan.replaces ? ['--force'] : []), plan.tag, plan.commit)
  if (created.code !== 0) throw new ReleaseTagError(`git tag ${plan.tag} failed: ${created.stderr.trim()}`)
}

/** Pushes the tag to `remote`; the tag stays when this fails. */
export async function pushReleaseTag(plan: ReleaseTagPlan, remote: string): Promise<void> {
  const pushed = await git(plan.pluginDir, 'push', ...(plan.replaces ? ['--force'] : []), '--', remote, `refs/tags/${plan.tag}`)
  if (pushed.code !== 0) throw new ReleaseTagError(`git push ${remote} refs/tags/${plan.tag} failed (the tag is created here): ${pushed.stderr.trim()}`)
}

/**
 * The marketplace (from the plugin's folder up to the repository's root) whose entry's relative
 * source is this folder, as an install resolves it (a bare name under `metadata.pluginRoot`).
 */
function findMarketplaceEntry(dir: string, repoRoot: string): { file: string; entry: MarketplaceEntry } | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, MARKETPLACE_FILE))) {
      let marketplace
      try {
        marketplace = readMarketplace(at)
      } catch (error) {
        throw new ReleaseTagError(`the enclosing marketplace cannot be read: ${(error as Error).message}`)
      }
      for (const entry of marketplace.plugins) {
        if (typeof entry.source !== 'string') continue
        const source = entry.source
        const base = source.startsWith('./') || source.startsWith('../') || isAbsolute(source) ? at : resolve(at, marketplace.metadata?.pluginRoot ?? '.')
        if (resolve(base, source) === dir) return { file: join(at, MARKETPLACE_FILE), entry }
      }
    }
    if (at === repoRoot || relative(repoRoot, at).startsWith('..') || dirname(at) === at) return undefined
  }
}

function git(cwd: string, ...args: string[]) {
  return runTool('git', args, cwd, gitEnv())
}
