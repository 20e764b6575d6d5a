// PreCompact <- compaction/prepare and PostCompact <- compaction/done (claude-code-hooks.md
// "PreCompact / PostCompact"): input `trigger` (`manual` / `auto`, also the matcher target) and
// `custom_instructions` (the `/compact` text; null when none was given, and for auto compaction);
// PostCompact gets `compact_summary`. PreCompact fires even when there is nothing to compact.
// SessionStart with source `compact` follows through agent/session-start (session-start.ts).
// A blocking answer from a PreCompact hook (exit 2, decision "block") cancels the compaction with
// its reason; the spec records no other PreCompact output having an effect, so none is acted on.
import type { AgentHandle } from '@seam/sdk'
import type { CompactionDecision, CompactionRequest, CompactionTrigger } from '@seam/sdk'
import type { Next } from '@seam/sdk'
import { occurrence, seeSession, showSystemMessages, type Bridge } from './bridge'

export function onPreCompact(bridge: Bridge) {
  return async (agent: AgentHandle, request: CompactionRequest, next: Next<Promise<CompactionDecision>>): Promise<CompactionDecision> => {
    if (!bridge.invoker.has('PreCompact')) return next()
    const entry = seeSession(bridge, agent)
    const occ = occurrence(bridge, 'PreCompact', entry, { trigger: request.trigger, custom_instructions: request.instructions ?? null })
    const result = await bridge.invoker.run(occ)
    if (!result) return next()
    showSystemMessages(result.runs, occ.sink, 'PreCompact')
    const blocked = result.runs.find((run) => run.outcome.kind === 'block')
    if (blocked) return { action: 'cancel', reason: blocked.outcome.reason ?? 'a PreCompact hook blocked the compaction', by: 'hook:PreCompact' }
    return next()
  }
}

export function onPostCompact(bridge: Bridge) {
  return async (agent: AgentHandle, trigger: CompactionTrigger, summary: string): Promise<void> => {
    if (!bridge.invoker.has('PostCompact')) return
    const entry = seeSession(bridge, agent)
    const occ = occurrence(bridge, 'PostCompact', entry, { trigger, compact_summary: summary })
    const result = await bridge.invoker.run(occ)
    if (result) showSystemMessages(result.runs, occ.sink, 'PostCompact')
  }
}
