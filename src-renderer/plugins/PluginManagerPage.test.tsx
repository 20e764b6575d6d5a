// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PluginInfo } from '../../src-shared/contract/ipc'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { PluginManagerPage } from './PluginManagerPage'

const declaration = {
  name: 'weather', version: '1.2.0', host: 'dist/host.js', client: 'dist/client.js', engines: '>=0.1.0',
  warning: 'The host part runs as trusted code in the Seam main process, with your permissions.'
}

let host: FakeHost
let installed: PluginInfo[]

beforeEach(() => {
  resetStores()
  installed = [
    { id: 'b1', name: 'tools', source: 'base profile', kind: 'builtin', state: 'active', missing: [], parts: { host: true, client: false } },
    { id: 'b2', name: 'hooks-claude', source: 'base profile', kind: 'builtin', state: 'waiting', missing: ['tools'], parts: { host: true, client: true } },
    { id: 'b3', name: 'broken', version: '0.0.1', source: '/p/broken', kind: 'bundle', state: 'failed', error: 'host.js threw: nope', missing: [], parts: { host: true, client: false } }
  ]
  host = new FakeHost({
    'plugins/list': () => installed,
    'plugins/inspect': ({ path }) => {
      if (path === '/bad') throw new Error('engines.seam: ^9.0.0 does not include Seam 0.1.0')
      return declaration
    },
    'plugins/install': ({ path, force }) => {
      if (path === '/p/weather-changed.tgz' && !force) {
        throw Object.assign(new Error('bundle weather@1.2.0 is already installed with different content (installed sha512-OLD, new sha512-NEW)'), { code: 'BUNDLE_CHANGED' })
      }
      if (path === '/p/weather-changed.tgz') return { ...declaration, status: 'replaced' as const, message: 'bundle weather@1.2.0 was replaced: its content was sha512-OLD, it is now sha512-NEW' }
      installed = [...installed, { id: 'w', name: 'weather', version: '1.2.0', source: '/p/weather.tgz', kind: 'bundle', state: 'active', missing: [], parts: { host: true, client: true } }]
      return { ...declaration, status: 'installed' as const, message: 'bundle weather@1.2.0 installed' }
    },
    'plugins/registry-resolve': ({ spec }) => {
      if (spec === 'too-new') throw Object.assign(new Error('too-new@latest is 1.0.0 (engines.seam >=99.0.0), which does not admit Seam 0.1.0'), { code: 'ENGINES' })
      return { name: 'sky', version: '1.1.0', range: spec.includes('@') ? spec.split('@')[1] : '^1.1.0', registry: 'http://127.0.0.1:4873/', engines: '>=0.1.0', description: 'sky bundle' }
    },
    'plugins/registry-install': ({ spec }) => {
      installed = [...installed, { id: 'sky', name: 'sky', version: '1.1.0', source: `${spec} from http://127.0.0.1:4873/`, kind: 'bundle', state: 'active', missing: [], parts: { host: true, client: false } }]
      return { ...declaration, name: 'sky', version: '1.1.0', status: 'installed' as const, message: 'bundle sky@1.1.0 installed', registry: 'http://127.0.0.1:4873/', range: '^1.1.0', notes: [] }
    },
    'plugins/registry-search': () => ({
      registry: 'http://127.0.0.1:4873/',
      hits: [
        { name: 'sky', description: 'sky bundle', version: '2.0.0', engines: '>=99.0.0', fits: true, fitVersion: '1.1.0' },
        { name: 'too-new', description: 'needs a future Seam', version: '1.0.0', engines: '>=99.0.0', fits: false }
      ]
    }),
    'claudePlugins/list': () => ({ available: true, plugins: [], warnings: [] }),
    'plugins/disable': ({ name }) => {
      installed = installed.map((p) => (p.name === name ? { ...p, state: 'disabled' as const } : p))
      return { ok: true as const }
    }
  })
})
afterEach(cleanup)

async function renderPage() {
  await act(async () => {
    render(<HostProvider host={host}><PluginManagerPage /></HostProvider>)
  })
}

describe('PluginManagerPage', () => {
  it('lists state with what a plugin waits for or why it failed, and its parts', async () => {
    await renderPage()
    const table = screen.getByRole('table', { name: 'Installed plugins' })
    expect(within(table).getByRole('row', { name: 'hooks-claude' }).textContent).toContain('waiting for a servicemissing: tools')
    expect(within(table).getByRole('row', { name: 'hooks-claude' }).textContent).toContain('host + client')
    expect(within(table).getByRole('row', { name: 'broken' }).textContent).toContain('host.js threw: nope')
    fireEvent.click(screen.getByRole('switch', { name: 'tools enabled' }))
    const dialog = screen.getByRole('dialog', { name: 'Turn off tools?' })
    expect(dialog.textContent).toContain('Stops the built-in entry tools')
    expect(host.callsOf('plugins/disable')).toEqual([])
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off tools' }))
    })
    expect(host.callsOf('plugins/disable')).toEqual([{ name: 'tools' }])
    expect(screen.getByRole('switch', { name: 'tools enabled' }).getAttribute('aria-checked')).toBe('false')
  })

  it.each([
    ['permission-policy', 'Edit, Write and Bash will run without asking you'],
    ['approval', 'every tool call that needs your approval is refused'],
    ['workspace-guard', 'anywhere on this computer'],
    ['builtin-tools', 'Every built-in tool']
  ])('Disable %s asks first, naming the consequence', async (name, consequence) => {
    installed = [{ id: name, name, source: 'base profile', kind: 'builtin', state: 'active', missing: [], parts: { host: true, client: false } }]
    await renderPage()
    fireEvent.click(screen.getByRole('switch', { name: `${name} enabled` }))
    const dialog = screen.getByRole('dialog', { name: `Turn off ${name}?` })
    expect(dialog.textContent).toContain(consequence)
    expect(host.callsOf('plugins/disable')).toEqual([])
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: `Turn off ${name}` }))
    })
    expect(host.callsOf('plugins/disable')).toEqual([{ name }])
    expect(screen.getByRole('switch', { name: `${name} enabled` }).getAttribute('aria-checked')).toBe('false')
  })

  it('install from a file: inspect first, a dialog lists the declaration and the trusted-code warning, then install', async () => {
    await renderPage()
    fireEvent.change(screen.getByLabelText('Bundle path or package name'), { target: { value: '/p/weather.tgz' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install from file…' }))
    })
    const dialog = screen.getByRole('dialog', { name: 'Install plugin bundle' })
    for (const part of ['weather', '1.2.0', 'dist/host.js', 'dist/client.js', declaration.warning]) expect(dialog.textContent).toContain(part)
    expect(host.callsOf('plugins/install')).toEqual([])
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Install' }))
    })
    expect(host.callsOf('plugins/install')).toEqual([{ path: '/p/weather.tgz' }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('row', { name: 'weather' })).toBeTruthy()
  })

  it('shows why a bundle cannot be installed', async () => {
    await renderPage()
    fireEvent.change(screen.getByLabelText('Bundle path or package name'), { target: { value: '/bad' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install from file…' }))
    })
    expect(screen.getByRole('alert').textContent).toBe('engines.seam: ^9.0.0 does not include Seam 0.1.0')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('a same-version reinstall with different content is confirmed in the dialog, showing both hashes, before it replaces (issue 13: Bundles)', async () => {
    await renderPage()
    fireEvent.change(screen.getByLabelText('Bundle path or package name'), { target: { value: '/p/weather-changed.tgz' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install from file…' }))
    })
    const dialog = screen.getByRole('dialog', { name: 'Install plugin bundle' })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Install' }))
    })
    expect(host.callsOf('plugins/install')).toEqual([{ path: '/p/weather-changed.tgz' }])
    const warning = within(dialog).getByRole('alert', { name: 'Replacement' })
    expect(warning.textContent).toContain('sha512-OLD')
    expect(warning.textContent).toContain('sha512-NEW')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Replace installed copy' }))
    })
    expect(host.callsOf('plugins/install')).toEqual([{ path: '/p/weather-changed.tgz' }, { path: '/p/weather-changed.tgz', force: true }])
    expect(screen.getByRole('status').textContent).toContain('was replaced: its content was sha512-OLD, it is now sha512-NEW')
  })

  it('a package name in the install box resolves in the registry first, shows version, range and registry, then installs by name (issue 18: Sharing)', async () => {
    await renderPage()
    fireEvent.change(screen.getByLabelText('Bundle path or package name'), { target: { value: 'sky@^1' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install from registry…' }))
    })
    expect(host.callsOf('plugins/inspect')).toEqual([])
    expect(host.callsOf('plugins/registry-resolve')).toEqual([{ spec: 'sky@^1' }])
    const dialog = screen.getByRole('dialog', { name: 'Install plugin bundle' })
    for (const part of ['sky', '1.1.0', '>=0.1.0', 'http://127.0.0.1:4873/', '^1', 'trusted code']) expect(dialog.textContent).toContain(part)
    expect(host.callsOf('plugins/registry-install')).toEqual([])
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Install' }))
    })
    expect(host.callsOf('plugins/registry-install')).toEqual([{ spec: 'sky@^1' }])
    expect(screen.getByRole('status').textContent).toBe('Installed sky 1.1.0 from http://127.0.0.1:4873/.')
    expect(screen.getByRole('row', { name: 'sky' })).toBeTruthy()
  })

  it('a name whose versions do not fit this Seam is refused with the host\'s reason and no dialog', async () => {
    await renderPage()
    fireEvent.change(screen.getByLabelText('Bundle path or package name'), { target: { value: 'too-new' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install from registry…' }))
    })
    expect(screen.getByRole('alert').textContent).toContain('does not admit Seam 0.1.0')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('search lists name, description, version and fit; Install is offered only for bundles that fit and opens the same dialog (issue 18: Sharing)', async () => {
    await renderPage()
    fireEvent.change(screen.getByLabelText('Search the registry'), { target: { value: 'sky' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    })
    expect(host.callsOf('plugins/registry-search')).toEqual([{ query: 'sky' }])
    const table = screen.getByRole('table', { name: 'Registry bundles' })
    const sky = within(table).getByRole('row', { name: 'sky' })
    expect(sky.textContent).toContain('sky bundle')
    expect(sky.textContent).toContain('2.0.0')
    expect(sky.textContent).toContain('fits (1.1.0)')
    const tooNew = within(table).getByRole('row', { name: 'too-new' })
    expect(tooNew.textContent).toContain('does not fit (needs Seam >=99.0.0)')
    expect((within(tooNew).getByRole('button', { name: 'Install too-new' }) as HTMLButtonElement).disabled).toBe(true)
    await act(async () => {
      fireEvent.click(within(sky).getByRole('button', { name: 'Install sky' }))
    })
    expect(host.callsOf('plugins/registry-resolve')).toEqual([{ spec: 'sky' }])
    expect(screen.getByRole('dialog', { name: 'Install plugin bundle' }).textContent).toContain('^1.1.0')
  })
})
