// The plugin catalog on real folders and a marketplace in a real git repository (cloned with the
// system git): what `list()` gives the loaders of commands, agents, skills, hooks and servers.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins, { type ClaudePluginsConfigInput } from './index'
import { parseMarketplaceArg } from './manager'
import { fullPluginFiles, gitCommit, gitRepo, marketplaceJson, writeFiles } from './test-fixtures'

let dir: string
let host: TestHost | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-claude-plugins-'))
})
afterEach(async () => {
  await host?.cleanup()
  host = undefined
  rmSync(dir, { recursive: true, force: true })
})

async function start(config: ClaudePluginsConfigInput = {}, trusted = true): Promise<TestHost> {
  await host?.cleanup()
  host = await createTestHost({ plugins: [[claudePlugins, { userSettingsPath: join(dir, 'claude-home', 'settings.json'), seamHome: join(dir, 'seam-home'), ...config }]], trusted })
  return host
}

function marketRepo(): string {
  const repo = join(dir, 'market')
  gitRepo(repo, {
    '.claude-plugin/marketplace.json': marketplaceJson('team-tools', [
      { name: 'kit', source: './plugins/kit', description: 'the kit' },
      { name: 'bare', source: './plugins/bare', version: '0.3.0' },
      { name: 'sub', source: { source: 'git-subdir', url: `file://${join(dir, 'other')}`, path: 'nested/sub' } },
      { name: 'remote', source: { source: 'url', url: `file://${join(dir, 'other')}` } }
    ]),
    ...prefix('plugins/kit/', fullPluginFiles('kit')),
    'plugins/bare/commands/x.md': 'bare x\n'
  })
  gitRepo(join(dir, 'other'), {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'remote', version: '2.0.0' }),
    'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\nbody\n',
    'nested/sub/.claude-plugin/plugin.json': JSON.stringify({ name: 'sub' }),
    'nested/sub/agents/a.md': '---\nname: a\ndescription: d\n---\n'
  })
  return repo
}

function prefix(p: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [p + k, v]))
}

describe('claude-plugins catalog (issue 29)', () => {
  it('installs from a git marketplace on disk: the copy per version in Seam home, components, substituted hooks and servers, bin', async () => {
    const h = await start()
    const { manager } = h.kernel.getService('claudePluginManager')!
    const added = await manager.addMarketplace(parseMarketplaceArg(`file://${marketRepo()}`, dir))
    expect(added.name).toBe('team-tools')
    const result = await manager.install('kit@team-tools')
    expect(result.status).toBe('installed')
    const root = join(dir, 'seam-home', 'claude-plugins', 'cache', 'team-tools', 'kit', '1.0.0')
    expect(result.record.installPath).toBe(root)
    const [kit] = h.kernel.getService('claudePlugins')!.list(h.workspace)
    const data = join(dir, 'seam-home', 'claude-plugins', 'data', 'kit-team-tools')
    expect(kit).toMatchObject({ name: 'kit', marketplace: 'team-tools', version: '1.0.0', format: 'claude', root, dataDir: data, binDir: join(root, 'bin') })
    expect(kit.commands).toEqual([join(root, 'commands')])
    expect(kit.agents).toEqual([join(root, 'agents')])
    expect(kit.skills).toEqual([join(root, 'skills')])
    expect(kit.env).toEqual({ CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: data })
    expect(kit.hooks?.[0].hooks).toEqual({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${root}/scripts/guard.sh` }] }] })
    expect(kit.mcpServers?.[0].servers).toEqual({ tools: { command: `${root}/bin/server`, args: ['--data', data], env: { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: data } } })
    expect(existsSync(data)).toBe(true)
  })

  it('reads sources ./path without a manifest (the entry names it), git-subdir and url; each pinned by its content', async () => {
    const h = await start()
    const { manager } = h.kernel.getService('claudePluginManager')!
    await manager.addMarketplace(parseMarketplaceArg(`file://${marketRepo()}`, dir))
    const bare = await manager.install('bare@team-tools')
    expect(bare.record.version).toBe('0.3.0')
    const sub = await manager.install('sub@team-tools')
    expect(sub.layout.agents).toEqual([join(sub.record.installPath, 'agents')])
    const remote = await manager.install('remote@team-tools')
    expect(remote.record.version).toBe('2.0.0')
    expect(existsSync(join(remote.record.installPath, '.git'))).toBe(false)
    const names = h.kernel.getService('claudePlugins')!.list(h.workspace).map((p) => p.name)
    expect(names.sort()).toEqual(['bare', 'remote', 'sub'])

    // A copy changed behind Seam's back no longer matches its pin: it is not loaded, and the warning says why.
    writeFileSync(join(bare.record.installPath, 'commands', 'x.md'), 'tampered\n')
    const fresh = await start()
    expect(fresh.kernel.getService('claudePlugins')!.list(fresh.workspace).map((p) => p.name)).not.toContain('bare')
    expect(fresh.kernel.getService('claudePlugins')!.warnings?.(fresh.workspace).join('\n')).toMatch(/bare@team-tools: its files .* changed since it was installed/)
  })

  it('enable, disable, update to a new version, uninstall; settings enabledPlugins decide by scope; onChange fires', async () => {
    const repo = marketRepo()
    const h = await start()
    const service = h.kernel.getService('claudePlugins')!
    const { manager } = h.kernel.getService('claudePluginManager')!
    let changes = 0
    service.onChange(() => changes++)
    await manager.addMarketplace(parseMarketplaceArg(repo, dir))
    await manager.install('kit@team-tools')
    manager.setEnabled('kit@team-tools', false)
    expect(service.list(h.workspace)).toEqual([])
    manager.setEnabled('kit@team-tools', true)
    expect(service.list(h.workspace).map((p) => p.name)).toEqual(['kit'])

    // The workspace's own settings win over Seam's switch (the workspace is trusted).
    writeFiles(h.workspace, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'kit@team-tools': false } }) })
    expect(service.list(h.workspace)).toEqual([])
    rmSync(join(h.workspace, '.claude'), { recursive: true })

    writeFiles(repo, { 'plugins/kit/.claude-plugin/plugin.json': JSON.stringify({ name: 'kit', version: '1.1.0' }) })
    gitCommit(repo, 'kit 1.1.0')
    const updated = await manager.update('kit@team-tools')
    expect(updated.status).toBe('updated')
    const [kit] = service.list(h.workspace)
    expect(kit.version).toBe('1.1.0')
    expect(kit.root.endsWith(join('kit', '1.1.0'))).toBe(true)
    expect(existsSync(join(kit.root, '..', '1.0.0'))).toBe(false)
    expect(existsSync(kit.dataDir)).toBe(true)

    manager.uninstall('kit@team-tools')
    expect(service.list(h.workspace)).toEqual([])
    expect(changes).toBeGreaterThanOrEqual(5)
    expect(JSON.parse(readFileSync(join(dir, 'seam-home', 'claude-plugins', 'installed_plugins.json'), 'utf8')).plugins).toEqual({})
  })

  it('a project enabledPlugins/extraKnownMarketplaces counts only in a trusted workspace; the user ~/.claude settings count always', async () => {
    const repo = marketRepo()
    const settings = { enabledPlugins: { 'kit@team-tools': true }, extraKnownMarketplaces: { 'team-tools': { source: { source: 'git', url: `file://${repo}` } } } }
    const untrusted = await start({}, false)
    writeFiles(untrusted.workspace, { '.claude/settings.json': JSON.stringify(settings) })
    const m1 = untrusted.kernel.getService('claudePluginManager')!
    expect(m1.manager.listMarketplaces()).toEqual([])
    await expect(m1.manager.install('kit@team-tools')).rejects.toThrow(/no marketplace "team-tools" is added/)
    await untrusted.cleanup()

    const trusted = await start({}, true)
    writeFiles(trusted.workspace, { '.claude/settings.json': JSON.stringify(settings) })
    const m2 = trusted.kernel.getService('claudePluginManager')!
    expect(m2.catalog().entries.map((e) => [e.id, e.state])).toEqual([['kit@team-tools', 'not-installed']])
    expect(m2.manager.listMarketplaces()).toMatchObject([{ name: 'team-tools', added: false }])
    // Installing adds the marketplace the project declares.
    await m2.manager.install('kit@team-tools')
    expect(trusted.kernel.getService('claudePlugins')!.list(trusted.workspace).map((p) => p.name)).toEqual(['kit'])
    // Enabled by the project: the trust dialog lists what it runs, pinned by its content hash.
    const [item] = trusted.trustItems().filter((i) => i.source === 'Claude Code plugins')
    expect(item.command).toMatch(/^kit@team-tools 1\.0\.0: hook PreToolUse: .*guard\.sh; MCP server tools: .*bin\/server --data .*data\/kit-team-tools; bin\/ on the Bash PATH$/)

    writeFiles(join(dir, 'claude-home'), { 'settings.json': JSON.stringify({ enabledPlugins: { 'kit@team-tools': false } }) })
    rmSync(join(trusted.workspace, '.claude'), { recursive: true })
    expect(trusted.kernel.getService('claudePlugins')!.list(trusted.workspace)).toEqual([])
  })

  it('loads plugin folders in place with and without a manifest, and a Codex plugin (skills/ and .mcp.json)', async () => {
    writeFiles(join(dir, 'plain-plugin'), { 'commands/a.md': 'a\n', 'agents/b.md': 'b\n' })
    writeFiles(join(dir, 'custom'), {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'custom', commands: ['./extra/cmds'], agents: './my-agents', skills: './more-skills', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo ${CLAUDE_PLUGIN_ROOT}' }] }] } }),
      'commands/ignored.md': 'x\n',
      'skills/one/SKILL.md': 'x\n',
      'more-skills/two/SKILL.md': 'x\n',
      'extra/cmds/c.md': 'c\n'
    })
    writeFiles(join(dir, 'codexy'), {
      '.codex-plugin/plugin.json': JSON.stringify({ name: 'codexy', version: '0.1.0' }),
      'skills/k/SKILL.md': '---\nname: k\ndescription: d\n---\n',
      '.mcp.json': JSON.stringify({ mcpServers: { srv: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/s.mjs'] } } })
    })
    writeFiles(join(dir, 'broken'), { '.claude-plugin/plugin.json': JSON.stringify({ name: 'Not Kebab' }) })
    const h = await start({ pluginDirs: ['plain-plugin', 'custom', 'codexy', 'broken'].map((d) => join(dir, d)) })
    const list = h.kernel.getService('claudePlugins')!.list(h.workspace)
    const byName = Object.fromEntries(list.map((p) => [p.name, p]))
    expect(Object.keys(byName)).toEqual(['plain-plugin', 'custom', 'codexy'])
    expect(byName['plain-plugin'].commands).toEqual([join(dir, 'plain-plugin', 'commands')])
    expect(byName.custom.commands).toEqual([join(dir, 'custom', 'extra', 'cmds')])
    expect(byName.custom.agents).toEqual([join(dir, 'custom', 'my-agents')])
    expect(byName.custom.skills).toEqual([join(dir, 'custom', 'skills'), join(dir, 'custom', 'more-skills')])
    expect(byName.custom.hooks?.[0].hooks).toEqual({ Stop: [{ hooks: [{ type: 'command', command: `echo ${join(dir, 'custom')}` }] }] })
    expect(byName.codexy).toMatchObject({ format: 'codex', version: '0.1.0', skills: [join(dir, 'codexy', 'skills')], commands: [], agents: [] })
    expect(byName.codexy.mcpServers?.[0].servers.srv).toMatchObject({ command: 'node', args: [`${join(dir, 'codexy')}/s.mjs`] })
    expect(h.kernel.getService('claudePlugins')!.warnings?.(h.workspace).join('\n')).toMatch(/broken.*plugin\.json: name: a plugin name is kebab-case/)
  })
})
