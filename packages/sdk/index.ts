// `@seam/sdk`: Seam's public plugin API for a bundle's host part. Every name here is the host's
// own definition, re-exported: nothing is declared twice (src-shared is the source of truth;
// the few contracts still declared beside their implementation in src-main are re-exported as
// types only, so no host code is pulled in). `./node` adds run-time helpers for Node, `./client`
// the client context, `./testing` a real Host loop with a scripted model for tests.
// The scoped accessors (`ctx.tools`, `ctx.approval`, `ctx.prompt`), the `prompt` and `models`
// services and the agent's live events are declared beside their implementations; importing
// their modules as types brings those declarations into every program that imports the SDK.
import type {} from '../../src-main/tools/scoped'
import type {} from '../../src-main/agent/system-prompt'
import type {} from '../../src-main/agent/events'
import type {} from '../../src-main/llm/adapters-plugin'
import type { ToolDefinition } from '../../src-shared/host/tools'

export { SDK_VERSION } from './version'

// ---- the kernel: contexts, plugins, events, services ----------------------------------------
export {
  Context,
  Kernel,
  KernelError,
  PluginConfigError,
  PluginRuntime,
  defineContextProperty,
  definePlugin,
  errorText,
  pluginName,
  type Logger,
  type Plugin,
  type PluginFunction,
  type PluginObject,
  type PluginState,
  type PluginStateChange
} from '../../src-shared/kernel'
export type * from '../../src-shared/kernel/types'

// ---- the seams: agent and tool events, Decision types, services ----------------------------
export type * from '../../src-shared/host/agent'
export type * from '../../src-shared/host/tools'
export type * from '../../src-shared/host/services'
export type * from '../../src-shared/host/workspace'
export type * from '../../src-shared/host/context'
export type * from '../../src-shared/host/extensions'
export type * from '../../src-shared/host/background-tasks'
export type * from '../../src-shared/host/worktrees'
export type * from '../../src-shared/host/slash-commands'
export type * from '../../src-shared/host/session-models'
export * from '../../src-shared/host/approval-modes'
export type { SystemPromptService, ScopedPromptSections, PromptSection, PromptEnvironment } from '../../src-main/agent/system-prompt'
export type { AgentDelta, AgentState, AgentToolProgress } from '../../src-main/agent/events'
export type { ModelAdapter, ModelAdapters } from '../../src-main/llm/adapters-plugin'

// ---- sessions and models -------------------------------------------------------------------
export type { SessionEvent, SessionEventOf, SessionEventType, TurnEndReason } from '../../src-shared/session/events'
export * from '../../src-shared/session/hook-events'
export * from '../../src-shared/session/context-events'
export * from '../../src-shared/session/checkpoint-events'
export * from '../../src-shared/session/task-events'
export { ModelError } from '../../src-shared/model'
export type * from '../../src-shared/model'

// ---- validation helpers (messages that name the field) -------------------------------------
export { formatIssuePath, formatZodError, parseOrThrow, ValidationError } from '../../src-shared/validation'

/**
 * Identity helper that gives a tool its type: the arguments `execute` receives are inferred from
 * `inputSchema` (the registry validates every call against it before `execute` runs).
 */
export function defineTool<A>(tool: ToolDefinition<A>): ToolDefinition<A> {
  return tool
}
