// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { McpServerStatusPublic } from '../../src-shared/contract/ipc'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { McpServers } from './McpServers'

let host: FakeHost
let servers: McpServerStatusPublic[]

const base = { source: 'project' as const, file: '/w/.mcp.json', transport: 'stdio' as const, problems: [], stderr: [] }

beforeEach(() => {
  servers = [
    { ...base, name: 'everything', target: 'node server.js stdio', state: 'connected', enabled: true, tools: [{ name: 'mcp__everything__echo', serverName: 'echo', description: 'Echoes' }], stderr: ['ready'] },
    { ...base, name: 'broken', target: '/no/such/binary', state: 'failed', reason: 'cannot start "/no/such/binary": spawn /no/such/binary ENOENT', enabled: true, tools: [], problems: ['tool "x y": bad'] }
  ]
  host = new FakeHost({
    'mcp/list': () => ({ servers, warnings: ['MCP server "everything" is declared in a and in b; the one in a is used'] }),
    'mcp/set-enabled': ({ name, enabled }) => {
      const server = servers.find((s) => s.name === name)!
      Object.assign(server, { enabled, state: enabled ? 'stopped' : 'disabled' })
      return server
    },
    'mcp/restart': ({ name }) => servers.find((s) => s.name === name)!
  })
})
afterEach(cleanup)

describe('McpServers (settings)', () => {
  it('shows each server with transport, state, failure reason, tools, problems and stderr; disable and restart call the host; a push reloads', async () => {
    await act(async () => {
      render(
        <HostProvider host={host}>
          <McpServers />
        </HostProvider>
      )
    })
    const everything = screen.getByRole('listitem', { name: 'MCP server everything' })
    expect(within(everything).getByTestId('mcp-state').textContent).toBe('connected')
    expect(everything.textContent).toContain('node server.js stdio')
    expect(within(everything).getByRole('list', { name: 'Tools of everything' }).textContent).toContain('mcp__everything__echo')
    expect(within(everything).getByLabelText('stderr of everything').textContent).toBe('ready')
    const broken = screen.getByRole('listitem', { name: 'MCP server broken' })
    expect(broken.textContent).toContain('spawn /no/such/binary ENOENT')
    expect(within(broken).getByRole('list', { name: 'Problems of broken' }).textContent).toContain('tool "x y": bad')
    expect(screen.getByText(/the one in a is used/)).toBeTruthy()

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Restart broken' }))
    })
    expect(host.callsOf('mcp/restart')).toEqual([{ name: 'broken' }])
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Disable everything' }))
    })
    expect(host.callsOf('mcp/set-enabled')).toEqual([{ name: 'everything', enabled: false }])
    expect(within(screen.getByRole('listitem', { name: 'MCP server everything' })).getByTestId('mcp-state').textContent).toBe('disabled')

    servers[1] = { ...servers[1]!, state: 'connected', reason: undefined }
    const before = host.callsOf('mcp/list').length
    await act(async () => host.emit('mcp/changed', {}))
    expect(host.callsOf('mcp/list').length).toBe(before + 1)
    expect(within(screen.getByRole('listitem', { name: 'MCP server broken' })).getByTestId('mcp-state').textContent).toBe('connected')
  })
})
