// WorktreeCreate <- worktree/create and WorktreeRemove <- worktree/remove (claude-code-hooks.md
// §6.0: input `name` / `worktree_path`; output `hookSpecificOutput.worktreePath`). They fire
// before the session runs in its worktree, so their common fields come from the request: the
// session id the session will have, its future transcript path, and the folder it started from.
// A WorktreeCreate hook that answers a path made the worktree itself (Claude Code's way for
// setups git cannot serve); one that fails (a non-zero exit) fails the creation, as in Claude Code.
import path from 'node:path'
import type { Next, WorktreeCreateDecision, WorktreeCreateRequest, WorktreeRemoveRequest } from '@seam/sdk'
import { occurrence, showSystemMessages, type Bridge } from './bridge'
import type { HookRun } from './invoke'

/** Where the session's Claude Code transcript will be (transcript.ts: beside the session logs). */
function transcriptOf(seamHome: string, sessionId: string): string {
  return path.join(seamHome, 'sessions', 'claude-transcripts', `${sessionId}.jsonl`)
}

export function onWorktreeCreate(bridge: Bridge, seamHome: string) {
  return async (request: WorktreeCreateRequest, next: Next<Promise<WorktreeCreateDecision>>): Promise<WorktreeCreateDecision> => {
    if (!bridge.invoker.has('WorktreeCreate')) return next()
    const occ = occurrence(bridge, 'WorktreeCreate', undefined, { name: request.name }, { sessionId: request.sessionId, cwd: request.cwd })
    occ.input.transcript_path = transcriptOf(seamHome, request.sessionId)
    const result = await bridge.invoker.run(occ)
    if (!result) return next()
    showSystemMessages(result.runs, occ.sink, 'WorktreeCreate')
    const failed = result.runs.find((run) => run.outcome.kind !== 'ok')
    if (failed) throw new Error(`the WorktreeCreate hook [${failed.handler.label}] failed, so no worktree was made: ${failureText(failed)}`)
    let answered: string | undefined
    for (const run of result.runs) answered = worktreePathOf(run) ?? answered
    return answered === undefined ? next() : { path: answered }
  }
}

export function onWorktreeRemove(bridge: Bridge, seamHome: string) {
  return async (request: WorktreeRemoveRequest): Promise<void> => {
    if (!bridge.invoker.has('WorktreeRemove')) return
    const occ = occurrence(bridge, 'WorktreeRemove', undefined, { worktree_path: request.worktreePath }, { sessionId: request.sessionId, cwd: request.cwd })
    occ.input.transcript_path = transcriptOf(seamHome, request.sessionId)
    const result = await bridge.invoker.run(occ)
    if (result) showSystemMessages(result.runs, occ.sink, 'WorktreeRemove')
  }
}

/** `hookSpecificOutput.worktreePath`, or (a command hook) a plain stdout whose last line is an absolute path. */
function worktreePathOf(run: HookRun): string | undefined {
  const specific = run.outcome.hookSpecificOutput?.worktreePath
  if (typeof specific === 'string' && specific !== '') return specific
  const stdout = run.execution.handlerType === 'command' ? run.execution.stdout : run.execution.body
  const text = stdout.trim()
  if (text === '' || text.startsWith('{')) return undefined
  const last = text.split('\n').pop()?.trim() ?? ''
  return path.isAbsolute(last) ? last : undefined
}

function failureText(run: HookRun): string {
  const stderr = run.execution.handlerType === 'command' ? run.execution.stderr.trim() : ''
  return run.outcome.reason ?? (stderr || run.outcome.errorMessage || 'it exited with an error')
}
