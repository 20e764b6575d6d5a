// Background subagents (claude-code-extensions.md 1(a) "Background by default"): the Agent call
// returns at once with Claude Code's `async_launched` result (the agent's id and output file) and
// the child turn runs on. It is a background task (`local_agent`) of the background-tasks plugin,
// so `/tasks`, the tasks panel, TaskOutput and TaskStop reach it. When it ends, its final text goes
// to the output file and the parent is told with a `<task-notification>`: at the running turn's
// next step, or, when the session is idle, in a turn of its own (`AgentHandle.deliver`), as Claude
// Code does. A stopped agent is told quietly: with the next step or prompt, never a turn of its own.
// Closing the session, or cancelling the turn that started it, stops it.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { AgentHandle, Context, SubagentRunResult } from '@seam/sdk'
import { writeFileAtomic } from '@seam/sdk/node'

export interface Launched {
  agentId: string
  outputFile: string
}

interface Running {
  agentId: string
  description: string
  outputFile: string
  controller: AbortController
}

/** The session's folder for its agents' output files: `<sessions>/<id>.agents/`, beside the child logs. */
export function agentsFolder(session: AgentHandle): string {
  return session.transcriptPath.replace(/\.jsonl$/, '') + '.agents'
}

/** Claude Code's text for an async launch (what the model reads). */
export function launchedText(agentId: string, outputFile: string): string {
  return [
    'Async agent launched successfully.',
    `agentId: ${agentId} (internal ID - do not mention to user.)`,
    'The agent is working in the background. You will be notified automatically when it completes.',
    "Do not duplicate this agent's work: work on something else, or briefly tell the user what you launched and end your response.",
    `output_file: ${outputFile}`,
    'If asked, you can check progress before completion by using Read on the output file.'
  ].join('\n')
}

/** How a background agent ended, in Claude Code's task statuses. */
export function endStatus(result: SubagentRunResult | { error: string }): 'completed' | 'failed' | 'killed' {
  if ('error' in result) return 'failed'
  if (result.stopped === true) return 'killed'
  return result.isError ? 'failed' : 'completed'
}

export function completionNotice(agentId: string, description: string, outputFile: string, result: SubagentRunResult | { error: string }): string {
  const status = endStatus(result)
  const how = status === 'killed' ? 'was stopped' : status
  const lines = ['<task-notification>', `<task-id>${agentId}</task-id>`, `<output-file>${outputFile}</output-file>`, `<status>${status}</status>`, `<summary>Agent "${description}" ${how}</summary>`]
  if ('error' in result) lines.push(`<result>${result.error}</result>`)
  else {
    lines.push(`<result>${result.text}</result>`)
    lines.push(`<usage>total_tokens: ${result.usage.inputTokens + result.usage.outputTokens}\ntool_uses: ${result.toolUseCount}\nduration_ms: ${Math.round(result.durationMs)}</usage>`)
  }
  lines.push('</task-notification>')
  return lines.join('\n')
}

/** Background agents of the host's sessions, and the quiet notices (of stopped agents) their parents have not had yet. */
export class BackgroundAgents {
  private readonly sessions = new Map<string, AgentHandle>()
  private readonly running = new Map<string, Set<Running>>()
  private readonly quiet = new Map<string, string[]>()

  constructor(private readonly ctx: Context) {
    const see = (agent: AgentHandle): void => {
      if (!agent.subagent) this.sessions.set(agent.sessionId, agent)
    }
    ctx.on('agent/session-start', see)
    ctx.on('agent/tool-batch', async (agent, _results, next) => {
      const decision = await next()
      if (agent.subagent || decision.action !== 'continue') return decision
      const notices = this.take(agent.sessionId)
      return notices.length === 0 ? decision : { ...decision, additionalContext: [...(decision.additionalContext ?? []), ...notices] }
    })
    ctx.on('agent/prompt-submit', async (agent, _content, _source, next) => {
      see(agent)
      const decision = await next()
      if (agent.subagent || decision.action !== 'allow') return decision
      const notices = this.take(agent.sessionId)
      return notices.length === 0 ? decision : { ...decision, additionalContext: [...(decision.additionalContext ?? []), ...notices] }
    })
    ctx.on('agent/turn-end', (agent, _turnId, reason) => {
      if (!agent.subagent && reason === 'cancelled') this.stopAll(agent.sessionId, 'the turn that started it was cancelled')
    })
    ctx.on('agent/session-end', (agent) => {
      if (agent.subagent) return
      // Forgotten first: an agent that ends while stopping has no one left to tell.
      this.sessions.delete(agent.sessionId)
      this.quiet.delete(agent.sessionId)
      this.stopAll(agent.sessionId, 'its session ended')
    })
    ctx.onDispose(() => {
      for (const sessionId of this.running.keys()) this.stopAll(sessionId, 'Seam is stopping')
    })
  }

  /** Background agents running in a session (for a listing). */
  list(sessionId: string): ReadonlyArray<{ agentId: string; description: string; outputFile: string }> {
    return [...(this.running.get(sessionId) ?? [])].map(({ agentId, description, outputFile }) => ({ agentId, description, outputFile }))
  }

  /**
   * Starts `run` (with its own cancel signal) and returns at once. The output file exists (empty)
   * from the start; the final text replaces it atomically when the agent ends. With the
   * background-tasks plugin it is listed as a task of the session.
   */
  launch(sessionId: string, agent: { agentId: string; agentType: string; description: string }, run: (signal: AbortSignal, outputFile: string) => Promise<SubagentRunResult>): Launched {
    const { agentId, description } = agent
    const session = this.sessions.get(sessionId)
    if (!session) throw new Error(`no running session ${sessionId} to start a background agent in`)
    const folder = agentsFolder(session)
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    const outputFile = path.join(folder, `${agentId}.output`)
    writeFileSync(outputFile, '', { mode: 0o600 })
    const entry: Running = { agentId, description, outputFile, controller: new AbortController() }
    let set = this.running.get(sessionId)
    if (!set) this.running.set(sessionId, (set = new Set()))
    set.add(entry)
    let taskSink: { end(outcome: { status: 'completed' | 'failed' | 'killed'; result: string }): void } | undefined
    this.ctx.maybe('backgroundTasks')?.adoptAgent({
      sessionId,
      agentId,
      agentType: agent.agentType,
      description,
      outputPath: outputFile,
      running: {
        stop: () => entry.controller.abort(new Error(`background agent ${agentId} stopped`)),
        attach: (sink) => (taskSink = sink)
      }
    })
    const finish = (result: SubagentRunResult | { error: string }): void => {
      set.delete(entry)
      if (set.size === 0) this.running.delete(sessionId)
      const text = 'error' in result ? result.error : result.text
      writeAtomically(outputFile, text)
      // The parent hears of it before the task reads as ended: whoever waits for the task (seam run) then finds the turn it opened.
      const parent = this.sessions.get(sessionId)
      const status = endStatus(result)
      if (parent) {
        const notice = completionNotice(agentId, description, outputFile, result)
        if (status === 'killed') this.quiet.set(sessionId, [...(this.quiet.get(sessionId) ?? []), notice])
        else parent.deliver(notice, 'background-agent')
      }
      taskSink?.end({ status, result: text })
    }
    void run(entry.controller.signal, outputFile).then(finish, (error: unknown) => finish({ error: error instanceof Error ? error.message : String(error) }))
    return { agentId, outputFile }
  }

  private take(sessionId: string): string[] {
    const notices = this.quiet.get(sessionId) ?? []
    this.quiet.delete(sessionId)
    return notices
  }

  private stopAll(sessionId: string, why: string): void {
    for (const entry of this.running.get(sessionId) ?? []) entry.controller.abort(new Error(`background agent ${entry.agentId} stopped: ${why}`))
  }
}

function writeAtomically(file: string, text: string): void {
  try {
    writeFileAtomic(file, text)
  } catch {
    // The session's folder is gone (the session was deleted): nothing to keep.
  }
}
