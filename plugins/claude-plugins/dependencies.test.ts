// Dependencies on another marketplace (issue 29), with three marketplaces in real git repositories
// cloned by the system git: the allowlist of the marketplace of the plugin asked for
// (`allowCrossMarketplaceDependenciesOn`) decides for the whole chain; a dependency installed
// already is used whatever its marketplace; every refusal names the field and leaves nothing
// installed; dependents are named across marketplaces; `prune` removes only what was installed as
// a dependency and nothing needs.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins, { type ClaudePluginManagerService } from './index'
import { parseMarketplaceArg } from './manager'
import { PluginManifestSchema } from './manifest'
import { MarketplaceSchema } from './marketplace'
import { gitRepo, writeFiles } from './test-fixtures'

let dir: string
let host: TestHost | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-plugin-xmarket-'))
})
afterEach(async () => {
  await host?.cleanup()
  host = undefined
  rmSync(dir, { recursive: true, force: true })
})

type PluginSpec = { version: string; dependencies?: unknown[] }

/** A marketplace `name` in a git repository: each plugin with its plugin.json and one command. */
function market(name: string, plugins: Record<string, PluginSpec>, allow?: string[]): string {
  const repo = join(dir, `${name}-src`)
  const files: Record<string, string> = {
    '.claude-plugin/marketplace.json': JSON.stringify({ name, owner: { name: 'Team' }, ...(allow ? { allowCrossMarketplaceDependenciesOn: allow } : {}), plugins: Object.keys(plugins).map((p) => ({ name: p, source: `./plugins/${p}` })) })
  }
  for (const [plugin, spec] of Object.entries(plugins)) {
    files[`plugins/${plugin}/.claude-plugin/plugin.json`] = JSON.stringify({ name: plugin, ...spec })
    files[`plugins/${plugin}/commands/${plugin}.md`] = `The ${plugin} command.\n`
  }
  gitRepo(repo, files)
  return repo
}

async function start(): Promise<ClaudePluginManagerService> {
  host = await createTestHost({ plugins: [[claudePlugins, { userSettingsPath: join(dir, 'claude-home', 'settings.json'), seamHome: join(dir, 'seam-home') }]], trusted: true })
  const service = host.kernel.getService('claudePluginManager')
  if (!service) throw new Error('claudePluginManager is not provided')
  return service
}

function installedFile(): Record<string, { auto?: boolean; version: string }> {
  const file = join(dir, 'seam-home', 'claude-plugins', 'installed_plugins.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { plugins: Record<string, { auto?: boolean; version: string }> }).plugins : {}
}
const installedIds = () => Object.keys(installedFile()).sort()

async function threeMarketplaces(service: ClaudePluginManagerService): Promise<void> {
  market(
    'team-tools',
    {
      base: { version: '1.0.0' },
      app: { version: '0.1.0', dependencies: ['base', 'lib@shared', { name: 'fmt', marketplace: 'shared', version: '^2' }] },
      strict: { version: '0.1.0', dependencies: ['tool@other'] },
      ghost: { version: '0.1.0', dependencies: ['base', { name: 'x', marketplace: 'nowhere' }] },
      picky: { version: '0.1.0', dependencies: ['base', 'lib@shared@^1', { name: 'fmt', marketplace: 'shared', version: '>=3' }] },
      lost: { version: '0.1.0', dependencies: ['nope@shared'] },
      deep: { version: '0.1.0', dependencies: ['hop@shared'] },
      wide: { version: '0.1.0', dependencies: ['hop@shared'] }
    },
    ['shared', 'nowhere']
  )
  market('shared', { lib: { version: '1.0.0' }, fmt: { version: '2.1.0' }, hop: { version: '1.0.0', dependencies: ['lib', 'far@other'] } }, ['other'])
  market('other', { tool: { version: '3.0.0' }, far: { version: '1.0.0' } })
  for (const name of ['team-tools', 'shared', 'other']) await service.manager.addMarketplace(parseMarketplaceArg(join(dir, `${name}-src`), dir))
}

describe('dependencies on another marketplace (allowCrossMarketplaceDependenciesOn)', () => {
  it('reads every dependency form and the allowlist with zod, naming the field of a bad one', () => {
    const parsed = PluginManifestSchema.parse({ name: 'app', dependencies: ['base', 'lib@shared', 'fmt@shared@^2', { name: 'x', marketplace: 'other', version: '~1.2' }, { name: 'y', version: '1.x' }] })
    expect(parsed.dependencies).toEqual([{ name: 'base' }, { name: 'lib', marketplace: 'shared' }, { name: 'fmt', marketplace: 'shared', version: '^2' }, { name: 'x', marketplace: 'other', version: '~1.2' }, { name: 'y', version: '1.x' }])
    const issues = (value: unknown) => PluginManifestSchema.safeParse({ name: 'app', dependencies: [value] }).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    expect(issues('lib@bad market')).toEqual(['dependencies.0.marketplace: a marketplace name: letters, digits, ".", "_" and "-"'])
    expect(issues('Not A Name')).toEqual([expect.stringMatching(/^dependencies\.0\.name: a plugin name is kebab-case/)])
    expect(issues('lib@shared@soon')).toEqual(['dependencies.0.version: not a semver range'])
    expect(issues({ name: 'lib', marketplace: 7 })).toEqual([expect.stringMatching(/^dependencies\.0\.marketplace: /)])
    expect(issues(3)).toEqual(['dependencies.0: expected a plugin name, NAME@MARKETPLACE, or {name, marketplace, version}'])
    const marketplace = MarketplaceSchema.safeParse({ name: 'team-tools', owner: { name: 'T' }, plugins: [], allowCrossMarketplaceDependenciesOn: 'shared' })
    expect(marketplace.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['allowCrossMarketplaceDependenciesOn'])
  })

  it('installs an allowed dependency from another marketplace (range checked), as a dependency; the rows name each with its marketplace and who needs it', async () => {
    const service = await start()
    await threeMarketplaces(service)
    const app = await service.manager.install('app@team-tools')
    expect(app.dependencies?.map((d) => `${d.id} ${d.status}`)).toEqual(['base@team-tools installed', 'lib@shared installed', 'fmt@shared installed'])
    expect(installedIds()).toEqual(['app@team-tools', 'base@team-tools', 'fmt@shared', 'lib@shared'])
    // The copy came from the other marketplace's repository, into its own cache folder.
    expect(readFileSync(join(dir, 'seam-home', 'claude-plugins', 'cache', 'shared', 'lib', '1.0.0', 'commands', 'lib.md'), 'utf8')).toBe('The lib command.\n')
    expect(installedFile()['lib@shared']).toMatchObject({ auto: true, version: '1.0.0' })
    expect(installedFile()['app@team-tools'].auto).toBeUndefined()
    // Enabled as installed: its command reaches sessions.
    expect(host?.kernel.getService('claudePlugins')?.list(dir).map((p) => `${p.name}@${p.marketplace}`).sort()).toEqual(['app@team-tools', 'base@team-tools', 'fmt@shared', 'lib@shared'])

    const rows = service.rows()
    expect(rows.find((r) => r.id === 'app@team-tools')?.components?.dependencies).toEqual(['base@team-tools', 'lib@shared', 'fmt@shared ^2'])
    expect(rows.find((r) => r.id === 'lib@shared')).toMatchObject({ requiredBy: ['app@team-tools'], installedAsDependency: true })
    expect(rows.find((r) => r.id === 'app@team-tools')?.installedAsDependency).toBeUndefined()
    expect(service.manager.dependents('fmt@shared')).toEqual(['app@team-tools'])

    // Turned off, a dependency leaves its dependent loaded; each session is told (the catalog's warnings).
    service.setEnabled('lib@shared', false)
    expect(host?.kernel.getService('claudePlugins')?.warnings?.(dir)).toContain('Claude Code plugin app@team-tools: it depends on lib@shared, not installed or not on here; it is loaded without it')
    service.manager.uninstall('fmt@shared')
    expect(service.catalog().warnings).toContain('Claude Code plugin app@team-tools: it depends on lib@shared, fmt@shared, not installed or not on here; it is loaded without them')
    service.setEnabled('lib@shared', true)
    expect(service.catalog().warnings.filter((w) => w.includes('depends on'))).toEqual(['Claude Code plugin app@team-tools: it depends on fmt@shared, not installed or not on here; it is loaded without it'])
  })

  it('refuses, naming the field and leaving nothing installed: not allowed, marketplace not added, not listed there, range unsatisfied, trust passed along a chain', async () => {
    const service = await start()
    await threeMarketplaces(service)
    const refusal = async (id: string) => {
      const error = await service.manager.install(id).then(
        () => undefined,
        (e: unknown) => e as Error
      )
      expect(installedIds()).toEqual([])
      return error?.message
    }
    expect(await refusal('strict@team-tools')).toBe(
      `strict's plugin.json: dependencies[0]: tool@other is in marketplace "other", which marketplace "team-tools" (that strict@team-tools comes from) does not list in allowCrossMarketplaceDependenciesOn: dependencies on another marketplace are refused unless it does, or unless tool@other is installed first (seam plugin install tool@other); strict@team-tools is not installed`
    )
    expect(await refusal('ghost@team-tools')).toBe(`ghost's plugin.json: dependencies[1]: x@nowhere: marketplace "nowhere" is not added (seam plugin marketplace add SOURCE), then install again; ghost@team-tools is not installed`)
    expect(await refusal('lost@team-tools')).toBe(`lost's plugin.json: dependencies[0]: marketplace "shared" has no plugin "nope" (it lists lib, fmt, hop); lost@team-tools is not installed`)
    // base@team-tools and lib@shared were installed for it, and went again with the refusal.
    expect(await refusal('picky@team-tools')).toBe(`picky's plugin.json: dependencies[2]: fmt@shared is at version 2.1.0, which does not satisfy ">=3"; picky@team-tools is not installed`)
    // shared allows other, but only team-tools' list counts when deep@team-tools is installed.
    expect(await refusal('deep@team-tools')).toMatch(/^hop's plugin\.json: dependencies\[1\]: far@other is in marketplace "other", which marketplace "team-tools" \(that deep@team-tools comes from\) does not list/)
    // No copy, and no empty folder, of what was installed for them and removed again.
    const cache = join(dir, 'seam-home', 'claude-plugins', 'cache')
    expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([])
  })

  it('a marketplace a settings file declares but not added: the refusal gives its source and the file, and adds nothing', async () => {
    const settings = join(dir, 'claude-home', 'settings.json')
    writeFiles(join(dir, 'claude-home'), { 'settings.json': JSON.stringify({ extraKnownMarketplaces: { nowhere: { source: { source: 'git', url: 'https://example.invalid/nowhere.git' } } } }) })
    const service = await start()
    await threeMarketplaces(service)
    await expect(service.manager.install('ghost@team-tools')).rejects.toThrow(
      `ghost's plugin.json: dependencies[1]: x@nowhere: marketplace "nowhere" is not added (seam plugin marketplace add https://example.invalid/nowhere.git, as ${settings} declares it), then install again; ghost@team-tools is not installed`
    )
    expect(installedIds()).toEqual([])
    expect(service.manager.listMarketplaces().find((m) => m.name === 'nowhere')?.added).toBe(false)
  })

  it('uses a dependency of another marketplace installed already, allowed or not; its own install from its marketplace allows its chain', async () => {
    const service = await start()
    await threeMarketplaces(service)
    // Installed by the user first: strict@team-tools uses it as it is.
    await service.manager.install('tool@other')
    const strict = await service.manager.install('strict@team-tools')
    expect(strict.dependencies?.map((d) => `${d.id} ${d.status}`)).toEqual(['tool@other unchanged'])
    // hop@shared asked for by name: shared's allowlist (other) applies, so far@other comes with it.
    await service.manager.install('hop@shared')
    expect(installedIds()).toEqual(['far@other', 'hop@shared', 'lib@shared', 'strict@team-tools', 'tool@other'])
    // ...and deep@team-tools now finds hop@shared installed.
    expect((await service.manager.install('deep@team-tools')).dependencies?.map((d) => d.id)).toEqual(['hop@shared'])
  })

  it('prune uninstalls what was installed as a dependency once nothing installed needs it, never what the user installed', async () => {
    const service = await start()
    await threeMarketplaces(service)
    await service.manager.install('hop@shared') // lib@shared and far@other come as dependencies
    await service.manager.install('wide@team-tools') // needs hop@shared (installed by the user)
    await service.manager.install('app@team-tools') // base@team-tools and fmt@shared as dependencies; lib@shared is there already
    expect(service.manager.orphans()).toEqual([])

    service.manager.uninstall('app@team-tools')
    // lib@shared stays: hop@shared (the user's) needs it. base and fmt go, with their data.
    expect(service.manager.orphans().sort()).toEqual(['base@team-tools', 'fmt@shared'])
    expect(existsSync(join(dir, 'seam-home', 'claude-plugins', 'data', 'fmt-shared'))).toBe(true)
    expect(service.manager.prune().sort()).toEqual(['base@team-tools', 'fmt@shared'])
    expect(existsSync(join(dir, 'seam-home', 'claude-plugins', 'data', 'fmt-shared'))).toBe(false)
    expect(installedIds()).toEqual(['far@other', 'hop@shared', 'lib@shared', 'wide@team-tools'])

    // hop@shared was installed by the user: uninstalling wide leaves it, and what it needs.
    service.manager.uninstall('wide@team-tools')
    expect(service.manager.prune()).toEqual([])
    // Gone: lib@shared and far@other are needed by nothing now (hop's chain, dependents first).
    service.manager.uninstall('hop@shared')
    expect(service.manager.orphans().sort()).toEqual(['far@other', 'lib@shared'])
    expect(service.manager.prune().sort()).toEqual(['far@other', 'lib@shared'])
    expect(installedIds()).toEqual([])
  })

  it('installing a dependency by name makes it the user’s: prune keeps it; an update keeps what it was', async () => {
    const service = await start()
    await threeMarketplaces(service)
    await service.manager.install('app@team-tools')
    await service.manager.update('fmt@shared')
    expect(installedFile()['fmt@shared'].auto).toBe(true)
    await service.manager.install('lib@shared')
    expect(installedFile()['lib@shared'].auto).toBeUndefined()
    service.manager.uninstall('app@team-tools')
    expect(service.manager.prune().sort()).toEqual(['base@team-tools', 'fmt@shared'])
    expect(installedIds()).toEqual(['lib@shared'])
  })

  it('prune refuses to guess when a needed plugin cannot be read', async () => {
    const service = await start()
    await threeMarketplaces(service)
    await service.manager.install('app@team-tools')
    writeFiles(join(dir, 'seam-home', 'claude-plugins', 'cache', 'team-tools', 'app', '0.1.0'), { '.claude-plugin/plugin.json': '{ not json' })
    expect(() => service.manager.orphans()).toThrow(/cannot tell what app@team-tools depends on: its copy .* cannot be read/)
    expect(installedIds()).toEqual(['app@team-tools', 'base@team-tools', 'fmt@shared', 'lib@shared'])
  })
})
