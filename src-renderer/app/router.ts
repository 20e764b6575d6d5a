// Deep links: the page, the Settings section and the open session live in the URL's hash, the same
// in web mode and in the desktop app (one renderer route):
//   #/chat  #/session/<id>  #/board  #/plugins  #/settings/<section id>
// In-app navigation pushes a history entry, so Back and Forward walk it; a link opened (typed,
// pasted, Back/Forward) is applied to the stores. The stores stay the truth: the hash is written
// from them, and a link is only a request (Settings may hold it back to ask about unsaved changes,
// and then the hash goes back to what shows).
import type { HostApi } from '../../src-shared/contract/ipc'
import { sessionsActions, useSessionsStore } from '../sessions/sessions-store'
import { appActions, useAppStore, type Page } from './app-store'

export type Route =
  | { page: 'chat'; sessionId: string | null }
  | { page: 'board' }
  | { page: 'plugins' }
  | { page: 'settings'; section: string | null }

/** The route a hash names; null for no hash, `unknown` for one that names no page. */
export function parseRoute(hash: string): Route | { page: 'unknown'; path: string } | null {
  const path = hash.replace(/^#\/?/, '')
  if (path === '') return null
  const [head = '', ...rest] = path.split('/')
  const tail = rest.length > 0 ? decodePart(rest.join('/')) : null
  if (head === 'chat' && tail === null) return { page: 'chat', sessionId: null }
  if (head === 'session' && tail) return { page: 'chat', sessionId: tail }
  if (head === 'board' && tail === null) return { page: 'board' }
  if (head === 'plugins' && tail === null) return { page: 'plugins' }
  if (head === 'settings') return { page: 'settings', section: tail || null }
  return { page: 'unknown', path }
}

/** The hash of what shows: the page, and the section or session within it. */
export function routeHash(state: { page: Page; settingsSection: string; openId: string | null }): string {
  switch (state.page) {
    case 'chat':
      return state.openId ? `#/session/${encodeURIComponent(state.openId)}` : '#/chat'
    case 'settings':
      return `#/settings/${encodeURIComponent(state.settingsSection)}`
    default:
      return `#/${state.page}`
  }
}

function decodePart(part: string): string | null {
  try {
    return decodeURIComponent(part)
  } catch {
    return null // a malformed escape names nothing
  }
}

function currentHash(): string {
  return routeHash({ ...useAppStore.getState(), openId: useSessionsStore.getState().openId })
}

/** Applies a route to the stores (a link opened, Back/Forward). */
function apply(host: HostApi, route: ReturnType<typeof parseRoute>): void {
  if (route === null) return appActions.showPage('chat')
  switch (route.page) {
    case 'chat':
      appActions.showPage('chat')
      if (route.sessionId) void sessionsActions.openLinked(host, route.sessionId)
      else if (useSessionsStore.getState().loaded && useSessionsStore.getState().openId !== null) sessionsActions.close()
      return
    case 'settings':
      return appActions.openSettings(route.section ?? undefined)
    case 'unknown':
      // No such page: the chat shows, and the address says so (replaced, not pushed).
      appActions.showPage('chat')
      return
    default:
      return appActions.showPage(route.page)
  }
}

/**
 * Starts following the URL: the link the window was opened at is applied now (before the first
 * resync, so a linked session opens instead of the remembered one), then every store change is
 * written to the hash and every history move is applied. Returns the stop function.
 */
export function startRouter(host: HostApi, win: Window = window): () => void {
  const write = (mode: 'push' | 'replace') => {
    const hash = currentHash()
    if (hash === win.location.hash) return
    // The first hash of a window opened without one replaces its entry: Back leaves the app as before.
    if (mode === 'push' && win.location.hash !== '') win.history.pushState(null, '', hash)
    else win.history.replaceState(null, '', hash)
  }
  const initial = parseRoute(win.location.hash)
  apply(host, initial)
  // A link that names less than what shows (`#/settings`) or no page at all: the address says what shows.
  if (initial !== null) write('replace')

  const onPopState = () => {
    apply(host, parseRoute(win.location.hash))
    // Held back (unsaved settings) or not a page: the address shows what really shows.
    write('replace')
  }
  win.addEventListener('popstate', onPopState)
  const offApp = useAppStore.subscribe((state, previous) => {
    if (state.page !== previous.page || state.settingsSection !== previous.settingsSection) write('push')
  })
  const offSessions = useSessionsStore.subscribe((state, previous) => {
    if (state.openId !== previous.openId) write('push')
  })
  return () => {
    win.removeEventListener('popstate', onPopState)
    offApp()
    offSessions()
  }
}
