// The contract's `worktrees/*` methods and `sessions/board` (src-shared/contract/worktrees.ts):
// worktree sessions from the UI, their review and landing, and the board of every session of the
// window's workspace. The git work is the `worktrees` service's (plugins/worktrees).
import { subagentLabel } from '../../src-shared/subagent-label'
import type { BoardRow } from '../../src-shared/contract/worktrees'
import type { WorktreeRecord } from '../../src-shared/host/worktrees'
import { LogActivity, activityOfEvents, type SessionActivity } from './board-activity'
import type { Handlers } from '../transport/router'
import type { ApprovalDialogs } from './approval-dialog'
import type { HostRuntime } from './runtime'
import { createWorktreeSession, worktreeService } from './worktree-sessions'

type WorktreeHandlerNames =
  | 'worktrees/availability'
  | 'worktrees/create'
  | 'worktrees/diff'
  | 'worktrees/commit-message'
  | 'worktrees/commit'
  | 'worktrees/merge'
  | 'worktrees/pull-request'
  | 'worktrees/discard'
  | 'sessions/board'

/** How many of the most recent closed sessions the board lists beside the open ones. */
const RECENT_CLOSED = 20

export function worktreeHandlers(runtime: HostRuntime, dialogs: ApprovalDialogs): Pick<Handlers, WorktreeHandlerNames> {
  const workspace = (): string => {
    const current = runtime.workspace()
    if (!current) throw Object.assign(new Error('Choose a workspace folder first.'), { code: 'NO_WORKSPACE' })
    return current
  }
  /** The session's worktree, or a clear refusal for a plain session. */
  const worktreeOf = async (sessionId: string): Promise<WorktreeRecord> => {
    const summary = (await runtime.sessions.store.list()).find((s) => s.id === sessionId)
    if (!summary) throw Object.assign(new Error(`no session ${sessionId}`), { code: 'NOT_FOUND', field: 'sessionId' })
    if (!summary.worktree) throw Object.assign(new Error(`session ${sessionId} does not run in a worktree`), { code: 'INVALID_INPUT', field: 'sessionId' })
    return summary.worktree
  }
  const serviceFor = (worktree: WorktreeRecord) => worktreeService(runtime, worktree.repo)
  const logActivity = new LogActivity()
  const clear = <T>(run: Promise<T>): Promise<T> => run.catch((error: unknown) => Promise.reject(Object.assign(error as Error, { code: (error as { code?: string }).code ?? 'WORKTREE' })))

  return {
    'worktrees/availability': async () => {
      const current = runtime.workspace()
      if (!current) return { available: false as const, reason: 'Choose a workspace folder first.' }
      return (await worktreeService(runtime, current)).availability(current)
    },
    'worktrees/create': async ({ name, base, title }) => {
      const made = await clear(createWorktreeSession(runtime, { workspace: workspace(), ...(name !== undefined ? { name } : {}), ...(base !== undefined ? { base } : {}), ...(title !== undefined ? { title } : {}) }))
      return { id: made.session.log.id, worktree: made.worktree, notices: made.notices }
    },
    'worktrees/diff': async ({ sessionId }) => {
      const worktree = await worktreeOf(sessionId)
      return clear((await serviceFor(worktree)).diff(worktree))
    },
    'worktrees/commit-message': async ({ sessionId }) => {
      const worktree = await worktreeOf(sessionId)
      return { message: await clear((await serviceFor(worktree)).suggestCommitMessage(worktree)) }
    },
    'worktrees/commit': async ({ sessionId, message }) => {
      const worktree = await worktreeOf(sessionId)
      return { commit: await clear((await serviceFor(worktree)).commit(worktree, message)) }
    },
    'worktrees/merge': async ({ sessionId, mode, message }) => {
      const worktree = await worktreeOf(sessionId)
      return clear((await serviceFor(worktree)).merge(worktree, mode, message))
    },
    'worktrees/pull-request': async ({ sessionId, title, body }) => {
      const worktree = await worktreeOf(sessionId)
      return { url: await clear((await serviceFor(worktree)).pullRequest(worktree, title, body)) }
    },
    'worktrees/discard': async ({ sessionId, confirmed }) => {
      const worktree = await worktreeOf(sessionId)
      const service = await serviceFor(worktree)
      // Checked before the session closes: a refused discard leaves it running.
      if (!confirmed) {
        const diff = service.exists(worktree) ? await clear(service.diff(worktree)) : undefined
        if (diff?.uncommitted) throw Object.assign(new Error('The worktree has uncommitted changes: confirm to discard them.'), { code: 'UNCOMMITTED' })
      }
      if (runtime.sessions.isOpen(sessionId)) await runtime.sessions.close(sessionId, 'closed')
      await clear(service.discard(worktree, { sessionId, confirmed }))
      return { ok: true as const }
    },
    'sessions/board': async () => boardRows(runtime, dialogs, logActivity, workspace())
  }
}

/**
 * The sessions of `workspace` (and of its worktrees): the open ones, live from their events, then
 * the most recent closed ones, from their log files.
 */
async function boardRows(runtime: HostRuntime, dialogs: ApprovalDialogs, logActivity: LogActivity, workspace: string): Promise<BoardRow[]> {
  const asking = new Map(dialogs.pending().map((request) => [request.sessionId, request]))
  const rows: BoardRow[] = []
  const read = new Set<string>()
  let closed = 0
  for (const summary of await runtime.sessions.store.list()) {
    const belongs = summary.workspace === workspace || summary.worktree?.repo === workspace
    if (!belongs || summary.error) continue
    const open = runtime.sessions.isOpen(summary.id)
    if (!open && ++closed > RECENT_CLOSED) continue
    const row: BoardRow = { id: summary.id, title: summary.title, status: 'closed', lastMessage: '', filesChanged: 0, costUsd: 0, createdAt: summary.createdAt, lastActivity: summary.lastActivity }
    if (summary.worktree) row.worktree = summary.worktree
    if (open) {
      const live = await runtime.sessions.open(summary.id)
      const activity = activityOfEvents(live.log.events)
      Object.assign(row, details(activity))
      row.status = live.detached ? 'detached' : asking.has(summary.id) ? 'waiting' : live.agent.state.running ? 'running' : activity.lastTurn === 'failed' ? 'failed' : 'idle'
      const ask = asking.get(summary.id)
      if (row.status === 'waiting' && ask?.agent) row.waitingFor = subagentLabel(ask.agent)
    } else {
      const file = runtime.sessions.store.pathOf(summary.id)
      read.add(file)
      const activity = await logActivity.of(file).catch(() => undefined)
      if (activity) Object.assign(row, details(activity))
      const holder = runtime.sessions.presence?.holder(summary.id)
      if (holder && activity) {
        // Another process runs it: its status from its log as that process writes it.
        row.elsewhere = { pid: holder.pid }
        row.status = activity.asking ? 'waiting' : activity.lastTurn === 'open' ? 'running' : activity.lastTurn === 'failed' ? 'failed' : 'idle'
        if (activity.asking?.agent) row.waitingFor = subagentLabel(activity.asking.agent)
      } else if (summary.worktree && !(await worktreeService(runtime, summary.worktree.repo)).exists(summary.worktree)) row.status = 'detached'
      else if (activity?.lastTurn === 'failed') row.status = 'failed'
    }
    rows.push(row)
  }
  logActivity.retainOnly(read)
  return rows
}

function details(activity: SessionActivity): Pick<BoardRow, 'lastMessage' | 'filesChanged' | 'costUsd'> {
  return { lastMessage: activity.lastMessage, filesChanged: activity.filesChanged, costUsd: activity.costUsd }
}
