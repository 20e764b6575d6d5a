// The contract's part for subagents (plugins/subagents and the host's child turns): the agent
// types found and the files skipped (settings), a subagent's own log (the nested transcript of its
// card), Stop for one running subagent, and the rows a plugin's `subagentStatusLine` draws. A
// running subagent's events arrive live as the `subagent/appended` push, its rows as
// `subagent/status-lines`.
import { z } from 'zod'
import { SessionEventSchema } from '../session/events'

const SessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a session id')
const AgentId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an agent id')

export const SubagentTypeSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** `builtin`, `project`, `user`, `plugin:<name>`, `codex-project`, `codex-user`. */
  source: z.string(),
  file: z.string().optional(),
  /** The `tools` allowlist as written; absent: every tool. */
  tools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional()
})
export type SubagentTypeView = z.output<typeof SubagentTypeSchema>

export const SubagentSkippedSchema = z.object({ file: z.string(), field: z.string(), reason: z.string() })
export type SubagentSkippedView = z.output<typeof SubagentSkippedSchema>

/** One subagent's row drawn by a Claude Code plugin's `subagentStatusLine` command (raw text: it may hold ANSI colours). */
export const SubagentStatusLineSchema = z.object({ agentId: z.string(), content: z.string(), plugin: z.string() })
export type SubagentStatusLineView = z.output<typeof SubagentStatusLineSchema>

export const SubagentMethods = {
  /** The agent types of the window's workspace, highest priority first, and the agent files skipped with their reason. */
  'subagents/list': {
    input: z.object({}).strict(),
    output: z.object({ running: z.boolean(), agents: z.array(SubagentTypeSchema), skipped: z.array(SubagentSkippedSchema) })
  },
  /** A subagent's own log (`<session>.agents/<agentId>.jsonl`): what its card's nested transcript shows. */
  'subagents/events': {
    input: z.object({ sessionId: SessionId, agentId: AgentId }).strict(),
    output: z.object({ events: z.array(SessionEventSchema) })
  },
  /** Stops one running subagent: its Agent call ends as an interrupted call and the session's turn goes on. */
  'subagents/stop': {
    input: z.object({ sessionId: SessionId, agentId: AgentId }).strict(),
    output: z.object({ stopped: z.boolean() })
  },
  /** The rows a plugin's `subagentStatusLine` command drew for the session's subagents now (none when no plugin sets one). */
  'subagents/status-lines': {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ lines: z.array(SubagentStatusLineSchema) })
  },
  /**
   * The width in character cells of where the session's subagent rows are shown (the window measures
   * its cards and says so again when it changes): the `columns` a plugin's `subagentStatusLine`
   * command gets. `applied`: false when the session is not running here or no plugin draws rows.
   */
  'subagents/status-columns': {
    input: z.object({ sessionId: SessionId, columns: z.number().int().min(1).max(10_000) }).strict(),
    output: z.object({ applied: z.boolean() })
  }
} as const

export const SubagentPushes = {
  /** An event a running subagent's own log recorded (`sessionId`: its parent session). */
  'subagent/appended': z.object({ sessionId: z.string(), agentId: z.string(), event: SessionEventSchema }),
  /** The session's `subagentStatusLine` rows changed: all of them now (an empty list: the default rows again). */
  'subagent/status-lines': z.object({ sessionId: z.string(), lines: z.array(SubagentStatusLineSchema) })
} as const
