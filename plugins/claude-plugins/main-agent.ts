// A plugin's `settings.json` `agent` (claude-code-extensions.md §1(c)): while the plugin is on, the
// main thread runs as that agent. Seam applies the agent's prompt (a system prompt section, with
// the plugin's variables written in) and its tools (`tools` offers only those, `disallowedTools`
// withholds those, through a `tools/offer` guard) and its `model` (each main-thread turn runs on
// it, as a skill's model does for its turn; `inherit` keeps the session's). The agent is found
// through the subagents plugin's `subagents` service, so `reviewer` and `plugin:reviewer` name the
// same definition.
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import type { AgentHandle, Context, Disposable, InstalledPlugin, SubagentType } from '@seam/sdk'
import { parseFrontMatter } from '@seam/sdk/node'

export const MAIN_AGENT_SECTION = 'claude-plugin-main-agent'

export interface MainAgent {
  plugin: string
  agent: SubagentType
  prompt: string
  /** Its front matter's `model` (an id or alias), unless absent or `inherit`. */
  model?: string
}

/** What Seam reads of the agent file here: the rest of its front matter is the subagents plugin's. */
const AgentFrontSchema = z.object({ model: z.string().trim().min(1).optional() }).passthrough()

/** The agent the enabled plugins' settings.json name (the first; a second is reported), with its prompt read from its file. */
export function resolveMainAgent(plugins: readonly InstalledPlugin[], types: readonly SubagentType[]): { agent?: MainAgent; problems: string[] } {
  const problems: string[] = []
  const wanting = plugins.filter((plugin) => plugin.settingsAgent !== undefined)
  if (wanting.length > 1) problems.push(`plugins ${wanting.map((p) => p.name).join(', ')} each name a main-thread agent in settings.json; ${wanting[0].name}'s (${wanting[0].settingsAgent}) is used`)
  const plugin = wanting[0]
  if (plugin === undefined) return { problems }
  const wanted = plugin.settingsAgent as string
  const agent = types.find((t) => t.name === wanted) ?? types.find((t) => t.name === `${plugin.name}:${wanted}`)
  if (agent === undefined) {
    problems.push(`${plugin.root}/settings.json: agent: no agent "${wanted}" (agents: ${types.map((t) => t.name).join(', ') || 'none'}); the main thread runs as usual`)
    return { problems }
  }
  let prompt = ''
  let model: string | undefined
  if (agent.file !== undefined) {
    let text: string
    try {
      text = readFileSync(agent.file, 'utf8')
    } catch (error) {
      problems.push(`${agent.file}: cannot be read: ${(error as Error).message}; the main thread runs as usual`)
      return { problems }
    }
    const parsed = parseFrontMatter(text, AgentFrontSchema)
    if ('message' in parsed) {
      problems.push(`${agent.file}: ${parsed.field !== undefined ? `${parsed.field}: ` : ''}${parsed.message}; the main thread runs as usual`)
      return { problems }
    }
    prompt = parsed.body.trim()
    if (parsed.front.model !== undefined && parsed.front.model !== 'inherit') model = parsed.front.model
  }
  const vars: Record<string, string> = { CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir }
  for (const [key, value] of Object.entries(plugin.userConfig ?? {})) vars[`user_config.${key}`] = value
  prompt = prompt.replace(/\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|user_config\.[A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => vars[name] ?? all)
  return { agent: { plugin: plugin.name, agent, prompt, ...(model !== undefined ? { model } : {}) }, problems }
}

/** Why `tool` is not offered while the main thread runs as `agent`, or undefined. */
export function withheldBy(agent: SubagentType, tool: string): string | undefined {
  const names = (list: readonly string[] | undefined) => (list ?? []).map((entry) => entry.replace(/\(.*$/, '').trim())
  if (names(agent.disallowedTools).includes(tool)) return `the main thread runs as agent ${agent.name}, whose disallowedTools hold ${tool}`
  if (agent.tools !== undefined && !names(agent.tools).includes('*') && !names(agent.tools).includes(tool)) return `the main thread runs as agent ${agent.name}, whose tools do not include ${tool}`
  return undefined
}

/** Keeps the prompt section and the tool guard in step with the agent in force; returns what to tell the session. */
export class MainAgentSlot {
  private current: { key: string; main: MainAgent; dispose: Disposable } | undefined

  constructor(private readonly ctx: Context) {}

  apply(plugins: readonly InstalledPlugin[], workspace: string): string[] {
    const subagents = this.ctx.maybe('subagents')
    const wanting = plugins.some((plugin) => plugin.settingsAgent !== undefined)
    if (!wanting) {
      this.set(undefined)
      return []
    }
    if (subagents === undefined) {
      this.set(undefined)
      return ['a plugin names a main-thread agent in settings.json, but the subagents plugin is off: the main thread runs as usual']
    }
    const resolved = resolveMainAgent(plugins, subagents.types(workspace))
    this.set(resolved.agent)
    return resolved.problems
  }

  private set(main: MainAgent | undefined): void {
    const key = main ? JSON.stringify([main.agent.name, main.prompt, main.agent.tools, main.agent.disallowedTools, main.model]) : ''
    if (this.current?.key === key) return
    this.current?.dispose()
    this.current = undefined
    if (main === undefined) return
    const agent = main.agent
    const section = this.ctx.prompt.section(MAIN_AGENT_SECTION, `# Agent: ${agent.name}\n\nYou are running as the agent "${agent.name}" (from the ${main.plugin} plugin's settings).\n\n${main.prompt}`)
    const guard = this.ctx.guard('tools/offer', (name) => withheldBy(agent, name))
    this.current = { key, main, dispose: () => (section(), guard()) }
  }

  /** A main-thread turn starts: it runs on the agent's model (a command's or skill's own `model` still wins for its turn). */
  useModel(agent: AgentHandle): void {
    const main = this.current?.main
    if (main?.model === undefined || agent.subagent !== undefined) return
    agent.useForTurn({ model: main.model, by: `The ${main.plugin} plugin's main-thread agent ${main.agent.name}` })
  }
}
