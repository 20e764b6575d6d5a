// @vitest-environment happy-dom
// Issue 31, layout: the header folds Plugins and Hooks into an overflow menu in a narrow window,
// shows the model once, no "host" label, and a sidebar toggle whose choice is remembered.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppStatus } from '../../src-shared/contract/ipc'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { appActions, useAppStore } from './app-store'
import { Header } from './Header'
import { HostProvider } from './host-context'
import { layoutActions, useLayoutStore } from './layout-store'

const status: AppStatus = {
  version: '0.1.0', mode: 'web', seamHome: '/h', workspace: '/w', workspaceTrusted: true, approvalMode: 'ask-side-effects',
  provider: { provider: 'openai-compatible', baseUrl: 'http://x/v1', model: 'fake-model', hasKey: true }
}

function setWidth(width: number) {
  ;(window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM.setViewport({ width, height: 800 })
}

let host: FakeHost
beforeEach(() => {
  resetStores()
  appActions.setStatus(status)
  appActions.setConnection('connected')
  host = new FakeHost({
    'model/options': () => ({ current: { provider: 'openai-compatible', model: 'fake-model', vision: false }, providers: [{ id: 'openai-compatible', label: 'OpenAI-compatible', available: true, models: [{ model: 'fake-model', vision: false }] }] })
  })
})
afterEach(cleanup)

async function renderHeader() {
  await act(async () => {
    render(<HostProvider host={host}><Header /></HostProvider>)
  })
}

describe('Header', () => {
  it('at 1280 px: every page button in the nav (the Board included), the model once (the picker), no "host" label, the connection as a dot named for screen readers', async () => {
    setWidth(1280)
    await renderHeader()
    const nav = screen.getByRole('navigation', { name: 'Pages' })
    expect(within(nav).getAllByRole('button').map((b) => b.textContent)).toEqual(['Chat', 'Board', 'Settings', 'Plugins', 'Hooks'])
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull()
    expect(screen.getByRole('banner').textContent).not.toContain('host')
    expect(screen.getByRole('combobox', { name: 'Model' })).toBeTruthy()
    // The provider status still says the model, to screen readers only.
    expect(screen.getByRole('status', { name: 'Provider' }).className).toContain('sr-only')
    expect(screen.getByRole('status', { name: 'Connection' }).textContent).toBe('connected')
    expect(screen.getByRole('status', { name: 'Connection' }).querySelector('.sr-only')).toBeTruthy()
  })

  it('at 800 px: Plugins and Hooks fold into the More menu, keyboard driven', async () => {
    setWidth(800)
    await renderHeader()
    const nav = screen.getByRole('navigation', { name: 'Pages' })
    expect(within(nav).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual(['Chat', 'Board', 'Settings', 'More'])
    const more = screen.getByRole('button', { name: 'More' })
    fireEvent.keyDown(more, { key: 'ArrowDown' })
    const menu = screen.getByRole('menu', { name: 'More' })
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Plugins' }))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    const hooks = within(menu).getByRole('menuitemcheckbox', { name: 'Hooks' })
    expect(document.activeElement).toBe(hooks)
    fireEvent.keyDown(hooks, { key: 'Enter' })
    expect(useAppStore.getState().inspector.open).toBe(true)
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(more)
    fireEvent.click(more)
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Plugins' }))
    expect(useAppStore.getState().page).toBe('plugins')
    fireEvent.click(more)
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('the sidebar toggle hides and shows the sessions list, and the choice is remembered', async () => {
    setWidth(1280)
    await renderHeader()
    fireEvent.click(screen.getByRole('button', { name: 'Hide sessions' }))
    expect(useLayoutStore.getState().sidebarOpen).toBe(false)
    expect(localStorage.getItem('seam.sidebar')).toBe('closed')
    layoutActions.reload()
    expect(useLayoutStore.getState().sidebarOpen).toBe(false)
    const show = screen.getByRole('button', { name: 'Show sessions' })
    expect(show.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(show)
    expect(localStorage.getItem('seam.sidebar')).toBe('open')
  })
})
