// @vitest-environment happy-dom
// Issue 29, the plugin manager: Claude Code and Codex plugins beside Seam's bundles, with source,
// version, components (counts, names on expand), state, and a switch whose confirmation names what
// starts or stops running; a switch a workspace settings file outranks is disabled and says why.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ClaudePluginRow } from '../../../src-shared/contract/claude-plugins'
import type { PluginInfo } from '../../../src-shared/contract/ipc'
import { HostProvider } from '../../app/host-context'
import { FakeHost } from '../../test/fake-host'
import { resetStores } from '../../test/reset-stores'
import { PluginManagerPage } from '../PluginManagerPage'

const kit: ClaudePluginRow = {
  id: 'kit@team-tools',
  name: 'kit',
  marketplace: 'team-tools',
  version: '1.0.0',
  description: 'the kit',
  format: 'claude',
  origin: 'marketplace',
  source: 'team-tools:./plugins/kit',
  state: 'enabled',
  decidedBy: 'default',
  decidedScope: 'default',
  problems: [],
  components: {
    commands: ['/kit:hello'],
    agents: ['reviewer'],
    skills: ['kit:greet'],
    hooks: ['PreToolUse: /home/u/.seam/claude-plugins/cache/team-tools/kit/1.0.0/scripts/guard.sh'],
    mcpServers: ['plugin_kit_tools: /home/u/.seam/claude-plugins/cache/team-tools/kit/1.0.0/bin/server'],
    bin: ['server'],
    outputStyles: ['kit:terse'],
    lspServers: ['typescript: typescript-language-server --stdio'],
    monitors: ['build-log: tail -f build.log'],
    settingsAgent: 'kit:reviewer',
    dependencies: ['base@team-tools ^1.0.0', 'fmt@shared'],
    themes: ['Dusk (dusk.json)'],
    unsupported: ['workflow route-audit.md: not supported by Seam: the spec does not record what a workflow file holds or how Claude Code runs it']
  },
  runs: ['hook PreToolUse: …/scripts/guard.sh', 'MCP server plugin_kit_tools: …/bin/server', 'bin/server on the Bash PATH'],
  switchable: true,
  userConfig: [],
  requiredBy: ['app@team-tools']
}

const projectOwned: ClaudePluginRow = {
  ...kit,
  id: 'lint@team-tools',
  name: 'lint',
  description: 'lint rules',
  decidedBy: '/w/.claude/settings.json',
  decidedScope: 'project',
  state: 'unapproved',
  problems: ['/w/.claude/settings.json enables it, and it is new or changed since the workspace was trusted: approve it in the workspace trust dialog'],
  switchable: false,
  switchNote: "/w/.claude/settings.json decides (its enabledPlugins outrank Seam's switch): change it there"
}

const fmt: ClaudePluginRow = { ...kit, id: 'fmt@shared', name: 'fmt', marketplace: 'shared', source: 'shared:./plugins/fmt', description: 'formatter', requiredBy: ['kit@team-tools'], installedAsDependency: true }

const codex: ClaudePluginRow = {
  id: 'notes', name: 'notes', format: 'codex', origin: 'local', source: '/plugins/notes', state: 'broken', decidedBy: 'Seam', decidedScope: 'seam',
  problems: ['/plugins/notes/.codex-plugin/plugin.json: name: a plugin name is kebab-case'], runs: [], switchable: false, userConfig: [], switchNote: 'loaded from a folder named in the claude-plugins config (pluginDirs): remove it there to turn it off'
}

let host: FakeHost
let rows: ClaudePluginRow[]
const bundles: PluginInfo[] = [{ id: 'w', name: 'weather', version: '1.2.0', source: '/p/weather.tgz', kind: 'bundle', state: 'active', missing: [], parts: { host: true, client: true } }]

beforeEach(() => {
  resetStores()
  rows = [kit, projectOwned, fmt, codex]
  host = new FakeHost({
    'plugins/list': () => bundles,
    'plugins/tree': () => ({ entries: [{ id: 'w', plugin: 'bundle:weather', kind: 'bundle', state: 'active', missing: [], origin: 'bundle lock', layer: 'bundle', tools: ['Weather'] }], userLayer: '/u/cordis.patch.yml' }),
    'claudePlugins/list': () => ({ available: true, plugins: rows, warnings: ['Claude Code plugin notes: broken manifest'] }),
    'claudePlugins/set-enabled': ({ id, enabled }) => {
      const row = rows.find((r) => r.id === id)!
      const next: ClaudePluginRow = { ...row, state: enabled ? 'enabled' : 'disabled', decidedBy: 'Seam', decidedScope: 'seam' }
      rows = rows.map((r) => (r.id === id ? next : r))
      return next
    }
  })
})
afterEach(cleanup)

async function renderPage() {
  await act(async () => {
    render(<HostProvider host={host}><PluginManagerPage /></HostProvider>)
  })
}

describe('plugin manager: Claude Code plugins beside Seam bundles (issue 29)', () => {
  it('lists both kinds with source, version, component counts (names on expand) and state', async () => {
    await renderPage()
    const seam = screen.getByRole('table', { name: 'Installed plugins' })
    const weather = within(seam).getByRole('row', { name: 'weather' })
    expect(weather.textContent).toContain('1.2.0')
    expect(within(weather).getByText('1 tool')).toBeTruthy()

    const table = screen.getByRole('table', { name: 'Claude Code and Codex plugins' })
    const row = within(table).getByRole('row', { name: 'kit@team-tools' })
    for (const text of ['Claude Code plugin', '1.0.0', 'marketplace team-tools', 'team-tools:./plugins/kit', 'enabled', 'on when installed']) expect(row.textContent).toContain(text)
    const summary = within(row).getByLabelText(/^Components of kit@team-tools/)
    expect(summary.textContent).toBe('1 command, 1 agent, 1 skill, 1 hook, 1 MCP server, 1 bin/ program, 1 output style, 1 theme (Settings → Theme), 1 main-thread agent (settings.json), 1 LSP server, 1 monitor, 2 dependencies, 1 part not supported by Seam')
    fireEvent.click(summary)
    expect(within(row).getByText('/kit:hello')).toBeTruthy()
    expect(within(row).getByText('kit:greet')).toBeTruthy()
    expect(within(row).getByText(/^plugin_kit_tools: /)).toBeTruthy()
    expect(within(row).getByText('kit:terse')).toBeTruthy()
    expect(within(row).getByText('typescript: typescript-language-server --stdio')).toBeTruthy()
    // Each dependency with the marketplace it comes from (another one, when its marketplace allows it).
    expect(within(row).getByText('fmt@shared')).toBeTruthy()
    expect(row.textContent).not.toContain('installed as a dependency')

    expect(within(table).getByRole('row', { name: 'fmt@shared' }).textContent).toContain('installed as a dependency')

    const pending = within(table).getByRole('row', { name: 'lint@team-tools' })
    expect(pending.textContent).toContain('pending trust')
    expect(pending.textContent).toContain('approve it in the workspace trust dialog')
    const broken = within(table).getByRole('row', { name: 'notes' })
    expect(broken.textContent).toContain('Codex plugin')
    expect(broken.textContent).toContain('local folder')
    expect(broken.textContent).toContain('error')
    expect(broken.textContent).toContain('kebab-case')
    expect(screen.getByRole('list', { name: 'Claude Code plugin warnings' }).textContent).toContain('broken manifest')
  })

  it('the switch asks first, naming what stops running, and calls claudePlugins/set-enabled only on confirm', async () => {
    await renderPage()
    const row = screen.getByRole('row', { name: 'kit@team-tools' })
    const toggle = within(row).getByRole('switch', { name: 'kit@team-tools enabled' })
    expect(toggle.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(toggle)
    const dialog = screen.getByRole('dialog', { name: 'Turn off kit@team-tools?' })
    expect(dialog.textContent).toContain('These stop running:')
    expect(dialog.textContent).toContain('MCP server plugin_kit_tools')
    expect(dialog.textContent).toContain('hook PreToolUse')
    expect(dialog.textContent).toContain('No longer offered to sessions: /kit:hello, skill kit:greet, agent reviewer.')
    expect(dialog.textContent).toContain('app@team-tools depends on it and stays on without it.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(host.callsOf('claudePlugins/set-enabled')).toEqual([])
    expect(toggle.getAttribute('aria-checked')).toBe('true')

    fireEvent.click(toggle)
    await act(async () => {
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Turn off kit@team-tools' }))
    })
    expect(host.callsOf('claudePlugins/set-enabled')).toEqual([{ id: 'kit@team-tools', enabled: false }])
    expect(within(row).getByRole('switch', { name: 'kit@team-tools enabled' }).getAttribute('aria-checked')).toBe('false')
    expect(row.textContent).toContain('set in Seam')

    fireEvent.click(within(row).getByRole('switch', { name: 'kit@team-tools enabled' }))
    const on = screen.getByRole('dialog', { name: 'Turn on kit@team-tools?' })
    expect(on.textContent).toContain('These start running:')
    expect(on.textContent).not.toContain('depends on it')
    expect(on.textContent).toContain('bin/server on the Bash PATH')
  })

  it('a host refusal stays in the dialog with its message; a switch a settings file outranks is disabled with the reason', async () => {
    host.handlers['claudePlugins/set-enabled'] = () => {
      throw Object.assign(new Error('kit@team-tools is not installed (seam plugin install kit@team-tools)'), { code: 'PLUGIN', field: 'id' })
    }
    await renderPage()
    fireEvent.click(screen.getByRole('switch', { name: 'kit@team-tools enabled' }))
    const dialog = screen.getByRole('dialog', { name: 'Turn off kit@team-tools?' })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off kit@team-tools' }))
    })
    expect(within(dialog).getByRole('alert').textContent).toContain('is not installed')

    const locked = screen.getByRole('switch', { name: 'lint@team-tools enabled' })
    expect((locked as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByRole('row', { name: 'lint@team-tools' }).textContent).toContain("outrank Seam's switch")
  })

  it('userConfig: turning on a plugin that needs settings opens its form; a sensitive value never shows and is kept when left empty; the host names a bad field', async () => {
    const vault: ClaudePluginRow = {
      ...kit,
      id: 'vault@team-tools',
      name: 'vault',
      state: 'disabled',
      decidedBy: 'Seam',
      decidedScope: 'seam',
      userConfig: [
        { key: 'API_URL', type: 'string', title: 'API address', required: true, sensitive: false, set: false },
        { key: 'TOKEN', type: 'string', title: 'Token', required: true, sensitive: true, set: true },
        { key: 'RETRIES', type: 'number', required: false, sensitive: false, set: true, value: 3 }
      ]
    }
    rows = [vault]
    host.handlers['claudePlugins/set-enabled'] = ({ id }) => {
      const next: ClaudePluginRow = { ...vault, id, state: 'unconfigured', problems: ['it needs its settings before it loads: userConfig.API_URL'] }
      rows = [next]
      return next
    }
    let attempt = 0
    host.handlers['claudePlugins/configure'] = ({ values }) => {
      attempt += 1
      if (attempt === 1) throw Object.assign(new Error('userConfig.RETRIES: 99 is above the maximum 10'), { code: 'PLUGIN', field: 'values.RETRIES' })
      return { ...vault, state: 'enabled', userConfig: vault.userConfig.map((f) => (f.key in values ? { ...f, set: true, ...(f.sensitive ? {} : { value: values[f.key]! }) } : f)) }
    }
    await renderPage()
    const row = screen.getByRole('row', { name: 'vault@team-tools' })
    fireEvent.click(within(row).getByRole('switch', { name: 'vault@team-tools enabled' }))
    await act(async () => {
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Turn on vault@team-tools' }))
    })
    const form = screen.getByRole('dialog', { name: 'Settings of vault@team-tools' })
    const token = within(form).getByLabelText('Token (required)') as HTMLInputElement
    expect(token.type).toBe('password')
    expect(token.value).toBe('')
    expect(token.placeholder).toBe('set (leave empty to keep it)')
    expect((within(form).getByLabelText('RETRIES') as HTMLInputElement).value).toBe('3')
    fireEvent.change(within(form).getByLabelText('API address (required)'), { target: { value: 'https://api.example.test' } })
    fireEvent.change(within(form).getByLabelText('RETRIES'), { target: { value: '99' } })
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save settings' }))
    })
    expect(within(form).getByRole('alert').textContent).toContain('userConfig.RETRIES: 99 is above the maximum 10')
    fireEvent.change(within(form).getByLabelText('RETRIES'), { target: { value: '5' } })
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save settings' }))
    })
    // Only what changed is sent; the empty sensitive field keeps the stored token.
    expect(host.callsOf('claudePlugins/configure')).toEqual([
      { id: 'vault@team-tools', values: { API_URL: 'https://api.example.test', RETRIES: '99' } },
      { id: 'vault@team-tools', values: { API_URL: 'https://api.example.test', RETRIES: '5' } }
    ])
    expect(screen.queryByRole('dialog', { name: 'Settings of vault@team-tools' })).toBeNull()
    expect(screen.getByRole('row', { name: 'vault@team-tools' }).textContent).toContain('enabled')
  })

  it('says so when the claude-plugins entry is off', async () => {
    host.handlers['claudePlugins/list'] = () => ({ available: false, plugins: [], warnings: [] })
    await renderPage()
    expect(screen.queryByRole('table', { name: 'Claude Code and Codex plugins' })).toBeNull()
    expect(screen.getByText(/Claude Code plugins are off/)).toBeTruthy()
  })

  it('the contract refuses an id that is not NAME@MARKETPLACE, naming the field', async () => {
    await expect(host.invoke('claudePlugins/set-enabled', { id: 'kit', enabled: true })).rejects.toThrow(/id.*NAME@MARKETPLACE|NAME@MARKETPLACE/)
  })
})
