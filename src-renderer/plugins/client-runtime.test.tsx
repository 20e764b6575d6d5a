// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { wireHost, type HostWiring } from '../app/wire-host'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { useClientPluginsStore } from './client-runtime'
import { registerSharedModules } from './shared-modules'
import { SidebarPanels } from './SidebarPanels'
import { StatusItems } from './StatusItems'
import { useSlotsStore } from './slots-store'

// A client entry exactly as a bundle ships it: a plain ES module that takes React and the SDK
// from globalThis.__seamShared (see README.md).
const BUNDLE = `
const shared = globalThis.__seamShared
const { jsx } = shared['react/jsx-runtime']
const { defineClientPlugin } = shared['@seam/client']
globalThis.__demoLog = []
export default defineClientPlugin((ctx) => {
  ctx.slots.sidebarPanel({ id: 'files', title: 'Demo panel', render: () => jsx('p', { children: 'demo panel body' }) })
  ctx.slots.statusItem({ id: 'count', render: () => jsx('span', { children: 'demo status' }) })
  ctx.slots.toolResultRenderer('DemoTool', () => jsx('b', { children: 'rendered' }))
  ctx.onSessionEvent((event, sessionId) => globalThis.__demoLog.push(sessionId + ':' + event.type))
  globalThis.__demoRpc = (method, input) => ctx.rpc(method, input)
  return () => globalThis.__demoLog.push('deactivated')
})
`

declare global {
  var __demoLog: string[] | undefined
  var __demoRpc: ((method: string, input: unknown) => Promise<unknown>) | undefined
}

const url = '/plugins/demo/client.js'
/** The bundles this test serves, by URL. */
const files = new Map<string, string>([[url, BUNDLE]])

/**
 * Loads a served bundle the way a browser would: the module text runs as-is with only its
 * `export default` turned into a return value. (Vitest's module runner refuses import() of files
 * outside the project, so the runtime's own import() is exercised by the e2e tests instead.)
 */
async function loadServed(address: string): Promise<unknown> {
  const source = files.get(address.split('?')[0])
  if (source === undefined) throw new Error(`404 ${address}`)
  const body = source.replace(/export default /, 'return ').replace(/^export const .*$/m, 'return {}')
  const value: unknown = new Function(body)()
  return source.includes('export default') ? { default: value } : {}
}
let host: FakeHost
let wiring: HostWiring
let entries: Array<{ name: string; url: string }>

beforeAll(() => {
  registerSharedModules()
})

beforeEach(() => {
  resetStores()
  entries = [{ name: 'demo', url }]
  host = new FakeHost({
    'plugins/client-entries': () => entries,
    'plugins/list': () => [],
    'plugins/call': ({ plugin, method, input }) => ({ plugin, method, input })
  })
  wiring = wireHost(host, { loadModule: loadServed })
})
afterEach(() => {
  wiring.dispose()
  cleanup()
  vi.restoreAllMocks()
})

describe('client plugin runtime', () => {
  it('loads the entry with the shared React and SDK, and disabling the plugin removes all of its UI', async () => {
    render(
      <HostProvider host={host}>
        <SidebarPanels />
        <StatusItems />
      </HostProvider>
    )
    await act(() => wiring.plugins.sync())
    expect(useClientPluginsStore.getState().plugins.demo?.state).toBe('active')
    expect(screen.getByRole('region', { name: 'Demo panel' }).textContent).toContain('demo panel body')
    expect(screen.getByText('demo status')).toBeTruthy()
    expect(useSlotsStore.getState().toolResultRenderers.map((r) => r.toolName)).toEqual(['DemoTool'])

    act(() => host.emit('session/appended', { sessionId: 's1', event: { type: 'turn/start', seq: 1, ts: 1, turnId: 't1' } }))
    expect(globalThis.__demoLog).toEqual(['s1:turn/start'])

    // Disabled: the host stops listing its client entry and pushes plugins/changed.
    entries = []
    await act(async () => {
      host.emit('plugins/changed', {})
      await wiring.plugins.sync()
    })
    expect(screen.queryByRole('region', { name: 'Demo panel' })).toBeNull()
    expect(screen.queryByText('demo status')).toBeNull()
    expect(useSlotsStore.getState().toolResultRenderers).toEqual([])
    expect(globalThis.__demoLog).toEqual(['s1:turn/start', 'deactivated'])
    act(() => host.emit('session/appended', { sessionId: 's1', event: { type: 'turn/start', seq: 2, ts: 2, turnId: 't2' } }))
    expect(globalThis.__demoLog).toHaveLength(2)
    await expect(globalThis.__demoRpc!('count', {})).rejects.toThrow('no longer active')

    // Enabled again: a fresh activation brings the UI back.
    entries = [{ name: 'demo', url }]
    await act(() => wiring.plugins.sync())
    expect(screen.getByRole('region', { name: 'Demo panel' })).toBeTruthy()
  })

  it('rpc calls the host with the plugin fixed to the bundle name', async () => {
    await wiring.plugins.sync()
    await expect(globalThis.__demoRpc!('count', { x: 1 })).resolves.toEqual({ plugin: 'demo', method: 'count', input: { x: 1 } })
    expect(host.callsOf('plugins/call')).toEqual([{ plugin: 'demo', method: 'count', input: { x: 1 } }])
  })

  it('an entry without a default export fails visibly and contributes nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    files.set('/plugins/bad/client.js', 'export const x = 1\n')
    entries = [{ name: 'bad', url: '/plugins/bad/client.js' }]
    await wiring.plugins.sync()
    const status = useClientPluginsStore.getState().plugins.bad
    expect(status?.state).toBe('failed')
    expect(status?.error).toContain('no default export function')
    expect(useSlotsStore.getState().sidebarPanels).toEqual([])
  })
})
