// Dependency version ranges resolved against `name--v<semver>` git tags (issue 29), with real git
// repositories made here, each holding several tagged releases whose files differ: the range
// installs the highest tag in it (a plugin in its own repository, a plugin the marketplace holds by
// a relative path, a marketplace cloned by URL or read from a local folder); no tag in the range
// refuses naming the range and the tags; without tags the listed copy is checked as before.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins, { type ClaudePluginManagerService } from './index'
import { parseMarketplaceArg } from './manager'
import { listReleases, pickRelease } from './release-tags'
import { git, gitCommit, gitRepo, marketplaceJson, writeFiles } from './test-fixtures'

let dir: string
let host: TestHost | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-plugin-tags-'))
})
afterEach(async () => {
  await host?.cleanup()
  host = undefined
  rmSync(dir, { recursive: true, force: true })
})

async function start(): Promise<ClaudePluginManagerService> {
  host = await createTestHost({ plugins: [[claudePlugins, { userSettingsPath: join(dir, 'claude-home', 'settings.json'), seamHome: join(dir, 'seam-home') }]], trusted: true })
  const service = host.kernel.getService('claudePluginManager')
  if (!service) throw new Error('claudePluginManager is not provided')
  return service
}

const cache = (...parts: string[]) => join(dir, 'seam-home', 'claude-plugins', 'cache', ...parts)
const installedFile = (): Record<string, { version: string; installPath: string }> => {
  const file = join(dir, 'seam-home', 'claude-plugins', 'installed_plugins.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { plugins: Record<string, { version: string; installPath: string }> }).plugins : {}
}

/** Plugin `name`'s files at `version` (under `prefix`): its plugin.json and a command saying which version it is. */
function pluginAt(name: string, version: string, prefix = ''): Record<string, string> {
  return {
    [`${prefix}.claude-plugin/plugin.json`]: JSON.stringify({ name, version }),
    [`${prefix}commands/${name}.md`]: `${name} at ${version}\n`
  }
}

/** Commits each version in turn, tagging it `name--v<version>` (annotated when asked) unless `untagged`. */
function release(repo: string, name: string, version: string, options: { prefix?: string; annotated?: boolean; untagged?: boolean } = {}): void {
  writeFiles(repo, pluginAt(name, version, options.prefix))
  gitCommit(repo, `${name} ${version}`)
  if (options.untagged) return
  if (options.annotated) git(repo, 'tag', '-a', '-m', `release ${version}`, `${name}--v${version}`)
  else git(repo, 'tag', `${name}--v${version}`)
}

/** `lib` in its own repository: releases 1.0.0 … 2.0.0 tagged (1.2.0 annotated, a prerelease, another plugin's tag), 2.1.0 at HEAD untagged. */
function libRepository(): string {
  const repo = join(dir, 'lib-src')
  gitRepo(repo, { 'README.md': 'lib\n' })
  release(repo, 'lib', '1.0.0')
  release(repo, 'lib', '1.2.0', { annotated: true })
  release(repo, 'lib', '1.3.1')
  release(repo, 'lib', '1.4.0-beta.1')
  git(repo, 'tag', 'lib-extra--v1.9.0')
  release(repo, 'lib', '2.0.0')
  release(repo, 'lib', '2.1.0', { untagged: true })
  return repo
}

/** Marketplace `team` whose repository also holds `kit` (tags kit--v2.0.0, kit--v2.0.3; 3.0.0 at HEAD) and an untagged `plain` at 1.0.0. */
function teamMarketplace(dependents: Record<string, unknown[]>, libUrl: string): string {
  const repo = join(dir, 'team-src')
  const plugins: Array<Record<string, unknown>> = [
    { name: 'lib', source: { source: 'url', url: libUrl } },
    { name: 'kit', source: './plugins/kit' },
    { name: 'plain', source: './plugins/plain' },
    ...Object.keys(dependents).map((name) => ({ name, source: `./plugins/${name}` }))
  ]
  const files: Record<string, string> = { '.claude-plugin/marketplace.json': marketplaceJson('team', plugins), ...pluginAt('plain', '1.0.0', 'plugins/plain/') }
  for (const [name, dependencies] of Object.entries(dependents)) files[`plugins/${name}/.claude-plugin/plugin.json`] = JSON.stringify({ name, version: '0.1.0', dependencies })
  gitRepo(repo, files)
  release(repo, 'kit', '2.0.0', { prefix: 'plugins/kit/' })
  release(repo, 'kit', '2.0.3', { prefix: 'plugins/kit/' })
  release(repo, 'kit', '3.0.0', { prefix: 'plugins/kit/', untagged: true })
  return repo
}

describe('release tags (name--v<semver>)', () => {
  it('lists only the plugin\'s own semver tags, an annotated one at its commit, and picks the highest in a range (prereleases only when asked)', async () => {
    const repo = libRepository()
    const releases = await listReleases(repo, 'lib')
    expect(releases.map((r) => r.tag).sort()).toEqual(['lib--v1.0.0', 'lib--v1.2.0', 'lib--v1.3.1', 'lib--v1.4.0-beta.1', 'lib--v2.0.0'])
    // The annotated tag's commit, not the tag object.
    expect(releases.find((r) => r.version === '1.2.0')?.commit).toBe(git(repo, 'rev-list', '-n', '1', 'lib--v1.2.0').trim())
    expect(pickRelease(releases, '^1.2.0')?.version).toBe('1.3.1')
    expect(pickRelease(releases, '~1.2')?.version).toBe('1.2.0')
    expect(pickRelease(releases, '>=1.4.0-0 <2')?.version).toBe('1.4.0-beta.1')
    expect(pickRelease(releases, '=2.0.0')?.version).toBe('2.0.0')
    expect(pickRelease(releases, '^3')).toBeUndefined()
  })

  it('installs the highest tagged release in the range: from the plugin\'s own repository and from the marketplace\'s (cloned by URL), in a folder named with its commit', async () => {
    const lib = libRepository()
    const team = teamMarketplace({ app: [{ name: 'lib', version: '^1.2.0' }, { name: 'kit', version: '~2.0' }] }, pathToFileURL(lib).href)
    const service = await start()
    await service.manager.addMarketplace(parseMarketplaceArg(pathToFileURL(team).href, dir))
    const app = await service.manager.install('app@team')
    expect(app.dependencies?.map((d) => `${d.id} ${d.record.version}`)).toEqual(['lib@team 1.3.1', 'kit@team 2.0.3'])
    const libCommit = git(lib, 'rev-list', '-n', '1', 'lib--v1.3.1').trim()
    const kitCommit = git(team, 'rev-list', '-n', '1', 'kit--v2.0.3').trim()
    expect(installedFile()['lib@team']).toMatchObject({ version: '1.3.1', installPath: cache('team', 'lib', `1.3.1-${libCommit.slice(0, 12)}`) })
    expect(readFileSync(cache('team', 'lib', `1.3.1-${libCommit.slice(0, 12)}`, 'commands', 'lib.md'), 'utf8')).toBe('lib at 1.3.1\n')
    expect(readFileSync(cache('team', 'kit', `2.0.3-${kitCommit.slice(0, 12)}`, 'commands', 'kit.md'), 'utf8')).toBe('kit at 2.0.3\n')
    // The tagged copies are what sessions load.
    expect(host?.kernel.getService('claudePlugins')?.list(dir).map((p) => `${p.name} ${p.version}`).sort()).toEqual(['app 0.1.0', 'kit 2.0.3', 'lib 1.3.1'])
  })

  it('resolves a range on a plugin of another (allowed) marketplace against that marketplace\'s tags', async () => {
    const lib = libRepository()
    const shared = join(dir, 'shared-src')
    gitRepo(shared, { '.claude-plugin/marketplace.json': marketplaceJson('shared', [{ name: 'fmt', source: './fmt' }]) })
    release(shared, 'fmt', '1.0.0', { prefix: 'fmt/' })
    release(shared, 'fmt', '1.5.2', { prefix: 'fmt/' })
    release(shared, 'fmt', '2.0.0', { prefix: 'fmt/', untagged: true })
    const team = teamMarketplace({ app: [{ name: 'fmt', marketplace: 'shared', version: '^1' }] }, lib)
    const marketplace = JSON.parse(readFileSync(join(team, '.claude-plugin', 'marketplace.json'), 'utf8')) as Record<string, unknown>
    writeFiles(team, { '.claude-plugin/marketplace.json': JSON.stringify({ ...marketplace, allowCrossMarketplaceDependenciesOn: ['shared'] }) })
    gitCommit(team, 'allow shared')
    const service = await start()
    await service.manager.addMarketplace(parseMarketplaceArg(pathToFileURL(team).href, dir))
    await service.manager.addMarketplace(parseMarketplaceArg(pathToFileURL(shared).href, dir))
    const app = await service.manager.install('app@team')
    expect(app.dependencies?.map((d) => `${d.id} ${d.record.version}`)).toEqual(['fmt@shared 1.5.2'])
    const [folder] = readdirSync(cache('shared', 'fmt'))
    expect(folder).toBe(`1.5.2-${git(shared, 'rev-list', '-n', '1', 'fmt--v1.5.2').trim().slice(0, 12)}`)
    expect(readFileSync(cache('shared', 'fmt', folder, 'commands', 'fmt.md'), 'utf8')).toBe('fmt at 1.5.2\n')
  })

  it('resolves tags of a marketplace read from a local folder that is a git repository', async () => {
    const lib = libRepository()
    const team = teamMarketplace({ app: [{ name: 'kit', version: '2.0.0' }, { name: 'lib', version: '<1.3' }] }, lib)
    const service = await start()
    const added = await service.manager.addMarketplace(parseMarketplaceArg(team, dir))
    expect(added.known.source.source).toBe('directory')
    const app = await service.manager.install('app@team')
    expect(app.dependencies?.map((d) => `${d.id} ${d.record.version}`)).toEqual(['kit@team 2.0.0', 'lib@team 1.2.0'])
    const kitDir = readdirSync(cache('team', 'kit'))
    expect(kitDir).toEqual([`2.0.0-${git(team, 'rev-list', '-n', '1', 'kit--v2.0.0').trim().slice(0, 12)}`])
    expect(readFileSync(cache('team', 'kit', kitDir[0], 'commands', 'kit.md'), 'utf8')).toBe('kit at 2.0.0\n')
  })

  it('refuses a range no tag of the plugin\'s own repository satisfies, naming the range and the tags, and leaves nothing installed', async () => {
    const lib = libRepository()
    const bare = join(dir, 'bare-src')
    gitRepo(bare, pluginAt('bare', '4.0.0'))
    const team = teamMarketplace({ needy: ['plain', { name: 'lib', version: '^5' }], stale: [{ name: 'bare', version: '^4' }] }, lib)
    const marketplace = JSON.parse(readFileSync(join(team, '.claude-plugin', 'marketplace.json'), 'utf8')) as { plugins: unknown[] }
    marketplace.plugins.push({ name: 'bare', source: { source: 'url', url: bare } })
    writeFiles(team, { '.claude-plugin/marketplace.json': JSON.stringify(marketplace) })
    gitCommit(team, 'bare')
    const service = await start()
    await service.manager.addMarketplace(parseMarketplaceArg(pathToFileURL(team).href, dir))
    const refusal = (id: string) => service.manager.install(id).then(() => 'installed', (e: unknown) => (e as Error).message)
    expect(await refusal('needy@team')).toBe(
      `needy's plugin.json: dependencies[1]: Dependency "lib@team" has no git tag satisfying ^5 (${lib}: its tags: lib--v1.0.0, lib--v1.2.0, lib--v1.3.1, lib--v1.4.0-beta.1, lib--v2.0.0); needy@team is not installed`
    )
    // Its own repository has no release tags at all: refused too, though what it holds now (4.0.0) is in the range.
    expect(await refusal('stale@team')).toBe(`stale's plugin.json: dependencies[0]: Dependency "bare@team" has no git tag satisfying ^4 (${bare}: it has no bare--v<version> tags); stale@team is not installed`)
    // plain@team was installed for needy and went again with the refusal.
    expect(installedFile()).toEqual({})
    expect(existsSync(cache('team'))).toBe(false)
  })

  it('without a tag in the range, a plugin the marketplace holds by a relative path is its current copy, its listed version checked', async () => {
    const lib = libRepository()
    const team = teamMarketplace({ easy: [{ name: 'plain', version: '^1' }], hard: [{ name: 'plain', version: '^2' }], newest: [{ name: 'kit', version: '>=3' }] }, lib)
    const service = await start()
    await service.manager.addMarketplace(parseMarketplaceArg(pathToFileURL(team).href, dir))
    expect(await service.manager.install('hard@team').then(() => 'installed', (e: unknown) => (e as Error).message)).toBe(`hard's plugin.json: dependencies[0]: plain@team is at version 1.0.0, which does not satisfy "^2"; hard@team is not installed`)
    expect((await service.manager.install('easy@team')).dependencies?.map((d) => `${d.id} ${d.record.version}`)).toEqual(['plain@team 1.0.0'])
    expect(readdirSync(cache('team', 'plain'))).toEqual(['1.0.0'])
    // kit's tags stop at 2.0.3; the marketplace's copy (3.0.0, untagged) satisfies >=3.
    expect((await service.manager.install('newest@team')).dependencies?.map((d) => `${d.id} ${d.record.version}`)).toEqual(['kit@team 3.0.0'])
    expect(readFileSync(cache('team', 'kit', '3.0.0', 'commands', 'kit.md'), 'utf8')).toBe('kit at 3.0.0\n')
  })
})
