// The window's colours: Seam's light or dark scheme, the system's, or a Claude Code theme of an
// enabled plugin (themes/list, plugins/themes). The choice is a UI preference kept in localStorage
// (`seam.theme`), with the last theme's variables (`seam.theme.applied`) so a restart paints it
// before the host answers. The scheme is `data-scheme` on <html> (tokens.css); a theme's colours
// are set inline on <html> over it. When the chosen theme is gone (its plugin disabled or
// uninstalled) the window falls back to the theme's base scheme and says so (`notice`).
import { create } from 'zustand'
import type { HostApi } from '../../src-shared/contract/ipc'
import type { ThemeEntryView, ThemesViewData } from '../../src-shared/contract/themes'
import { errorText } from './errors'

export const THEME_KEY = 'seam.theme'
export const APPLIED_KEY = 'seam.theme.applied'
export const BUILTIN_CHOICES = ['system', 'light', 'dark'] as const
const DARK_QUERY = '(prefers-color-scheme: dark)'

/** What was applied last for a plugin theme, to paint it again at start. */
interface AppliedTheme {
  id: string
  name: string
  scheme: 'light' | 'dark'
  variables: Record<string, string>
}

export interface ThemeState {
  /** `system`, `light`, `dark` or a theme's id. */
  choice: string
  /** Whether the user chose in Seam (else Claude Code's `theme` preference may pick). */
  chosen: boolean
  /** The id of the plugin theme painted now, if any. */
  applied: string | null
  view: ThemesViewData | null
  error: string | null
  /** Why the window is not in the chosen theme (its plugin is off), shown until the next choice. */
  notice: string | null
}

export const useThemeStore = create<ThemeState>()(() => ({ choice: 'system', chosen: false, applied: null, view: null, error: null, notice: null }))

let applied: string[] = []
let followSystem: (() => void) | null = null

/** Paints `scheme` (or the system's) and, for a plugin theme, its variables. */
function paint(scheme: 'light' | 'dark' | 'system', variables: Record<string, string> = {}): void {
  const root = globalThis.document?.documentElement
  if (!root) return
  for (const name of applied) root.style.removeProperty(name)
  applied = Object.keys(variables)
  for (const [name, value] of Object.entries(variables)) root.style.setProperty(name, value)
  followSystem?.()
  followSystem = null
  if (scheme === 'system' && typeof matchMedia === 'function') {
    const query = matchMedia(DARK_QUERY)
    const follow = () => (root.dataset.scheme = query.matches ? 'dark' : 'light')
    follow()
    query.addEventListener('change', follow)
    followSystem = () => query.removeEventListener('change', follow)
  } else {
    root.dataset.scheme = scheme === 'system' ? 'light' : scheme
  }
}

function stored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null
  } catch {
    // Storage refused (privacy mode): nothing is remembered.
    return null
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key)
    else globalThis.localStorage?.setItem(key, value)
  } catch {
    // Not remembered (storage refused); the choice still applies now.
  }
}

function storedApplied(): AppliedTheme | null {
  const text = stored(APPLIED_KEY)
  if (!text) return null
  try {
    const value = JSON.parse(text) as AppliedTheme
    return typeof value.id === 'string' && (value.scheme === 'light' || value.scheme === 'dark') && typeof value.variables === 'object' ? value : null
  } catch {
    return null
  }
}

function applyEntry(theme: ThemeEntryView): void {
  paint(theme.scheme, theme.variables)
  store(APPLIED_KEY, JSON.stringify({ id: theme.id, name: theme.name, scheme: theme.scheme, variables: theme.variables } satisfies AppliedTheme))
  useThemeStore.setState({ applied: theme.id })
}

function applyBuiltin(choice: string): void {
  paint(choice === 'light' || choice === 'dark' ? choice : 'system')
  store(APPLIED_KEY, null)
  useThemeStore.setState({ applied: null })
}

export const themeActions = {
  /** At start, before the host answers: the stored choice, painted as it was last time. */
  restore(): void {
    const choice = stored(THEME_KEY)
    const last = storedApplied()
    useThemeStore.setState({ choice: choice ?? 'system', chosen: choice !== null })
    if (choice !== null && last?.id === choice) {
      paint(last.scheme, last.variables)
      useThemeStore.setState({ applied: last.id })
    } else applyBuiltin(choice ?? 'system')
  },
  /** Fetches the themes and applies the choice against them (at start, and when plugins change). */
  async refresh(host: HostApi): Promise<void> {
    let view: ThemesViewData
    try {
      view = await host.invoke('themes/list', {})
    } catch (error) {
      useThemeStore.setState({ error: errorText(error) })
      return
    }
    useThemeStore.setState({ view, error: null })
    const { choice, chosen } = useThemeStore.getState()
    // No choice made in Seam: Claude Code's own preference, when it names one Seam has.
    const wanted = chosen ? choice : (view.claudeCode?.choice ?? choice)
    if ((BUILTIN_CHOICES as readonly string[]).includes(wanted)) {
      if (!chosen) useThemeStore.setState({ choice: wanted })
      return applyBuiltin(wanted)
    }
    const theme = view.themes.find((t) => t.id === wanted)
    if (theme) {
      useThemeStore.setState({ choice: wanted, notice: null })
      return applyEntry(theme)
    }
    if (!chosen) return applyBuiltin('system')
    // The chosen theme is gone: its base scheme (as last painted), with a notice; the choice is kept, so it comes back with its plugin.
    const last = storedApplied()
    const scheme = last?.id === wanted ? last.scheme : 'system'
    paint(scheme)
    useThemeStore.setState({
      applied: null,
      notice: `The theme ${last?.id === wanted ? `“${last.name}” ` : ''}(${wanted}) is not available: its plugin is disabled or uninstalled. Seam's ${scheme === 'system' ? 'system' : scheme} colours are used instead.`
    })
  },
  /** Back to the initial state (tests). */
  reset(): void {
    paint('system')
    useThemeStore.setState({ choice: 'system', chosen: false, applied: null, view: null, error: null, notice: null })
  },
  dismissNotice(): void {
    useThemeStore.setState({ notice: null })
  },
  /** The user's choice: applied at once and remembered. */
  choose(choice: string): void {
    const view = useThemeStore.getState().view
    const theme = view?.themes.find((t) => t.id === choice)
    if (!theme && !(BUILTIN_CHOICES as readonly string[]).includes(choice)) throw new Error(`no theme "${choice}"`)
    store(THEME_KEY, choice)
    useThemeStore.setState({ choice, chosen: true, notice: null })
    if (theme) applyEntry(theme)
    else applyBuiltin(choice)
  }
}
