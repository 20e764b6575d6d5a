// The plugin parts beyond commands, agents, skills, hooks and MCP servers, read from a real plugin
// folder (claude-code-extensions.md §1(c)): output styles (`output-styles/`, replaced by the
// manifest's `outputStyles`), `.lsp.json` and `lspServers`, `monitors/monitors.json`, the plugin's
// `settings.json` (only `agent` and `subagentStatusLine`), and `userConfig` with its validation.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins from './index'
import { readPluginFolder, PluginManifestError } from './manifest'
import { writeFiles } from './test-fixtures'

let dir: string
let host: TestHost | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-claude-parts-'))
})
afterEach(async () => {
  await host?.cleanup()
  host = undefined
  rmSync(dir, { recursive: true, force: true })
})

const PLUGIN_JSON = {
  name: 'kit',
  version: '1.0.0',
  userConfig: {
    ENDPOINT: { type: 'string', title: 'Endpoint', required: true },
    KEY: { type: 'string', sensitive: true },
    VERBOSE: { type: 'boolean', default: false }
  }
}

function kitFolder(extra: Record<string, string> = {}): string {
  const root = join(dir, 'kit')
  writeFiles(root, {
    '.claude-plugin/plugin.json': JSON.stringify(PLUGIN_JSON),
    'output-styles/terse.md': '---\nname: Terse\ndescription: Short answers\n---\nAnswer in one sentence.\n',
    'output-styles/teacher.md': 'Explain as to a student.\n',
    '.lsp.json': JSON.stringify({ typescript: { command: 'typescript-language-server', args: ['--stdio'], extensionToLanguage: { '.ts': 'typescript' } }, broken: { args: ['x'] } }),
    'monitors/monitors.json': JSON.stringify({
      monitors: [
        { name: 'build-log', command: 'tail -f ${CLAUDE_PLUGIN_DATA}/build.log', description: 'Build log' },
        { name: 'no-command', description: 'Nothing' },
        { name: 'on-review', command: 'watch ${user_config.ENDPOINT}', description: 'Review feed', when: 'on-skill-invoke:review' },
        { name: 'bad-when', command: 'true', description: 'Never', when: 'sometimes' },
        { name: 'build-log', command: 'again', description: 'Twice' }
      ]
    }),
    'settings.json': JSON.stringify({ agent: 'kit:reviewer', subagentStatusLine: { type: 'command', command: 'rows ${CLAUDE_PLUGIN_ROOT} ${user_config.ENDPOINT} ${user_config.KEY}' }, model: 'opus' }),
    'agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews\n---\nReview against ${user_config.ENDPOINT}.\n',
    'hooks/hooks.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify ${user_config.ENDPOINT} ${user_config.KEY}' }] }] } }),
    ...extra
  })
  return root
}

describe('plugin parts: output styles, LSP servers, monitors, settings.json, userConfig (issue 29)', () => {
  it('reads and validates each part; a bad entry is a problem naming the file and field, and the rest loads', () => {
    const root = kitFolder()
    const layout = readPluginFolder(root)
    expect(layout.outputStyles).toEqual([join(root, 'output-styles')])
    expect(Object.keys(layout.lspServers[0].servers)).toEqual(['typescript'])
    expect(layout.monitors[0].monitors).toEqual([
      { name: 'build-log', command: 'tail -f ${CLAUDE_PLUGIN_DATA}/build.log', description: 'Build log', when: 'always' },
      { name: 'on-review', command: 'watch ${user_config.ENDPOINT}', description: 'Review feed', when: 'on-skill-invoke:review' }
    ])
    expect(layout.settings).toMatchObject({ agent: 'kit:reviewer', subagentStatusLine: { type: 'command', command: 'rows ${CLAUDE_PLUGIN_ROOT} ${user_config.ENDPOINT} ${user_config.KEY}' }, ignored: ['model'] })
    expect(Object.keys(layout.userConfig)).toEqual(['ENDPOINT', 'KEY', 'VERBOSE'])
    expect(layout.problems).toEqual([
      `${join(root, '.lsp.json')}: broken: command: Invalid input: expected string, received undefined; extensionToLanguage: Invalid input: expected record, received undefined; ignored`,
      `${join(root, 'monitors', 'monitors.json')}: monitors[1]: command: Invalid input: expected string, received undefined; ignored`,
      `${join(root, 'monitors', 'monitors.json')}: monitors[3]: when: must be "always" or "on-skill-invoke:<skill>"; ignored`,
      `${join(root, 'monitors', 'monitors.json')}: monitors[4]: name: "build-log" is already a monitor of this plugin; ignored`,
      `${join(root, 'settings.json')}: model: a plugin's settings.json honours only agent and subagentStatusLine; ignored`
    ])
  })

  it('themes/ are listed by name and file (Settings → Theme applies them); channels are listed with the entry that enables them; workflows/ are listed as not supported by Seam, with why; dependencies are listed with their ranges', async () => {
    const root = join(dir, 'looks')
    writeFiles(root, {
      '.claude-plugin/plugin.json': JSON.stringify({
        name: 'looks',
        userConfig: { TOKEN: { type: 'string' } },
        channels: [{ server: 'chat', userConfig: { OWNER: { type: 'string', title: 'Owner id' }, TOKEN: { type: 'number' } } }, { server: 'missing' }],
        dependencies: ['base', { name: 'lib', version: '^1.2.0' }]
      }),
      '.mcp.json': JSON.stringify({ mcpServers: { chat: { command: 'node', args: ['chat.js'] } } }),
      'themes/dusk.json': '{}\n',
      'themes/night.json': JSON.stringify({ name: 'Night Owl', base: 'dark', overrides: { text: '#ffffff' } }),
      'workflows/route-audit.md': 'Audit the routes.\n'
    })
    host = await createTestHost({ plugins: [[claudePlugins, { userSettingsPath: join(dir, 'claude-home', 'settings.json'), seamHome: join(dir, 'seam-home'), pluginDirs: [root] }]], trusted: true })
    const [row] = host.kernel.getService('claudePluginManager')!.rows()
    expect(row.components?.dependencies).toEqual(['base', 'lib ^1.2.0'])
    expect(row.components?.themes).toEqual(['dusk (dusk.json)', 'Night Owl (night.json)'])
    expect(row.components?.unsupported).toEqual([
      "workflow route-audit.md: not supported by Seam: it is a script for Claude Code's workflow runtime (agent(), parallel(), pipeline(), phase()), whose full API the published docs do not record"
    ])
    expect(row.components?.channels).toEqual(['plugin_looks_chat (--channels plugin:looks)'])
    // A channel's own userConfig is asked for with the plugin's; a key given twice keeps the first; a channel naming no server of the plugin is left out.
    const layout = readPluginFolder(root)
    expect(layout.channels).toEqual(['chat'])
    expect(Object.keys(layout.userConfig)).toEqual(['TOKEN', 'OWNER'])
    expect(layout.userConfig.TOKEN.type).toBe('string')
    expect(layout.problems).toEqual([
      `${join(root, '.claude-plugin', 'plugin.json')}: channels[0].userConfig.TOKEN: the plugin already has a userConfig option "TOKEN"; the first one is used`,
      `${join(root, '.claude-plugin', 'plugin.json')}: channels[1].server: "missing" is not one of the plugin's MCP servers (chat); that channel is left out`
    ])
    // A channel without its server, or a dependency that is not a plugin name, keeps the plugin from loading, naming the field.
    writeFiles(root, { '.claude-plugin/plugin.json': JSON.stringify({ name: 'looks', channels: [{}], dependencies: ['Not A Name!'] }) })
    expect(() => readPluginFolder(root)).toThrow(/plugin\.json: (channels\[0\]\.server|dependencies\[0\])/)
  })

  it('outputStyles in the manifest replaces output-styles/; a bad userConfig keeps the plugin from loading, naming the field', () => {
    const root = kitFolder({ 'styles/only.md': 'Only.\n' })
    writeFiles(root, { '.claude-plugin/plugin.json': JSON.stringify({ ...PLUGIN_JSON, outputStyles: './styles', lspServers: { go: { command: 'gopls', extensionToLanguage: { '.go': 'go' } } }, experimental: { monitors: [{ name: 'm', command: 'watch', description: 'Watch' }] } }) })
    const layout = readPluginFolder(root)
    expect(layout.outputStyles).toEqual([join(root, 'styles')])
    expect(layout.lspServers.flatMap((s) => Object.keys(s.servers))).toEqual(['typescript', 'go'])
    expect(layout.monitors.flatMap((m) => m.monitors.map((x) => x.name))).toEqual(['build-log', 'on-review', 'm'])

    writeFiles(root, { '.claude-plugin/plugin.json': JSON.stringify({ name: 'kit', userConfig: { 'bad-key': { type: 'string' } } }) })
    expect(() => readPluginFolder(root)).toThrow(PluginManifestError)
    expect(() => readPluginFolder(root)).toThrow(/plugin\.json: userConfig\.bad-key: Invalid key/)
    writeFiles(root, { '.claude-plugin/plugin.json': JSON.stringify({ name: 'kit', userConfig: { K: { type: 'colour' } } }) })
    expect(() => readPluginFolder(root)).toThrow(/plugin\.json: userConfig\.K\.type: Invalid option/)
  })

  it('the manager lists every part by name (LSP servers with their state, here not run as there is no lsp entry; monitors as what runs); a plugin missing a required option does not load until configured, and sensitive values stay out of rows and model-visible content', async () => {
    const root = kitFolder()
    host = await createTestHost({ plugins: [[claudePlugins, { userSettingsPath: join(dir, 'claude-home', 'settings.json'), seamHome: join(dir, 'seam-home'), pluginDirs: [root] }]], trusted: true })
    const manager = host.kernel.getService('claudePluginManager')!
    const catalog = host.kernel.getService('claudePlugins')!
    let row = manager.rows()[0]
    expect(row.components).toMatchObject({
      outputStyles: ['kit:teacher', 'kit:Terse'],
      lspServers: ['typescript: typescript-language-server --stdio (not run: the lsp entry is off)'],
      monitors: [`build-log: tail -f ${join(dir, 'seam-home', 'claude-plugins', 'data', 'kit-inline')}/build.log`, 'on-review: watch ${user_config.ENDPOINT} (on-skill-invoke:review)'],
      settingsAgent: 'kit:reviewer'
    })
    expect(row.state).toBe('unconfigured')
    expect(row.problems[0]).toContain('userConfig.ENDPOINT (seam plugin config kit')
    expect(catalog.list(host.workspace)).toEqual([])
    expect(catalog.warnings!(host.workspace).join('\n')).toContain('it needs its settings before it loads: userConfig.ENDPOINT')

    expect(() => manager.configure('kit', { VERBOSE: 'maybe' })).toThrow('userConfig.VERBOSE: expected true or false, got "maybe"')
    row = manager.configure('kit', { ENDPOINT: 'https://e.test', KEY: 'hidden-key', VERBOSE: 'yes' })
    expect(row.state).toBe('enabled')
    expect(row.userConfig).toEqual([
      { key: 'ENDPOINT', type: 'string', title: 'Endpoint', sensitive: false, required: true, set: true, value: 'https://e.test' },
      { key: 'KEY', type: 'string', sensitive: true, required: false, set: true },
      { key: 'VERBOSE', type: 'boolean', sensitive: false, required: false, set: true, value: true }
    ])
    // What a person sees of the hook masks the sensitive value; the hook itself gets it.
    expect(row.components?.hooks).toEqual(['Stop: notify https://e.test ••••••'])
    expect(row.runs).toContain('monitor on-review: watch https://e.test (on-skill-invoke:review)')
    expect(JSON.stringify(row)).not.toContain('hidden-key')
    const [plugin] = catalog.list(host.workspace)
    expect(JSON.stringify(plugin.hooks)).toContain('notify https://e.test hidden-key')
    expect(plugin.userConfig).toEqual({ ENDPOINT: 'https://e.test', VERBOSE: 'true' })
    expect(plugin.settingsAgent).toBe('kit:reviewer')
    // Monitors get every plugin variable and userConfig value written into their command, as hooks do.
    expect(plugin.monitors).toEqual([
      { file: join(root, 'monitors', 'monitors.json'), name: 'build-log', command: `tail -f ${join(dir, 'seam-home', 'claude-plugins', 'data', 'kit-inline')}/build.log`, description: 'Build log', when: 'always' },
      { file: join(root, 'monitors', 'monitors.json'), name: 'on-review', command: 'watch https://e.test', description: 'Review feed', when: 'on-skill-invoke:review' }
    ])
    expect(plugin.outputStyles).toEqual([join(root, 'output-styles')])
    // The subagentStatusLine command, a process as a monitor is: every variable and value written in; its row masks the sensitive one.
    expect(plugin.subagentStatusLine).toEqual({ file: join(root, 'settings.json'), command: `rows ${root} https://e.test hidden-key` })
    expect(row.components?.subagentStatusLine).toBe(`rows ${root} https://e.test ••••••`)
    expect(row.runs).toContain(`subagent status line: rows ${root} https://e.test ••••••`)

    // Enabled by the workspace's settings, it is a trust item whose approved text names each monitor's command (the sensitive value masked).
    writeFiles(host.workspace, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { kit: true } }) })
    const [item] = host.trustItems().filter((i) => i.event === 'plugin')
    expect(item.command).toContain(`subagent status line: rows ${root} https://e.test ••••••`)
    expect(item.command).toContain(`monitor build-log: tail -f ${join(dir, 'seam-home', 'claude-plugins', 'data', 'kit-inline')}/build.log; monitor on-review: watch https://e.test`)
  })
})
