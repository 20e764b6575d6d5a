// The tool registry: which tools exist, what the model sees of them, and the entry point of the
// pipeline. Registration is checked up front so a broken tool fails at load, naming the field.
import type { ExecuteOptions, ToolRegisterOptions, ToolRegistry } from '../../src-shared/host/services'
import type { SealedCall, ToolCallRequest, ToolDefinition, ToolExecutionResult } from '../../src-shared/host/tools'
import type { Context, Disposable, Kernel } from '../../src-shared/kernel'
import type { ModelToolSpec } from '../../src-shared/model'
import { modelToolSpec } from './json-schema'
import { describeValue } from './normalize'
import { ToolPipeline } from './pipeline'

type AnyTool = ToolDefinition<unknown>

interface Registration {
  tool: AnyTool
  spec: ModelToolSpec
  /** The plugin that registered it, for the duplicate-name message. */
  owner: string
}

/** Provider-safe tool names (OpenAI and Anthropic both accept this set). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

export class ToolRegistryImpl implements ToolRegistry {
  private readonly tools = new Map<string, Registration>()
  /** A tool's other names (`Task` for `Agent`) -> its name. */
  private readonly aliases = new Map<string, string>()
  /** Tools of one running subagent (ToolRegisterOptions.agentId), by agent id then name. */
  private readonly agentTools = new Map<string, Map<string, Registration>>()
  private specCache: ModelToolSpec[] | undefined
  private readonly pipeline: ToolPipeline

  /**
   * `owner` is the context unscoped registrations and guards belong to (the tools plugin's).
   * `abandonAfterCancelMs`: after a caller's cancel, how long a call may take to stop before it is abandoned.
   */
  constructor(
    readonly kernel: Kernel,
    private readonly owner: Context = kernel.context,
    options: { abandonAfterCancelMs?: number } = {}
  ) {
    this.pipeline = new ToolPipeline(
      kernel,
      (name, agentId) => this.get(name, agentId),
      () => [...this.tools.keys()].filter((name) => this.withheld(name) === undefined),
      options.abandonAfterCancelMs,
      (name, sessionId) => this.withheld(this.aliases.get(name) ?? name, sessionId)
    )
  }

  register<A>(tool: ToolDefinition<A>, options?: ToolRegisterOptions): Disposable {
    return this.registerAs(tool, this.owner.name, options)
  }

  /** Registers on behalf of the plugin named `owner` (ctx.tools passes the calling plugin). */
  registerAs<A>(tool: ToolDefinition<A>, owner: string, options?: ToolRegisterOptions): Disposable {
    const checked = checkDefinition(tool, owner)
    if (options?.agentId !== undefined) return this.registerForAgent(checked, owner, options.agentId)
    for (const name of [checked.name, ...(checked.aliases ?? [])]) {
      const existing = this.tools.get(name) ?? this.tools.get(this.aliases.get(name) ?? '')
      if (existing) {
        const taken = name === checked.name ? 'that name' : `its alias "${name}"`
        throw new Error(`plugin "${owner}" cannot register tool "${checked.name}": ${taken} is already registered by plugin "${existing.owner}"`)
      }
    }
    const registration: Registration = { tool: checked, spec: modelToolSpec(checked.name, checked.description, checked.inputSchema, checked.modelInputSchema), owner }
    this.tools.set(checked.name, registration)
    for (const alias of checked.aliases ?? []) this.aliases.set(alias, checked.name)
    this.specCache = undefined
    return () => {
      if (this.tools.get(checked.name) !== registration) return
      this.tools.delete(checked.name)
      for (const alias of checked.aliases ?? []) if (this.aliases.get(alias) === checked.name) this.aliases.delete(alias)
      this.specCache = undefined
    }
  }

  /** One subagent's own tool: its names clash only with that agent's other tools. */
  private registerForAgent(checked: AnyTool, owner: string, agentId: string): Disposable {
    let own = this.agentTools.get(agentId)
    if (!own) this.agentTools.set(agentId, (own = new Map()))
    const existing = own.get(checked.name)
    if (existing) throw new Error(`plugin "${owner}" cannot register tool "${checked.name}" for subagent ${agentId}: that name is already registered for it by plugin "${existing.owner}"`)
    const registration: Registration = { tool: checked, spec: modelToolSpec(checked.name, checked.description, checked.inputSchema, checked.modelInputSchema), owner }
    own.set(checked.name, registration)
    return () => {
      if (own.get(checked.name) !== registration) return
      own.delete(checked.name)
      if (own.size === 0 && this.agentTools.get(agentId) === own) this.agentTools.delete(agentId)
    }
  }

  /** The tool registered as `name`, or under it as an alias; for `agentId`, that subagent's own tool first. */
  get(name: string, agentId?: string): AnyTool | undefined {
    const own = agentId === undefined ? undefined : this.agentTools.get(agentId)?.get(name)
    if (own) return own.tool
    return (this.tools.get(name) ?? this.tools.get(this.aliases.get(name) ?? ''))?.tool
  }

  /** Each registered tool's name and the plugin that registered it (the settings page's plugin tree). */
  owners(): Array<{ name: string; owner: string }> {
    return [...this.tools.entries()].map(([name, registration]) => ({ name, owner: registration.owner }))
  }

  list(): AnyTool[] {
    return [...this.tools.values()].map((r) => r.tool)
  }

  specs(sessionId?: string, agentId?: string): ModelToolSpec[] {
    this.specCache ??= [...this.tools.values()].map((r) => r.spec)
    // Read per request: what a `tools/offer` guard withholds can change while Seam runs (settings
    // edits) and differ between sessions (their providers).
    const offered = this.specCache.filter((spec) => this.withheld(spec.name, sessionId) === undefined)
    const own = agentId === undefined ? undefined : this.agentTools.get(agentId)
    if (!own) return offered
    // The agent's own tool takes the place of a shared one of the same name.
    const owned = [...own.values()].map((r) => r.spec).filter((spec) => this.withheld(spec.name, sessionId) === undefined)
    return [...offered.filter((spec) => !own.has(spec.name)), ...owned]
  }

  /** Why `name` is not offered to the model (of `sessionId`'s requests: a `tools/offer` guard's reason), or undefined. */
  private withheld(name: string, sessionId?: string): string | undefined {
    return sessionId === undefined ? this.kernel.checkGuards('tools/offer', name) : this.kernel.checkGuards('tools/offer', name, sessionId)
  }

  execute(request: ToolCallRequest, options?: ExecuteOptions): Promise<ToolExecutionResult> {
    return this.pipeline.execute(request, options)
  }

  /** S12: deny-only; owned by the tools plugin. Plugins use ctx.tools.guard to own theirs. */
  guard(guard: (call: SealedCall) => string | undefined | void): Disposable {
    return this.owner.guard('tools', guard)
  }
}

/** Misconfiguration fails at load, naming the plugin, the tool and the field. */
function checkDefinition<A>(tool: ToolDefinition<A>, owner: string): AnyTool {
  const where = `plugin "${owner}" registered an invalid tool`
  if (tool === null || typeof tool !== 'object') throw new Error(`${where}: expected a ToolDefinition object, got ${describeValue(tool)}`)
  const named = `${where} ${typeof tool.name === 'string' ? JSON.stringify(tool.name) : ''}`.trimEnd()
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    throw new Error(`${where}: name: expected 1-64 characters from [A-Za-z0-9_-], got ${describeValue(tool.name)}`)
  }
  if (typeof tool.description !== 'string') throw new Error(`${named}: description: expected a string, got ${describeValue(tool.description)}`)
  if (tool.inputSchema === null || typeof tool.inputSchema !== 'object' || typeof (tool.inputSchema as { safeParse?: unknown }).safeParse !== 'function') {
    throw new Error(`${named}: inputSchema: expected a zod schema, got ${describeValue(tool.inputSchema)}`)
  }
  if (tool.modelInputSchema !== undefined && (tool.modelInputSchema === null || typeof tool.modelInputSchema !== 'object' || Array.isArray(tool.modelInputSchema))) {
    throw new Error(`${named}: modelInputSchema: expected a JSON Schema object, got ${describeValue(tool.modelInputSchema)}`)
  }
  if (typeof tool.execute !== 'function') throw new Error(`${named}: execute: expected a function, got ${describeValue(tool.execute)}`)
  if (tool.timeoutMs !== undefined && !(typeof tool.timeoutMs === 'number' && tool.timeoutMs > 0 && Number.isFinite(tool.timeoutMs))) {
    throw new Error(`${named}: timeoutMs: expected a positive number of milliseconds, got ${describeValue(tool.timeoutMs)}`)
  }
  if (tool.aliases !== undefined && !(Array.isArray(tool.aliases) && tool.aliases.every((alias) => typeof alias === 'string' && TOOL_NAME.test(alias) && alias !== tool.name))) {
    throw new Error(`${named}: aliases: expected tool names other than its own, got ${describeValue(tool.aliases)}`)
  }
  for (const flag of ['concurrent', 'sideEffects'] as const) {
    if (tool[flag] !== undefined && typeof tool[flag] !== 'boolean') throw new Error(`${named}: ${flag}: expected a boolean, got ${describeValue(tool[flag])}`)
  }
  return tool as unknown as AnyTool
}
