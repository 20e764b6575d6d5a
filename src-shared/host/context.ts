// Seams about the model's context window: instructions files delivered to the model, and
// compaction (the history replaced by a model-written summary). Types only; the instructions
// plugin lives in plugins/instructions, compaction in src-main/agent/compaction.ts.
import type { Next } from '../kernel/types'
import type { InstructionsFile } from '../session/context-events'
import type { AgentHandle } from './agent'

export type CompactionTrigger = 'manual' | 'auto'

/** What a compaction is about to do; `compaction/prepare` listeners may add to the prompt. */
export interface CompactionRequest {
  trigger: CompactionTrigger
  /** The user's `/compact` instructions, if any. */
  instructions?: string
  /** Sections of the summarisation prompt, in order; listeners append or replace them. */
  promptSections: string[]
}

/** `proceed`: summarise with the (possibly extended) request; `cancel`: keep the history as it is. */
export type CompactionDecision = { action: 'proceed'; request: CompactionRequest } | { action: 'cancel'; reason: string; by?: string }

declare module '../kernel/types' {
  interface Events {
    /** Instructions files were delivered to the model (one call per delivery; Claude Code's InstructionsLoaded). */
    'agent/instructions-loaded': (agent: AgentHandle, files: readonly InstructionsFile[]) => void | Promise<void>
    /** Before the model summarises the history: extend the prompt or cancel (Claude Code's PreCompact). */
    'compaction/prepare': (agent: AgentHandle, request: CompactionRequest, next: Next<Promise<CompactionDecision>>) => Promise<CompactionDecision>
    /** After the compaction event is logged (Claude Code's PostCompact). */
    'compaction/done': (agent: AgentHandle, trigger: CompactionTrigger, summary: string) => void | Promise<void>
  }
}
