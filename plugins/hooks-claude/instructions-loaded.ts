// InstructionsLoaded <- agent/instructions-loaded: one occurrence per delivered file, with
// `file_path`, `memory_type` and `load_reason` (and `parent_file_path` for an @import), fired
// before SessionStart's hooks as in Claude Code (claude-code-hooks.md, "Other events"). The input
// carries no `prompt_id`, as observed. Its answers are not acted on (the spec has none tried);
// a systemMessage is shown to the user like every event's.
import type { AgentHandle } from '@seam/sdk'
import type { InstructionsFile } from '@seam/sdk'
import { occurrence, seeSession, showSystemMessages, type Bridge } from './bridge'

/** Seam's memory types for Codex files have no Claude Code name: they are not announced to Claude Code hooks. */
const CLAUDE_MEMORY_TYPES: ReadonlySet<string> = new Set(['User', 'Project', 'Local'])

export function onInstructionsLoaded(bridge: Bridge) {
  return async (agent: AgentHandle, files: readonly InstructionsFile[]): Promise<void> => {
    if (!bridge.invoker.has('InstructionsLoaded')) return
    const entry = seeSession(bridge, agent)
    const runs = files
      .filter((file) => CLAUDE_MEMORY_TYPES.has(file.memoryType))
      .map(async (file) => {
        const fields: Record<string, unknown> = { file_path: file.path, memory_type: file.memoryType, load_reason: file.loadReason }
        if (file.parent !== undefined) fields.parent_file_path = file.parent
        const occ = occurrence(bridge, 'InstructionsLoaded', entry, fields)
        delete occ.input.prompt_id
        const result = await bridge.invoker.run(occ)
        if (result) showSystemMessages(result.runs, occ.sink, 'InstructionsLoaded')
      })
    await Promise.all(runs)
  }
}
