// The contract's worktree-session and board methods (src-main/app/worktree-handlers.ts answers
// them): start a session in a worktree, review and land its work, and the board of every session
// of the workspace.
import { z } from 'zod'
import { WorktreeShape } from '../session/events'

const SessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'expected a session id')
const Ok = z.object({ ok: z.literal(true) })
const WorktreeName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_", "-"; at most 64')

export const WorktreeFileChangeSchema = z.object({ path: z.string(), status: z.string(), additions: z.number(), deletions: z.number(), patch: z.string() })
export const WorktreeDiffSchema = z.object({ files: z.array(WorktreeFileChangeSchema), uncommitted: z.boolean(), commits: z.number() })
export const WorktreeMergeResultSchema = z.union([
  z.object({ merged: z.literal(true), commit: z.string(), mode: z.enum(['fast-forward', 'merge', 'squash']) }),
  z.object({ merged: z.literal(false), reason: z.string(), conflicts: z.array(z.string()) })
])

/** One row of the board: a session of the workspace, plain or in a worktree. */
export const BoardRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  worktree: WorktreeShape.optional(),
  /** `waiting`: an approval is asked; `detached`: its worktree is gone; `closed`: no process has it open. */
  status: z.enum(['running', 'waiting', 'idle', 'failed', 'detached', 'closed']),
  /** `waiting` on an approval a subagent asked for: which one (`the Explore subagent ("...")`). */
  waitingFor: z.string().optional(),
  /**
   * Held open by another Seam process (`seam run` in a terminal, another window, `seam acp`): its
   * status comes from its log as that process writes it, and its asks are answered there.
   */
  elsewhere: z.object({ pid: z.number().int().positive() }).optional(),
  lastMessage: z.string(),
  filesChanged: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  createdAt: z.number(),
  lastActivity: z.number()
})
export type BoardRow = z.output<typeof BoardRowSchema>

export const WorktreeMethods = {
  /** Whether the window's workspace can have worktree sessions (the UI disables the option with `reason`). */
  'worktrees/availability': { input: z.object({}).strict(), output: z.union([z.object({ available: z.literal(true), repo: z.string() }), z.object({ available: z.literal(false), reason: z.string() })]) },
  'worktrees/create': {
    input: z.object({ name: WorktreeName.optional(), base: z.string().min(1).max(256).optional(), title: z.string().max(200).optional() }).strict(),
    output: z.object({ id: z.string(), worktree: WorktreeShape, notices: z.array(z.string()) })
  },
  'worktrees/diff': { input: z.object({ sessionId: SessionId }).strict(), output: WorktreeDiffSchema },
  'worktrees/commit-message': { input: z.object({ sessionId: SessionId }).strict(), output: z.object({ message: z.string() }) },
  'worktrees/commit': { input: z.object({ sessionId: SessionId, message: z.string().trim().min(1).max(100_000) }).strict(), output: z.object({ commit: z.string() }) },
  'worktrees/merge': {
    input: z.object({ sessionId: SessionId, mode: z.enum(['fast-forward', 'merge', 'squash']), message: z.string().max(100_000).optional() }).strict(),
    output: WorktreeMergeResultSchema
  },
  'worktrees/pull-request': { input: z.object({ sessionId: SessionId, title: z.string().trim().min(1).max(256), body: z.string().max(100_000) }).strict(), output: z.object({ url: z.string() }) },
  /** `confirmed`: the user confirmed losing uncommitted changes and unmerged commits. */
  'worktrees/discard': { input: z.object({ sessionId: SessionId, confirmed: z.boolean() }).strict(), output: Ok },
  /** Every running and recent session of the window's workspace (its worktree sessions included). */
  'sessions/board': { input: z.object({}).strict(), output: z.array(BoardRowSchema) }
} as const
