// The rows Claude Code plugins' `subagentStatusLine` commands drew for subagents, by session and
// agent id: what a subagent card (and a background agent's task row) shows in place of its default
// status row. Pushed whole per session (`subagent/status-lines`; an empty list: default rows
// again, as when the plugin is turned off); read once per session a view shows
// (`subagents/status-lines`), since pushes sent before the view opened are gone.
import { useEffect } from 'react'
import { create } from 'zustand'
import type { HostApi } from '../../src-shared/contract/ipc'
import type { SubagentStatusLineView } from '../../src-shared/contract/subagents'

interface StatusLineState {
  bySession: Readonly<Record<string, Readonly<Record<string, SubagentStatusLineView>>>>
}

export const useStatusLineStore = create<StatusLineState>()(() => ({ bySession: {} }))

/** Pushes seen per session: a read that started before one is older than it and is dropped. */
const pushes = new Map<string, number>()
const asked = new Set<string>()

export const statusLineActions = {
  /** The session's rows, all of them (the push). */
  replace(sessionId: string, lines: readonly SubagentStatusLineView[]): void {
    pushes.set(sessionId, (pushes.get(sessionId) ?? 0) + 1)
    store(sessionId, lines)
  },
  /** Reads the session's rows once (a view of it opened). */
  async load(host: HostApi, sessionId: string): Promise<void> {
    if (asked.has(sessionId)) return
    asked.add(sessionId)
    const before = pushes.get(sessionId) ?? 0
    try {
      const { lines } = await host.invoke('subagents/status-lines', { sessionId })
      if ((pushes.get(sessionId) ?? 0) === before) store(sessionId, lines)
    } catch {
      // The rows are an extra: the default rows stay, and the next push brings them.
      asked.delete(sessionId)
    }
  },
  reset(): void {
    pushes.clear()
    asked.clear()
    useStatusLineStore.setState({ bySession: {} })
  }
}

function store(sessionId: string, lines: readonly SubagentStatusLineView[]): void {
  const bySession = { ...useStatusLineStore.getState().bySession }
  if (lines.length === 0) delete bySession[sessionId]
  else bySession[sessionId] = Object.fromEntries(lines.map((line) => [line.agentId, line]))
  useStatusLineStore.setState({ bySession })
}

/** The row drawn for one subagent of the session, if any (and reads the session's rows the first time). */
export function useStatusLine(host: HostApi, sessionId: string | null, agentId: string | undefined): SubagentStatusLineView | undefined {
  useEffect(() => {
    if (sessionId !== null && agentId !== undefined) void statusLineActions.load(host, sessionId)
  }, [host, sessionId, agentId])
  return useStatusLineStore((state) => (sessionId !== null && agentId !== undefined ? state.bySession[sessionId]?.[agentId] : undefined))
}
