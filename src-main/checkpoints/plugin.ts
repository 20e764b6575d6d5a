// The `checkpoints` plugin: a tools/execute wrapper (S13) that, before a file-changing call runs,
// keeps each target file's content in the session's blob folder and records a `file/checkpoint`
// event, synced to the device before the tool starts (the log is never behind the world); after
// the call it records the file as the call left it (`file/changed`). Which calls change which
// files: the tool's own `changedFiles` declaration (Write, Edit), else Claude Code's names
// (MultiEdit's `file_path`, NotebookEdit's `notebook_path`). Calls with no agent session behind
// them (a nested call of another process, a test calling the registry) are not checkpointed.
import { z } from 'zod'
import '../../src-shared/host/agent'
import type { AgentHandle } from '../../src-shared/host/agent'
import type { SealedCall, ToolResult } from '../../src-shared/host/tools'
import { definePlugin, errorText, type Kernel } from '../../src-shared/kernel'
import { CheckpointStore, DEFAULT_CHECKPOINT_MAX_FILE_BYTES } from '../session/checkpoint-store'
import { resolveToolPath } from '../tools/builtin/paths'
import '../tools/scoped'

declare module '../../src-shared/host/tools' {
  interface ToolErrorCodes {
    /** The file's checkpoint could not be saved, so the call was not run (its change could not be taken back). */
    CHECKPOINT_FAILED: true
  }
}

export const CheckpointsConfigSchema = z
  .object({
    /** Files bigger than this (bytes) are not checkpointed: revert and rewind refuse them, saying why. */
    maxFileBytes: z.number().int().positive().max(1024 * 1024 * 1024).default(DEFAULT_CHECKPOINT_MAX_FILE_BYTES)
  })
  .strict()
  .prefault({})

/** Claude Code's file tools that name their target in an argument, for tools that do not declare `changedFiles`. */
const PATH_ARGUMENT: Readonly<Record<string, string>> = { MultiEdit: 'file_path', NotebookEdit: 'notebook_path', Write: 'file_path', Edit: 'file_path' }

/** Agents by session, per kernel: kept outside the plugin instance so a restart of the plugin keeps them. */
const agentsByKernel = new WeakMap<Kernel, Map<string, AgentHandle>>()

function agentsOf(kernel: Kernel): Map<string, AgentHandle> {
  let agents = agentsByKernel.get(kernel)
  if (!agents) agentsByKernel.set(kernel, (agents = new Map()))
  return agents
}

export const checkpointsPlugin = definePlugin({
  name: 'checkpoints',
  schema: CheckpointsConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const agents = agentsOf(ctx.kernel)
    const stores = new Map<string, CheckpointStore>()
    const storeOf = (agent: AgentHandle): CheckpointStore => {
      let store = stores.get(agent.sessionId)
      if (!store) stores.set(agent.sessionId, (store = CheckpointStore.forLog(agent.transcriptPath, config.maxFileBytes)))
      return store
    }
    ctx.on('agent/session-start', (agent) => void agents.set(agent.sessionId, agent))
    // Also on each prompt: the plugin may have been enabled after the session started.
    ctx.on('agent/prompt-submit', (agent, _content, _source, next) => {
      agents.set(agent.sessionId, agent)
      return next()
    })
    ctx.on('agent/session-end', (agent) => {
      agents.delete(agent.sessionId)
      stores.delete(agent.sessionId)
    })

    ctx.on('tools/execute', async (call, _control, next) => {
      const files = changedFiles(ctx.tools.get(call.name)?.changedFiles, call)
      const agent = agents.get(call.sessionId)
      if (files.length === 0 || agent === undefined) return next()
      const store = storeOf(agent)
      // A subagent's call is recorded in the session's log under the session's turn that ran the
      // subagent: reverting or rewinding that turn takes back what its subagents wrote too.
      const turnId = call.agent !== undefined ? (agent.currentTurnId ?? call.turnId) : call.turnId
      const turn = turnId !== undefined ? { turnId } : {}
      const identity = { ...turn, callId: call.callId, token: call.token, tool: call.name }
      try {
        for (const path of files) agent.record({ type: 'file/checkpoint', ...identity, path, before: await store.capture(path) })
        await agent.flushDurable()
      } catch (error) {
        return checkpointFailed(call, error)
      }
      let result: ToolResult
      try {
        result = await next()
      } finally {
        for (const path of files) {
          try {
            agent.record({ type: 'file/changed', ...identity, path, after: await store.capture(path) })
          } catch (error) {
            ctx.logger.warn(`could not record how ${call.name} left ${path}: ${errorText(error)}`)
          }
        }
      }
      return result
    })
  }
})

/** The absolute paths a call changes: the tool's declaration, else the argument Claude Code's tool of that name uses. */
export function changedFiles(declared: ((args: never, cwd: string) => string[]) | undefined, call: SealedCall): string[] {
  let paths: unknown
  if (declared !== undefined) {
    paths = declared(call.args as never, call.cwd)
  } else {
    const argument = PATH_ARGUMENT[call.name]
    const value = argument === undefined ? undefined : call.args[argument]
    paths = typeof value === 'string' && value !== '' ? [resolveToolPath(call.cwd, value)] : []
  }
  if (!Array.isArray(paths)) return []
  return [...new Set(paths.filter((p): p is string => typeof p === 'string' && p !== ''))]
}

function checkpointFailed(call: SealedCall, error: unknown): ToolResult {
  return {
    content: `Tool "${call.name}" was not run: the checkpoint of the file it changes could not be saved (${errorText(error)}), so the change could not be taken back.`,
    isError: true,
    code: 'CHECKPOINT_FAILED'
  }
}
