// The plugin manager's rows (issue 29): a plugin installed from a marketplace in a real git
// repository, its components by name, the switch (installed_plugins.json written atomically, the
// same operation as `seam plugin enable|disable`), refused where a workspace settings file decides.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins from './index'
import { parseMarketplaceArg } from './manager'
import { fullPluginFiles, gitRepo, marketplaceJson, writeFiles } from './test-fixtures'

let dir: string
let host: TestHost | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-plugin-rows-'))
})
afterEach(async () => {
  await host?.cleanup()
  rmSync(dir, { recursive: true, force: true })
})

describe('claude-plugins manager rows', () => {
  it('names each component, what it runs, who decides; the switch writes installed_plugins.json and is refused where the project decides', async () => {
    const repo = join(dir, 'market')
    gitRepo(repo, {
      '.claude-plugin/marketplace.json': marketplaceJson('team-tools', [{ name: 'kit', source: './plugins/kit' }]),
      ...Object.fromEntries(Object.entries(fullPluginFiles('kit')).map(([k, v]) => [`plugins/kit/${k}`, v])),
      'plugins/kit/commands/git/push.md': 'push\n'
    })
    writeFiles(join(dir, 'folder-plugin'), { 'commands/a.md': 'a\n' })
    host = await createTestHost({ plugins: [[claudePlugins, { userSettingsPath: join(dir, 'claude-home', 'settings.json'), seamHome: join(dir, 'seam-home'), pluginDirs: [join(dir, 'folder-plugin')] }]], trusted: true })
    const service = host.kernel.getService('claudePluginManager')!
    await service.manager.addMarketplace(parseMarketplaceArg(repo, dir))
    await service.manager.install('kit@team-tools')
    const root = join(dir, 'seam-home', 'claude-plugins', 'cache', 'team-tools', 'kit', '1.0.0')
    const data = join(dir, 'seam-home', 'claude-plugins', 'data', 'kit-team-tools')

    const [kit, folder] = service.rows()
    expect(kit).toMatchObject({ id: 'kit@team-tools', origin: 'marketplace', version: '1.0.0', state: 'enabled', decidedScope: 'default', switchable: true, problems: [] })
    expect(kit.components).toEqual({
      commands: ['/kit:git:push', '/kit:hello'],
      agents: ['reviewer'],
      skills: ['kit:greet'],
      hooks: [`PreToolUse: ${root}/scripts/guard.sh`],
      mcpServers: [`plugin_kit_tools: ${root}/bin/server --data ${data}`],
      bin: ['server'],
      outputStyles: [],
      lspServers: [],
      monitors: [],
      themes: [],
      dependencies: [],
      channels: [],
      unsupported: []
    })
    expect(kit.runs).toEqual([`hook PreToolUse: ${root}/scripts/guard.sh`, `MCP server plugin_kit_tools: ${root}/bin/server --data ${data}`, 'bin/server on the Bash PATH'])
    expect(folder).toMatchObject({ id: 'folder-plugin', origin: 'local', switchable: false })
    expect(folder.switchNote).toMatch(/pluginDirs/)

    expect(service.setEnabled('kit@team-tools', false)).toMatchObject({ state: 'disabled', decidedScope: 'seam' })
    const file = JSON.parse(readFileSync(join(dir, 'seam-home', 'claude-plugins', 'installed_plugins.json'), 'utf8'))
    expect(file.plugins['kit@team-tools'].enabled).toBe(false)
    expect(host.kernel.getService('claudePlugins')!.list(host.workspace).map((p) => p.name)).toEqual(['folder-plugin'])
    expect(service.setEnabled('kit@team-tools', true).state).toBe('enabled')

    writeFiles(host.workspace, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'kit@team-tools': false } }) })
    expect(() => service.setEnabled('kit@team-tools', true)).toThrow(/settings\.json decides .*outrank Seam's switch/)
    expect(() => service.setEnabled('nope@team-tools', true)).toThrow(/no Claude Code plugin "nope@team-tools"/)
  })
})
