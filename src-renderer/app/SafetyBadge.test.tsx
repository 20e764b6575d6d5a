// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppStatus } from '../../src-shared/contract/ipc'
import { resetStores } from '../test/reset-stores'
import { appActions, useAppStore } from './app-store'
import { SafetyBadge } from './SafetyBadge'

const status: AppStatus = { version: '0.1.0', mode: 'web', seamHome: '/h', workspace: '/w', workspaceTrusted: true, provider: null, approvalMode: 'ask-side-effects' }

beforeEach(resetStores)
afterEach(cleanup)

describe('SafetyBadge', () => {
  it('shows nothing while approvals and guards are on', () => {
    act(() => appActions.setStatus({ ...status, safetyOff: [] }))
    render(<SafetyBadge />)
    expect(screen.queryByRole('button')).toBeNull()
  })

  it('warns while permission-policy is off, and says the rest on hover and to screen readers', () => {
    act(() => appActions.setStatus({ ...status, safetyOff: ['permission-policy', 'workspace-guard'] }))
    render(<SafetyBadge />)
    const badge = screen.getByRole('button', { name: 'Safety warning: Approvals off, Workspace guard off' })
    expect(badge.textContent).toBe('Approvals off +1')
    expect(badge.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true')
    expect(badge.getAttribute('title')).toContain('Edit, Write and Bash will run without asking you')
    fireEvent.click(badge)
    expect(useAppStore.getState().page).toBe('settings')
  })

  it("warns while the mode is never-ask (Claude Code's bypassPermissions)", () => {
    act(() => appActions.setStatus({ ...status, approvalMode: 'never-ask' }))
    render(<SafetyBadge />)
    expect(screen.getByRole('button', { name: 'Safety warning: Approvals off' }).getAttribute('title')).toContain('bypassPermissions')
  })
})
