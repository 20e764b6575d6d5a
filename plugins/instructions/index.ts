// @seam/instructions: reads the project's instructions files (Claude Code's CLAUDE.md family
// with @path imports, Codex's AGENTS.md), delivers them to the model as a durable
// `instructions/loaded` event before the first request, and again, only what changed, before the
// next prompt when a file was edited, added or removed. After a compaction the history restarts
// from the summary, so everything is delivered again. See README.md.
import { definePlugin } from '@seam/sdk'
import type { AgentHandle, SessionStartSource } from '@seam/sdk'
import '@seam/sdk'
import type { InstructionsFile, InstructionsLoadReason } from '@seam/sdk'
import type { Context } from '@seam/sdk'
import { InstructionsConfigSchema, type InstructionsConfig } from './config'
import { discoverInstructions } from './discover'
import { renderInstructions } from './render'

export { InstructionsConfigSchema, type InstructionsConfig } from './config'
export { discoverInstructions, foldersFromRoot } from './discover'
export { findImports } from './imports'
export { renderInstructions } from './render'

const SOURCE = 'instructions'

/** path -> content the model has now (after the last compaction), rebuilt from the log. */
export function deliveredInstructions(agent: AgentHandle): Map<string, string> {
  const events = agent.events
  let start = 0
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].type === 'compaction') {
      start = i + 1
      break
    }
  }
  const delivered = new Map<string, string>()
  for (let i = start; i < events.length; i++) {
    const event = events[i]
    if (event.type !== 'instructions/loaded') continue
    for (const file of event.files) delivered.set(file.path, file.content)
    for (const path of event.removed ?? []) delivered.delete(path)
  }
  return delivered
}

export default definePlugin({
  name: 'instructions',
  schema: InstructionsConfigSchema,
  apply(ctx, config) {
    ctx.on('agent/session-start', async (agent: AgentHandle, source: SessionStartSource) => {
      // A new session, or one whose history just restarted from a summary, gets everything.
      const fresh = source !== 'resume'
      await deliver(ctx, config, agent, fresh, source === 'compact' ? 'compact' : 'session_start')
    })
    ctx.on('agent/prompt-submit', async (agent, content, source, next) => {
      const decision = await next()
      // Steering joins a running turn; files are looked at again when a prompt opens a turn.
      if (decision.action === 'allow' && source !== 'steering') await deliver(ctx, config, agent, false, 'session_start')
      return decision
    })
  }
})

async function deliver(ctx: Context, config: InstructionsConfig, agent: AgentHandle, fresh: boolean, reason: InstructionsLoadReason): Promise<void> {
  const found = discoverInstructions({ workspace: agent.workspace, config })
  const delivered = fresh ? new Map<string, string>() : deliveredInstructions(agent)
  const changed = !fresh && delivered.size > 0
  const files: InstructionsFile[] = []
  for (const file of found.files) {
    if (delivered.get(file.path) === file.content) continue
    files.push(changed && delivered.has(file.path) ? { ...file, loadReason: 'changed' } : withReason(file, reason))
  }
  const present = new Set(found.files.map((f) => f.path))
  const removed = [...delivered.keys()].filter((path) => !present.has(path))
  for (const warning of found.warnings) {
    if (!warnedBefore(agent, warning)) agent.notify('warn', warning, SOURCE)
  }
  if (files.length === 0 && removed.length === 0) return
  agent.record({
    type: 'instructions/loaded',
    ...(agent.currentTurnId !== undefined ? { turnId: agent.currentTurnId } : {}),
    files,
    ...(removed.length > 0 ? { removed } : {}),
    text: renderInstructions(files, removed, changed)
  })
  const announced = files.filter((f) => f.loadReason !== 'changed')
  if (announced.length > 0) await ctx.parallel('agent/instructions-loaded', agent, announced)
}

/** A file read at start keeps `include` for imports; everything else gets the occasion's reason. */
function withReason(file: InstructionsFile, reason: InstructionsLoadReason): InstructionsFile {
  return file.loadReason === 'include' ? file : { ...file, loadReason: reason }
}

function warnedBefore(agent: AgentHandle, text: string): boolean {
  return agent.events.some((event) => event.type === 'notice' && event.source === SOURCE && event.text === text)
}
