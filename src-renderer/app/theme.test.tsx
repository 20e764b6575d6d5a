// @vitest-environment happy-dom
// The window's theme (issue 29): a plugin theme chosen in Settings paints its variables at once
// and is remembered; a restart paints it again before the host answers; when its plugin is
// disabled the window falls back to the theme's base scheme with a notice, and the theme returns
// with its plugin; with no choice made in Seam, Claude Code's own `theme` preference picks.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ThemeEntryView, ThemesViewData } from '../../src-shared/contract/themes'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { HostProvider } from './host-context'
import { APPLIED_KEY, THEME_KEY, themeActions, useThemeStore } from './theme'
import { ThemeChoice } from '../settings/ThemeChoice'

const HARBOUR: ThemeEntryView = {
  id: 'harbour@palettes:harbour',
  name: 'Harbour',
  base: 'dark',
  scheme: 'dark',
  source: 'harbour@palettes',
  file: '/plugins/harbour/themes/harbour.json',
  variables: { '--bg': '#2e3440', '--text': '#d8dee9', '--accent': '#88c0d0' },
  adjustments: ["--muted (Seam's #9aa1ab) → #aab0b8: 3.87:1 on --surface-2 is under 4.5:1"],
  warnings: []
}

let view: ThemesViewData
let host: FakeHost
beforeEach(() => {
  resetStores()
  view = { available: true, themes: [HARBOUR], problems: [] }
  host = new FakeHost({ 'themes/list': () => view })
})
afterEach(() => cleanup())

const root = () => document.documentElement
const variable = (name: string) => root().style.getPropertyValue(name)

describe('theme choice (issue 29)', () => {
  it('Settings lists Seam\'s choices and the plugin\'s theme with its source; choosing it paints at once and is remembered', async () => {
    render(<HostProvider host={host}><ThemeChoice /></HostProvider>)
    const harbour = await screen.findByRole('radio', { name: 'Harbour (harbour@palettes)' })
    expect(screen.getByRole('radio', { name: 'System (follows the operating system)' })).toHaveProperty('checked', true)
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['system', 'light', 'dark', 'harbour@palettes:harbour'])
    fireEvent.click(harbour)
    expect(root().dataset.scheme).toBe('dark')
    expect(variable('--bg')).toBe('#2e3440')
    expect(variable('--accent')).toBe('#88c0d0')
    expect(localStorage.getItem(THEME_KEY)).toBe('harbour@palettes:harbour')
    expect(JSON.parse(localStorage.getItem(APPLIED_KEY)!)).toMatchObject({ id: HARBOUR.id, scheme: 'dark', variables: HARBOUR.variables })
    expect(screen.getByText(/1 colour of Harbour moved for readable text/)).toBeTruthy()
    // Back to Seam's light scheme: the theme's variables are gone.
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }))
    expect(root().dataset.scheme).toBe('light')
    expect(variable('--bg')).toBe('')
    expect(localStorage.getItem(APPLIED_KEY)).toBeNull()
  })

  it('a restart paints the remembered theme before the host answers, and keeps it once the host lists it', async () => {
    await themeActions.refresh(host)
    themeActions.choose(HARBOUR.id)
    themeActions.reset() // a new window: nothing painted, stores empty; localStorage kept
    localStorage.setItem(THEME_KEY, HARBOUR.id)
    localStorage.setItem(APPLIED_KEY, JSON.stringify({ id: HARBOUR.id, name: 'Harbour', scheme: 'dark', variables: HARBOUR.variables }))
    themeActions.restore()
    expect(root().dataset.scheme).toBe('dark')
    expect(variable('--bg')).toBe('#2e3440')
    await themeActions.refresh(host)
    expect(useThemeStore.getState()).toMatchObject({ choice: HARBOUR.id, applied: HARBOUR.id, notice: null })
  })

  it('when the theme\'s plugin is disabled: its base scheme with a notice; enabled again, the theme is back', async () => {
    await themeActions.refresh(host)
    themeActions.choose(HARBOUR.id)
    view = { available: true, themes: [], problems: [] }
    await themeActions.refresh(host)
    expect(root().dataset.scheme).toBe('dark')
    expect(variable('--bg')).toBe('')
    expect(useThemeStore.getState().notice).toBe("The theme “Harbour” (harbour@palettes:harbour) is not available: its plugin is disabled or uninstalled. Seam's dark colours are used instead.")
    // The choice is kept, so the theme comes back with its plugin.
    expect(localStorage.getItem(THEME_KEY)).toBe(HARBOUR.id)
    view = { available: true, themes: [HARBOUR], problems: [] }
    await themeActions.refresh(host)
    expect(variable('--bg')).toBe('#2e3440')
    expect(useThemeStore.getState().notice).toBeNull()
  })

  it('with no choice made in Seam, Claude Code\'s theme preference picks; a choice in Seam wins over it', async () => {
    view = { ...view, claudeCode: { value: 'custom:harbour', file: '/home/u/.claude.json', choice: HARBOUR.id } }
    themeActions.restore()
    await themeActions.refresh(host)
    expect(variable('--text')).toBe('#d8dee9')
    expect(localStorage.getItem(THEME_KEY)).toBeNull()
    themeActions.choose('light')
    await act(() => themeActions.refresh(host))
    expect(root().dataset.scheme).toBe('light')
    expect(variable('--text')).toBe('')
  })
})
