// A dependency's version range resolved against git tags, as Claude Code does (README,
// "Dependencies"): each release of plugin `name` is a tag `name--v<semver>` on the repository that
// hosts it: the plugin's own repository for `github`, `url` and `git-subdir` sources, the
// marketplace's repository for a plugin it references by a relative path. The highest tagged
// version in the range is fetched at that tag. Tags are listed with `git ls-remote`, so nothing is
// cloned until one is chosen.
import { mkdtempSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { compare, maxSatisfying, valid } from 'semver'
import { gitClone, gitEnv, runTool } from './fetch'
import { fetchPlugin, PluginManagerError } from './sources'
import type { Marketplace, MarketplaceEntry, PluginSource } from './marketplace'
import type { KnownMarketplace } from './store'

/** A tagged release of a plugin: the tag, the version it names, the commit it points at. */
export interface TaggedRelease {
  tag: string
  version: string
  commit: string
}

/** Where a plugin's release tags live, when its source is git-backed. */
export interface TagHome {
  /** A URL or path `git ls-remote` and `git clone` take. */
  repository: string
  /** `own`: the plugin's repository (no matching tag refuses); `marketplace`: the marketplace's (no matching tag falls back to its current copy). */
  kind: 'own' | 'marketplace'
  /** For `marketplace`: the marketplace's folder inside that repository ('' at its root). */
  marketplaceDir?: string
}

/** The prefix of every release tag of `name` (`claude plugin tag`'s form). */
export function releaseTagPrefix(name: string): string {
  return `${name}--v`
}

/**
 * Where `source`'s tags are looked for; `undefined` when it has none to look at (an npm, archive or
 * command source; a marketplace from npm or a URL; a local folder that is not in a git repository).
 */
export async function tagHome(source: PluginSource, market: KnownMarketplace): Promise<TagHome | undefined> {
  if (typeof source !== 'string') {
    if (source.source === 'github') return { repository: `https://github.com/${source.repo}.git`, kind: 'own' }
    if (source.source === 'url' || source.source === 'git-subdir') return { repository: source.url, kind: 'own' }
    return undefined
  }
  const from = market.source
  if (from.source === 'git') return { repository: from.url, kind: 'marketplace', marketplaceDir: '' }
  if (from.source === 'github') return { repository: `https://github.com/${from.repo}.git`, kind: 'marketplace', marketplaceDir: '' }
  if (from.source === 'directory') {
    const top = await runTool('git', ['rev-parse', '--show-toplevel'], from.path, gitEnv())
    if (top.code !== 0) return undefined
    const root = top.stdout.trim()
    return { repository: root, kind: 'marketplace', marketplaceDir: relative(root, from.path) }
  }
  return undefined
}

/** Every `name--v<semver>` tag of `repository`, with the commit each points at (an annotated tag's, peeled). */
export async function listReleases(repository: string, name: string): Promise<TaggedRelease[]> {
  const prefix = releaseTagPrefix(name)
  const result = await runTool('git', ['ls-remote', '--tags', '--', repository, `refs/tags/${prefix}*`], process.cwd(), gitEnv())
  if (result.code !== 0) throw new Error(`git ls-remote --tags ${repository} failed (exit ${result.code}): ${result.stderr.trim()}`)
  const byTag = new Map<string, TaggedRelease>()
  for (const line of result.stdout.split('\n')) {
    const [commit, ref] = line.split('\t')
    if (!commit || !ref?.startsWith(`refs/tags/${prefix}`)) continue
    const peeled = ref.endsWith('^{}')
    const tag = ref.slice('refs/tags/'.length, peeled ? -3 : undefined)
    // `--v` then a whole semver: `a--v1.0.0` is plugin `a`'s, never `a-b`'s (`a-b--v…` does not start with `a--v`).
    const version = tag.slice(prefix.length)
    if (valid(version) !== version) continue
    const known = byTag.get(tag)
    if (known === undefined || peeled) byTag.set(tag, { tag, version, commit })
  }
  return [...byTag.values()]
}

/** A dependency's release chosen by its tags, and where they are. */
export interface ResolvedRelease {
  home: TagHome
  release: TaggedRelease
}

/**
 * The release of `entry` a dependency's `range` takes: the highest `name--v<semver>` tag in it.
 * `undefined` where there are no tags to go by (a source that is not git-backed) or, for a plugin
 * the marketplace holds by a relative path, when none is in the range: then the marketplace's
 * current copy is installed and its version checked, as Claude Code does. A plugin in its own
 * repository with no tag in the range is refused, naming the range and the tags there are.
 */
export async function resolveDependencyRelease(entry: MarketplaceEntry, market: KnownMarketplace, range: string, context: { where: string; depId: string; dependent: string }): Promise<ResolvedRelease | undefined> {
  const home = await tagHome(entry.source, market)
  if (home === undefined) return undefined
  let releases: TaggedRelease[]
  try {
    releases = await listReleases(home.repository, entry.name)
  } catch (error) {
    throw new PluginManagerError(`${context.where}: ${context.depId}: cannot list its release tags: ${(error as Error).message}; ${context.dependent} is not installed`)
  }
  const release = pickRelease(releases, range)
  if (release !== undefined) return { home, release }
  if (home.kind === 'marketplace') return undefined
  const tags = releases
    .slice()
    .sort((a, b) => compare(a.version, b.version))
    .map((r) => r.tag)
  const found = tags.length > 0 ? `its tags: ${tags.join(', ')}` : `it has no ${releaseTagPrefix(entry.name)}<version> tags`
  throw new PluginManagerError(`${context.where}: Dependency "${context.depId}" has no git tag satisfying ${range} (${home.repository}: ${found}); ${context.dependent} is not installed`)
}

/** The highest release in `range` (npm semver: a prerelease only when the range names one of its line, as Claude Code documents). */
export function pickRelease(releases: readonly TaggedRelease[], range: string): TaggedRelease | undefined {
  const best = maxSatisfying(
    releases.map((r) => r.version),
    range
  )
  return best === null ? undefined : releases.find((r) => r.version === best)
}

/** Brings the plugin's files at `release` into `dest`: its own repository at the tag, or the marketplace's at the tag and the plugin's folder in it. */
export async function fetchRelease(source: PluginSource, home: TagHome, release: TaggedRelease, dest: string, marketplace: Marketplace): Promise<void> {
  if (typeof source !== 'string') {
    if (source.source === 'github' || source.source === 'url' || source.source === 'git-subdir') {
      const { sha: _sha, ...rest } = source
      await fetchPlugin({ ...rest, ref: release.tag }, dest, '', marketplace)
      return
    }
    throw new Error(`a ${source.source} source has no release tags`)
  }
  const clone = mkdtempSync(`${dest}.tag-`)
  rmSync(clone, { recursive: true, force: true })
  try {
    await gitClone(home.repository, clone, { ref: release.tag })
    await fetchPlugin(source, dest, join(clone, home.marketplaceDir ?? ''), marketplace)
  } finally {
    rmSync(clone, { recursive: true, force: true })
  }
}
