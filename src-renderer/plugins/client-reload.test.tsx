// @vitest-environment happy-dom
// A dev bundle's client part across rebuilds (`seam plugin dev`): each build is a new entry URL
// (`?seam-dev=N`); the runtime imports it, disposes the old instance and the plugin's slots render
// the new one. A build that fails to import, or to activate, leaves the previous build running.
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { wireHost, type HostWiring } from '../app/wire-host'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { useClientPluginsStore } from './client-runtime'
import { registerSharedModules } from './shared-modules'
import { SidebarPanels } from './SidebarPanels'

/** A client entry as a bundle ships it (React and the SDK from globalThis.__seamShared), saying `text`. */
function build(text: string, activateBody = ''): string {
  return `
const { jsx } = globalThis.__seamShared['react/jsx-runtime']
export default (ctx) => {
  ${activateBody}
  ctx.slots.sidebarPanel({ id: 'panel', title: 'Dev panel', render: () => jsx('p', { children: ${JSON.stringify(text)} }) })
  return () => globalThis.__devLog.push('disposed ' + ${JSON.stringify(text)})
}
`
}

declare global {
  var __devLog: string[]
}

const base = '/plugins/dev-demo/dist/client.js'
/** What the host serves for each build URL (the query names the build). */
const served = new Map<string, string>()
let entries: Array<{ name: string; url: string }>
let host: FakeHost
let wiring: HostWiring

/** Evaluates a served module the way the browser would, with its default export as the result. */
async function loadServed(address: string): Promise<unknown> {
  const source = served.get(address.replace(/[?&]seam-load=\d+$/, ''))
  if (source === undefined) throw new Error(`404 ${address}`)
  // A syntax error surfaces here, as a browser's import() rejects with it.
  const value: unknown = new Function(source.replace('export default ', 'return '))()
  return { default: value }
}

async function newBuild(n: number, source: string): Promise<void> {
  const url = `${base}?seam-dev=${n}`
  served.set(url, source)
  entries = [{ name: 'dev-demo', url }]
  await act(async () => {
    host.emit('plugins/changed', {})
    await wiring.plugins.sync()
  })
}

beforeAll(() => registerSharedModules())

beforeEach(() => {
  resetStores()
  globalThis.__devLog = []
  served.clear()
  entries = []
  host = new FakeHost({ 'plugins/client-entries': () => entries, 'plugins/list': () => [] })
  wiring = wireHost(host, { loadModule: loadServed })
  render(
    <HostProvider host={host}>
      <SidebarPanels />
    </HostProvider>
  )
})

afterEach(() => {
  wiring.dispose()
  cleanup()
  vi.restoreAllMocks()
})

const panel = () => screen.getByRole('region', { name: 'Dev panel' }).textContent

describe('dev bundle client part reload (seam plugin dev)', () => {
  it('a new build replaces the old instance: the old one is disposed and the slot renders the new code', async () => {
    await newBuild(1, build('first build'))
    expect(panel()).toContain('first build')
    await newBuild(2, build('second build'))
    expect(panel()).toContain('second build')
    expect(globalThis.__devLog).toEqual(['disposed first build'])
    expect(screen.getAllByRole('region', { name: 'Dev panel' })).toHaveLength(1)
  })

  it('a build with a syntax error keeps the previous one running and says why; the fixed build loads', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await newBuild(1, build('good build'))
    await newBuild(2, 'export default (ctx) => { ctx.slots.sidebarPanel({ id: ')
    expect(panel()).toContain('good build')
    expect(globalThis.__devLog).toEqual([])
    const status = useClientPluginsStore.getState().plugins['dev-demo']
    expect(status?.state).toBe('active')
    expect(status?.replacementError).toMatch(/SyntaxError|Unexpected/)

    await newBuild(3, build('fixed build'))
    expect(panel()).toContain('fixed build')
    expect(useClientPluginsStore.getState().plugins['dev-demo']?.replacementError).toBeUndefined()
  })

  it('a build that throws while activating is undone and the previous build is activated again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await newBuild(1, build('working build'))
    await newBuild(2, build('broken build', "throw new Error('activate broke')"))
    expect(panel()).toContain('working build')
    const status = useClientPluginsStore.getState().plugins['dev-demo']
    expect(status?.state).toBe('active')
    expect(status?.replacementError).toContain('activate broke')
  })
})
