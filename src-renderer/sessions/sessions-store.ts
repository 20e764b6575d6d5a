// The sessions list and which session is open. The open id is remembered in localStorage so a
// page reload reopens it.
import { appActions } from '../app/app-store'
import { composerActions } from '../composer/composer-store'
import { create } from 'zustand'
import type { HostApi, MethodOutput } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { sessionActions, useSessionStore, type TranscriptFocus } from '../transcript/session-store'

export type SessionSummary = MethodOutput<'sessions/list'>[number]
export type SessionSearchResult = MethodOutput<'sessions/search'>[number]

export interface SessionsState {
  list: SessionSummary[]
  loaded: boolean
  error: string | null
  openId: string | null
}

export const OPEN_SESSION_KEY = 'seam.openSession'

export const useSessionsStore = create<SessionsState>()(() => ({ list: [], loaded: false, error: null, openId: null }))

export function rememberedSessionId(): string | null {
  try {
    return globalThis.localStorage?.getItem(OPEN_SESSION_KEY) ?? null
  } catch {
    return null // storage disabled: nothing remembered
  }
}

function remember(id: string | null): void {
  try {
    if (id) globalThis.localStorage?.setItem(OPEN_SESSION_KEY, id)
    else globalThis.localStorage?.removeItem(OPEN_SESSION_KEY)
  } catch {
    // storage disabled: the open session is simply not remembered across reloads
  }
}

/** The session a deep link named before the list was loaded (restore reports it if it is gone). */
let linkedId: string | null = null

function noSuchSession(id: string): string {
  return `there is no session “${id}” (it was deleted, or the link is mistyped). Write a message below to start a new one.`
}

/** Numbers sessions/list calls, so a reply older than one already applied is dropped. */
let listRequests = 0
let listApplied = 0

export const sessionsActions = {
  /** Refetches the list; the open session closes when it is gone (deleted in another window). */
  async refresh(host: HostApi): Promise<void> {
    const request = ++listRequests
    try {
      const list = await host.invoke('sessions/list', {})
      if (request < listApplied) return
      listApplied = request
      useSessionsStore.setState({ list: [...list].sort((a, b) => b.lastActivity - a.lastActivity), loaded: true, error: null })
      const { openId } = useSessionsStore.getState()
      if (openId !== null && !list.some((s) => s.id === openId)) sessionsActions.close()
    } catch (error) {
      useSessionsStore.setState({ error: errorText(error) })
    }
  },

  /** Opens a session: replays its log into the view; `focus` names an event to scroll to (a search match). */
  async open(host: HostApi, id: string, focus?: TranscriptFocus): Promise<void> {
    useSessionsStore.setState({ openId: id })
    remember(id)
    sessionActions.begin(id, focus)
    try {
      await sessionActions.loadedInSteps(await host.invoke('sessions/open', { id }), (fromSeq) => host.invoke('sessions/events', { id, fromSeq }))
    } catch (error) {
      sessionActions.failed(id, errorText(error))
    }
  },

  close(): void {
    useSessionsStore.setState({ openId: null })
    remember(null)
    sessionActions.close()
  },

  async create(host: HostApi, title?: string): Promise<string> {
    const { id } = await host.invoke('sessions/create', title ? { title } : {})
    await sessionsActions.refresh(host)
    await sessionsActions.open(host, id)
    return id
  },

  async rename(host: HostApi, id: string, title: string): Promise<void> {
    await host.invoke('sessions/rename', { id, title })
    await sessionsActions.refresh(host)
  },

  async remove(host: HostApi, id: string): Promise<void> {
    await host.invoke('sessions/delete', { id })
    if (useSessionsStore.getState().openId === id) sessionsActions.close()
    await sessionsActions.refresh(host)
  },

  /** At start and after a reconnect: reopen the remembered (or linked) session if it still exists. */
  async restore(host: HostApi): Promise<void> {
    await sessionsActions.refresh(host)
    const id = useSessionsStore.getState().openId ?? rememberedSessionId()
    const linked = id !== null && id === linkedId
    linkedId = null
    if (!id) return
    if (useSessionsStore.getState().list.some((s) => s.id === id)) await sessionsActions.open(host, id)
    else if (useSessionsStore.getState().loaded) {
      sessionsActions.close()
      if (linked) sessionActions.notFound(noSuchSession(id))
    }
  },

  /**
   * A deep link (`#/session/<id>`) names a session: it opens when the list has it, else the view
   * says there is none. Before the list is first loaded (the page was opened at the link), `restore`
   * does it once the list is known.
   */
  async openLinked(host: HostApi, id: string): Promise<void> {
    const { loaded, list, openId } = useSessionsStore.getState()
    if (!loaded) {
      useSessionsStore.setState({ openId: id })
      linkedId = id
      return
    }
    if (list.some((s) => s.id === id)) {
      if (openId !== id) await sessionsActions.open(host, id)
      return
    }
    sessionsActions.close()
    sessionActions.notFound(noSuchSession(id))
  },

  reset(): void {
    linkedId = null
    useSessionsStore.setState({ list: [], loaded: false, error: null, openId: null })
    sessionActions.close()
  }
}

/** The id of the session the view shows, if any. */
export function openSessionId(): string | null {
  return useSessionStore.getState().sessionId
}

/** "New session": an empty view whose first message creates (and stores) the session. */
export function startNewSession(): void {
  sessionsActions.close()
  appActions.showPage('chat')
  composerActions.focus()
}

/** Sessions whose title holds every word of the query (case-insensitive). */
export function filterSessions(list: readonly SessionSummary[], query: string): readonly SessionSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return list
  return list.filter((s) => {
    const title = (s.title || 'New session').toLowerCase()
    return words.every((w) => title.includes(w))
  })
}
