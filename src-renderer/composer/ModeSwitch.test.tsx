// @vitest-environment happy-dom
// Issue 31: the composer's mode switch steps through Claude Code's modes with Shift+Tab (and a
// click), and ↑ in an empty message box recalls the last prompt.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppStatus } from '../../src-shared/contract/ipc'
import type { SessionEvent } from '../../src-shared/session/events'
import { appActions, useAppStore } from '../app/app-store'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { sessionActions } from '../transcript/session-store'
import { Composer } from './Composer'
import { nextMode } from './approval-mode'

const status: AppStatus = { version: '0.1.0', mode: 'web', seamHome: '/h', workspace: '/w', workspaceTrusted: true, provider: null, approvalMode: 'ask-side-effects' }
const idle = { sessionId: 's1', running: false, queued: 0, steering: 0 }
const user = (seq: number, content: string, originalContent?: string): SessionEvent => ({
  type: 'user/message', seq, ts: seq, turnId: `t${seq}`, content, source: 'user', ...(originalContent ? { originalContent } : {})
})

let host: FakeHost
beforeEach(() => {
  resetStores()
  appActions.setStatus(status)
  host = new FakeHost({ 'settings/set': () => ({}) as never })
  sessionActions.begin('s1')
  sessionActions.loaded({ id: 's1', events: [user(1, 'first prompt'), user(2, 'expanded text', '/review src')], state: idle, warnings: [] })
})
afterEach(cleanup)

describe('ModeSwitch', () => {
  it('cycles default → acceptEdits → plan → bypassPermissions → default; modes outside the cycle go to default', () => {
    expect(nextMode('ask-side-effects')).toBe('accept-edits')
    expect(nextMode('accept-edits')).toBe('plan')
    expect(nextMode('plan')).toBe('never-ask')
    expect(nextMode('never-ask')).toBe('ask-side-effects')
    expect(nextMode('ask-all')).toBe('ask-side-effects')
    expect(nextMode('dont-ask')).toBe('ask-side-effects')
  })

  it('Shift+Tab in the message box steps the mode (settings/set), and the switch shows it', async () => {
    render(<HostProvider host={host}><Composer /></HostProvider>)
    const box = screen.getByRole('textbox', { name: 'Message' })
    expect(screen.getByRole('button', { name: 'Approval mode: Ask before edits' })).toBeTruthy()
    for (const label of ['Accept edits', 'Plan mode', 'Bypass permissions', 'Ask before edits']) {
      await act(async () => {
        expect(fireEvent.keyDown(box, { key: 'Tab', shiftKey: true })).toBe(false)
      })
      expect(screen.getByRole('button', { name: `Approval mode: ${label}` })).toBeTruthy()
    }
    expect(host.callsOf('settings/set')).toEqual([{ approvalMode: 'accept-edits' }, { approvalMode: 'plan' }, { approvalMode: 'never-ask' }, { approvalMode: 'ask-side-effects' }])
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Approval mode: Ask before edits' }))
    })
    expect(useAppStore.getState().status?.approvalMode).toBe('accept-edits')
  })

  it('↑ in an empty box recalls the last prompt as typed; in a box with text it moves the caret', () => {
    render(<HostProvider host={host}><Composer /></HostProvider>)
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
    expect(fireEvent.keyDown(box, { key: 'ArrowUp' })).toBe(false)
    expect(box.value).toBe('/review src')
    fireEvent.change(box, { target: { value: 'typing' } })
    expect(fireEvent.keyDown(box, { key: 'ArrowUp' })).toBe(true)
    expect(box.value).toBe('typing')
  })
})
