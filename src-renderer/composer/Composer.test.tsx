// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HostProvider } from '../app/host-context'
import { wireHost } from '../app/wire-host'
import { FakeHost } from '../test/fake-host'
import { fakeTranscriptLayout } from '../test/fake-layout'
import { resetStores } from '../test/reset-stores'
import { sessionActions } from '../transcript/session-store'
import { SessionView } from '../transcript/SessionView'
import { Composer } from './Composer'

const idle = { sessionId: 's1', running: false, queued: 0, steering: 0 }

function setup(reply: 'turn' | 'steering' = 'turn') {
  const host = new FakeHost({
    'chat/send': () => ({ queued: reply }),
    'chat/cancel': () => ({ ok: true as const }),
    'workspace/trust-preview': () => ({ workspace: '/w', trusted: true, items: [] })
  })
  sessionActions.begin('s1')
  sessionActions.loaded({ id: 's1', events: [], state: idle, warnings: [] })
  return host
}

let restoreLayout: () => void = () => {}
beforeEach(() => {
  resetStores()
  restoreLayout = fakeTranscriptLayout()
})
afterEach(() => {
  cleanup()
  restoreLayout()
})

describe('Composer', () => {
  it('Enter sends the message and clears the box', async () => {
    const host = setup()
    render(<HostProvider host={host}><Composer /></HostProvider>)
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'hello there' } })
    await act(async () => {
      expect(fireEvent.keyDown(box, { key: 'Enter' })).toBe(false) // default prevented: no newline
    })
    expect(host.callsOf('chat/send')).toEqual([{ sessionId: 's1', content: 'hello there' }])
    expect((box as HTMLTextAreaElement).value).toBe('')
  })

  it('Shift+Enter keeps its default (a new line) and sends nothing', async () => {
    const host = setup()
    render(<HostProvider host={host}><Composer /></HostProvider>)
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'line one' } })
    await act(async () => {
      expect(fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })).toBe(true)
    })
    fireEvent.change(box, { target: { value: 'line one\nline two' } })
    expect(host.callsOf('chat/send')).toEqual([])
    expect((box as HTMLTextAreaElement).value).toBe('line one\nline two')
  })

  it('Enter on an empty box sends nothing', async () => {
    const host = setup()
    render(<HostProvider host={host}><Composer /></HostProvider>)
    await act(async () => {
      fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Enter' })
    })
    expect(host.calls).toEqual([])
  })

  it('while a turn runs: Stop cancels, and a sent message shows as steering until the log has it', async () => {
    const host = setup('steering')
    const wiring = wireHost(host)
    render(<HostProvider host={host}><SessionView /></HostProvider>)
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull()
    act(() => host.emit('agent/state', { ...idle, running: true, turnId: 't1' }))
    const stop = screen.getByRole('button', { name: 'Stop' })

    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'also run the tests' } })
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })
    expect(screen.getByText('queued (steers the running turn)')).toBeTruthy()

    act(() => host.emit('session/appended', { sessionId: 's1', event: { type: 'steering/message', seq: 1, ts: 1, turnId: 't1', text: 'also run the tests', source: 'user' } }))
    expect(screen.queryByText('queued (steers the running turn)')).toBeNull()
    expect(screen.getByText('also run the tests')).toBeTruthy()

    await act(async () => {
      fireEvent.click(stop)
    })
    expect(host.callsOf('chat/cancel')).toEqual([{ sessionId: 's1' }])
    wiring.dispose()
  })

  it('shows the host error and gives the text back when sending fails', async () => {
    const host = setup()
    host.handlers['chat/send'] = () => {
      throw new Error('session s1: the agent is closed')
    }
    render(<HostProvider host={host}><Composer /></HostProvider>)
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'hi' } })
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })
    expect(screen.getByRole('alert').textContent).toBe('session s1: the agent is closed')
    expect((box as HTMLTextAreaElement).value).toBe('hi')
  })
})
