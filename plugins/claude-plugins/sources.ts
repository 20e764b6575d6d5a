// Where marketplaces and plugins come from: what the user typed after `marketplace add` turned
// into a source, each source described in one line, and each fetched into a folder (a local
// folder read in place, git cloned with the system git, npm packed with the user's npm, a URL's
// marketplace.json downloaded, an `archive` zip downloaded and unpacked, a `command`'s printed folder copied or linked).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { isWithin } from '@seam/sdk/node'
import { fetchArchive } from './archive'
import { fetchCommandSource } from './command-source'
import { copyTree, gitClone, gitHead, npmFetch } from './fetch'
import { MARKETPLACE_FILE, type Marketplace, type MarketplaceSource, type PluginSource } from './marketplace'

export class PluginManagerError extends Error {}

/** Turns what the user typed after `marketplace add` into a source (Claude Code's accepted forms, plus `npm:`). */
export function parseMarketplaceArg(arg: string, cwd: string): MarketplaceSource {
  if (arg.startsWith('npm:')) {
    const spec = arg.slice(4)
    const at = spec.lastIndexOf('@')
    return at > 0 ? { source: 'npm', package: spec.slice(0, at), version: spec.slice(at + 1) } : { source: 'npm', package: spec }
  }
  const [base, ref] = splitRef(arg)
  if (/^(https?|git|ssh|file):\/\//.test(base) || /^[\w.-]+@[\w.-]+:/.test(base)) {
    if (/^https?:\/\//.test(base) && base.endsWith('.json')) return { source: 'url', url: base }
    return ref !== undefined ? { source: 'git', url: base, ref } : { source: 'git', url: base }
  }
  const local = resolve(cwd, base)
  if (existsSync(local)) {
    // A folder holding a marketplace is read in place; a git repository given by path (`repo.git`, a bare one) is cloned.
    if (existsSync(join(local, MARKETPLACE_FILE))) return { source: 'directory', path: local }
    return ref !== undefined ? { source: 'git', url: local, ref } : { source: 'git', url: local }
  }
  if (/^[\w.-]+\/[\w.-]+$/.test(base)) return ref !== undefined ? { source: 'github', repo: base, ref } : { source: 'github', repo: base }
  throw new PluginManagerError(`"${arg}" is not a marketplace: give a folder, a git URL or path, owner/repo, a URL to a marketplace.json, or npm:PACKAGE`)
}

function splitRef(arg: string): [string, string | undefined] {
  const hash = arg.lastIndexOf('#')
  return hash > 0 ? [arg.slice(0, hash), arg.slice(hash + 1)] : [arg, undefined]
}

export function describeMarketplaceSource(source: MarketplaceSource): string {
  switch (source.source) {
    case 'directory':
      return source.path
    case 'github':
      return `github:${source.repo}${source.ref ? `#${source.ref}` : ''}`
    case 'git':
      return `${source.url}${source.ref ? `#${source.ref}` : ''}`
    case 'url':
      return source.url
    case 'npm':
      return `npm:${source.package}${source.version ? `@${source.version}` : ''}`
  }
}

export function describePluginSource(source: PluginSource, marketplace: string): string {
  if (typeof source === 'string') return `${marketplace}:${source}`
  switch (source.source) {
    case 'github':
      return `github:${source.repo}${source.ref ? `#${source.ref}` : ''}${source.sha ? `@${source.sha}` : ''}`
    case 'url':
      return `${source.url}${source.ref ? `#${source.ref}` : ''}${source.sha ? `@${source.sha}` : ''}`
    case 'git-subdir':
      return `${source.url}//${source.path}${source.ref ? `#${source.ref}` : ''}`
    case 'npm':
      return `npm:${source.package}${source.version ? `@${source.version}` : ''}`
    case 'archive':
      return source.url
    case 'command':
      return `command: ${source.command}`
  }
}

/** Brings a marketplace into `dest` (a directory source is read where it is). Returns the commit for git. */
export async function fetchMarketplace(source: MarketplaceSource, dest: string): Promise<string | undefined> {
  switch (source.source) {
    case 'directory':
      return undefined
    case 'github':
      await gitClone(`https://github.com/${source.repo}.git`, dest, source.ref ? { ref: source.ref } : {})
      return gitHead(dest)
    case 'git':
      await gitClone(source.url, dest, source.ref ? { ref: source.ref } : {})
      return gitHead(dest)
    case 'npm':
      await npmFetch(source.version ? `${source.package}@${source.version}` : source.package, dest, source.registry)
      return undefined
    case 'url': {
      const response = await fetch(source.url)
      if (!response.ok) throw new PluginManagerError(`${source.url}: HTTP ${response.status}`)
      mkdirSync(join(dest, '.claude-plugin'), { recursive: true })
      writeFileSync(join(dest, MARKETPLACE_FILE), await response.text())
      return undefined
    }
  }
}

/** Brings one plugin's files into `dest`. Returns the commit for git sources, the package's version for npm. */
export async function fetchPlugin(source: PluginSource, dest: string, marketplaceRoot: string, marketplace: Marketplace): Promise<{ commit?: string; packageVersion?: string }> {
  if (typeof source === 'string') {
    // `./path` against the marketplace root; a bare name under metadata.pluginRoot.
    const base = source.startsWith('./') || source.startsWith('../') || isAbsolute(source) ? marketplaceRoot : resolve(marketplaceRoot, marketplace.metadata?.pluginRoot ?? '.')
    const from = resolve(base, source)
    if (!isWithin(marketplaceRoot, from)) throw new PluginManagerError(`marketplace "${marketplace.name}": source "${source}" is outside the marketplace`)
    if (!existsSync(from)) throw new PluginManagerError(`marketplace "${marketplace.name}": source "${source}" does not exist in ${marketplaceRoot}${existsSync(join(marketplaceRoot, '.git')) ? '' : ' (a marketplace added from a URL has no files: only remote sources work)'}`)
    copyTree(from, dest)
    return {}
  }
  switch (source.source) {
    case 'github':
    case 'url': {
      const url = source.source === 'github' ? `https://github.com/${source.repo}.git` : source.url
      await gitClone(url, dest, { ...(source.ref ? { ref: source.ref } : {}), ...(source.sha ? { sha: source.sha } : {}) })
      const commit = await gitHead(dest)
      rmSync(join(dest, '.git'), { recursive: true, force: true })
      return { commit }
    }
    case 'git-subdir': {
      const clone = `${dest}.clone`
      try {
        await gitClone(source.url, clone, { ...(source.ref ? { ref: source.ref } : {}), ...(source.sha ? { sha: source.sha } : {}) })
        const from = resolve(clone, source.path)
        if (!isWithin(clone, from) || !existsSync(from)) throw new PluginManagerError(`${source.url}: path "${source.path}" is not a folder of the repository`)
        copyTree(from, dest)
        return { commit: await gitHead(clone) }
      } finally {
        rmSync(clone, { recursive: true, force: true })
      }
    }
    case 'npm':
      return { packageVersion: await npmFetch(source.version ? `${source.package}@${source.version}` : source.package, dest, source.registry) }
    case 'archive':
      await fetchArchive(source.url, source.sha256, dest)
      return {}
    case 'command':
      await fetchCommandSource(source, dest, marketplaceRoot)
      return {}
  }
}
