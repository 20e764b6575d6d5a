// A session in its own git worktree, for every front end (CLI `seam run --worktree`, the UI's
// "New session in a worktree", ACP's session option): the `worktrees` service (plugins/worktrees)
// makes the worktree (or a WorktreeCreate hook does), then the session is created bound to it:
// its workspace is the worktree's folder, so tools, hooks, instructions and checkpoints are the
// worktree's; trust comes from the repository (HostRuntime.trustRoot).
import type { WorktreeRecord, WorktreeService } from '../../src-shared/host/worktrees'
import { newSessionId } from '../session/ids'
import type { HostRuntime } from './runtime'

export interface WorktreeSessionRequest {
  /** The workspace (inside the repository) the worktree is made from. */
  workspace: string
  name?: string
  base?: string
  title?: string
}

/** The `worktrees` service of `workspace`'s tree (or the window's), or why there is none. */
export async function worktreeService(runtime: HostRuntime, workspace: string): Promise<WorktreeService> {
  const kernel = (await runtime.kernelOf(workspace)) ?? runtime.kernel
  const service = kernel.getService('worktrees')
  if (!service) throw new Error('worktree sessions are off: the worktrees plugin is disabled (enable it in Settings > Plugins)')
  return service
}

export async function createWorktreeSession(runtime: HostRuntime, request: WorktreeSessionRequest) {
  const service = await worktreeService(runtime, request.workspace)
  const availability = await service.availability(request.workspace)
  if (!availability.available) throw new Error(availability.reason)
  // Worktrees Seam made whose folders are gone: git forgets them first.
  await service.prune(availability.repo)
  const id = newSessionId()
  const { worktree, notices } = await service.create({
    workspace: request.workspace,
    sessionId: id,
    ...(request.name !== undefined ? { name: request.name } : {}),
    ...(request.base !== undefined ? { base: request.base } : {})
  })
  let session
  try {
    session = await runtime.sessions.create(worktree.path, request.title, 'startup', { id, worktree })
  } catch (error) {
    // No session holds it: the repository goes back to how it was.
    await service.discard(worktree, { sessionId: id, confirmed: true }).catch(() => undefined)
    throw error
  }
  for (const text of notices) session.log.append({ type: 'notice', level: 'info', text, source: 'worktrees' })
  await session.log.flush()
  return { session, worktree, notices }
}

/** A worktree session's worktree, from its header (or undefined for a plain session). */
export async function worktreeOf(runtime: HostRuntime, sessionId: string): Promise<WorktreeRecord | undefined> {
  const live = await runtime.sessions.open(sessionId)
  return live.worktree
}
