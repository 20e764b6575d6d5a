// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { HostProvider } from '../app/host-context'
import { wireHost, type HostWiring } from '../app/wire-host'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { ApprovalDialog } from './ApprovalDialog'

function request(id: string, command: string): ApprovalRequestPublic {
  return {
    id,
    sessionId: 's1',
    tool: 'Bash',
    args: { command },
    token: `tok-${id}`,
    reason: 'Bash runs commands (ask before side effects)',
    scope: { tool: 'Bash', pattern: { command }, description: `Bash commands exactly "${command}"` }
  }
}

let host: FakeHost
let wiring: HostWiring

beforeEach(() => {
  resetStores()
  host = new FakeHost({ 'approval/answer': () => ({ ok: true }), 'plugins/client-entries': () => [], 'plugins/list': () => [], 'sessions/list': () => [] })
  wiring = wireHost(host)
  render(<HostProvider host={host}><ApprovalDialog /></HostProvider>)
})
afterEach(() => {
  wiring.dispose()
  cleanup()
})

const dialog = () => screen.getByRole('dialog', { name: 'Approve tool call' })

describe('ApprovalDialog', () => {
  it('shows the tool, the exact args, the reason and the session scope in words', () => {
    act(() => host.emit('approval/requested', request('r1', 'git push --force')))
    const d = within(dialog())
    expect(d.getByText('Bash')).toBeTruthy()
    expect(d.getByText(/"command": "git push --force"/)).toBeTruthy()
    expect(d.getByText('Bash runs commands (ask before side effects)')).toBeTruthy()
    const session = d.getByRole('button', { name: 'Allow for this session' })
    expect(session.getAttribute('aria-describedby')).toBeTruthy()
    expect(document.getElementById(session.getAttribute('aria-describedby')!)?.textContent).toContain('Bash commands exactly "git push --force"')
    expect(dialog().getAttribute('aria-modal')).toBe('true')
  })

  it('queues asks: Enter allows the first once, then the second shows; Esc denies it with the note', async () => {
    act(() => {
      host.emit('approval/requested', request('r1', 'ls'))
      host.emit('approval/requested', request('r2', 'rm -rf build'))
    })
    expect(within(dialog()).getByText(/"command": "ls"/)).toBeTruthy()
    expect(within(dialog()).getByText(/1 more waiting/)).toBeTruthy()

    await act(async () => {
      fireEvent.keyDown(dialog(), { key: 'Enter' })
    })
    expect(host.callsOf('approval/answer')).toEqual([{ requestId: 'r1', outcome: 'allowed-once' }])
    expect(within(dialog()).getByText(/"command": "rm -rf build"/)).toBeTruthy()

    const note = within(dialog()).getByRole('textbox', { name: 'Note for the model' })
    fireEvent.change(note, { target: { value: 'use make clean instead' } })
    // Enter inside the note is a new line, not an answer.
    await act(async () => {
      fireEvent.keyDown(note, { key: 'Enter' })
    })
    expect(host.callsOf('approval/answer')).toHaveLength(1)
    await act(async () => {
      fireEvent.keyDown(note, { key: 'Escape' })
    })
    expect(host.callsOf('approval/answer')[1]).toEqual({ requestId: 'r2', outcome: 'denied', note: 'use make clean instead' })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('Allow for this session answers allowed-session', async () => {
    act(() => host.emit('approval/requested', request('r1', 'npm test')))
    await act(async () => {
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Allow for this session' }))
    })
    expect(host.callsOf('approval/answer')).toEqual([{ requestId: 'r1', outcome: 'allowed-session' }])
  })

  it('closes when the host settles the shown ask elsewhere, and shows the next', () => {
    act(() => {
      host.emit('approval/requested', request('r1', 'ls'))
      host.emit('approval/requested', request('r2', 'pwd'))
    })
    act(() => host.emit('approval/settled', { requestId: 'r1', outcome: 'cancelled' }))
    expect(within(dialog()).getByText(/"command": "pwd"/)).toBeTruthy()
    act(() => host.emit('approval/settled', { requestId: 'r2', outcome: 'unavailable' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(host.callsOf('approval/answer')).toEqual([])
  })

  it('picks up asks pending at start (approval/pending) without showing settled ones again', async () => {
    host.handlers['approval/pending'] = () => [request('r1', 'ls'), request('r2', 'pwd')]
    act(() => host.emit('approval/settled', { requestId: 'r1', outcome: 'cancelled' }))
    await act(async () => {
      await wiring.resync()
    })
    expect(within(dialog()).getByText(/"command": "pwd"/)).toBeTruthy()
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
  })

  it('keeps Tab focus inside the dialog', () => {
    act(() => host.emit('approval/requested', request('r1', 'ls')))
    const buttons = within(dialog()).getAllByRole('button')
    const last = buttons[buttons.length - 1]
    last.focus()
    fireEvent.keyDown(last, { key: 'Tab' })
    expect(document.activeElement).toBe(within(dialog()).getByRole('textbox', { name: 'Note for the model' }))
  })
})
