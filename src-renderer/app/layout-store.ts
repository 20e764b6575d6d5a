// Window layout the user chooses: whether the sessions sidebar shows (remembered in localStorage,
// `seam.sidebar`), and whether the window is narrow (the header then folds its secondary items
// into an overflow menu). NARROW_QUERY is the one breakpoint; styles use the same width.
import { useSyncExternalStore } from 'react'
import { create } from 'zustand'

const SIDEBAR_KEY = 'seam.sidebar'
export const NARROW_QUERY = '(max-width: 1100px)'

function storedSidebar(): boolean {
  try {
    return globalThis.localStorage?.getItem(SIDEBAR_KEY) !== 'closed'
  } catch {
    // Storage refused (privacy mode): the sidebar shows, and the choice lasts this page only.
    return true
  }
}

export const useLayoutStore = create<{ sidebarOpen: boolean }>()(() => ({ sidebarOpen: storedSidebar() }))

export const layoutActions = {
  toggleSidebar(): void {
    const sidebarOpen = !useLayoutStore.getState().sidebarOpen
    useLayoutStore.setState({ sidebarOpen })
    try {
      globalThis.localStorage?.setItem(SIDEBAR_KEY, sidebarOpen ? 'open' : 'closed')
    } catch {
      // Not remembered (storage refused); the toggle still applies now.
    }
  },
  /** Back to what is stored (tests, after clearing localStorage). */
  reload(): void {
    useLayoutStore.setState({ sidebarOpen: storedSidebar() })
  }
}

/** Whether the window is narrower than NARROW_QUERY, following resizes. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, isNarrow, () => false)
}

function isNarrow(): boolean {
  return typeof matchMedia === 'function' && matchMedia(NARROW_QUERY).matches
}

function subscribeNarrow(onChange: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {}
  const query = matchMedia(NARROW_QUERY)
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}
