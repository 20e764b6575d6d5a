// `ctx.tools` and `ctx.approval`: the services seen from one plugin. What a plugin registers
// through `ctx.tools` (tools, guards) belongs to that plugin and goes when it is disposed (S3).
import type { ApprovalService, ExecuteOptions, ToolRegisterOptions, ToolRegistry } from '../../src-shared/host/services'
import type { SealedCall, ToolCallRequest, ToolDefinition, ToolExecutionResult } from '../../src-shared/host/tools'
import { defineContextProperty, type Context, type Disposable } from '../../src-shared/kernel'
import type { ModelToolSpec } from '../../src-shared/model'
import { ToolRegistryImpl } from './registry'

declare module '../../src-shared/kernel/context' {
  interface Context {
    /** The tool registry, scoped to this plugin: registrations are undone when it is disposed. */
    readonly tools: ToolRegistry
    /** The approval seam (S11). */
    readonly approval: ApprovalService
  }
}

/** The tool registry as one plugin sees it. */
export class ScopedToolRegistry implements ToolRegistry {
  constructor(
    private readonly ctx: Context,
    readonly registry: ToolRegistry
  ) {}

  register<A>(tool: ToolDefinition<A>, options?: ToolRegisterOptions): Disposable {
    const registry = this.registry
    const remove = registry instanceof ToolRegistryImpl ? registry.registerAs(tool, this.ctx.name, options) : registry.register(tool, options)
    return this.ctx.onDispose(remove)
  }

  guard(guard: (call: SealedCall) => string | undefined | void): Disposable {
    return this.ctx.guard('tools', guard)
  }

  get(name: string, agentId?: string): ToolDefinition<unknown> | undefined {
    return this.registry.get(name, agentId)
  }

  list(): ToolDefinition<unknown>[] {
    return this.registry.list()
  }

  specs(sessionId?: string, agentId?: string): ModelToolSpec[] {
    return this.registry.specs(sessionId, agentId)
  }

  execute(request: ToolCallRequest, options?: ExecuteOptions): Promise<ToolExecutionResult> {
    return this.registry.execute(request, options)
  }
}

const scopedViews = new WeakMap<Context, ScopedToolRegistry>()

function missing(ctx: Context, service: string): Error {
  return new Error(`plugin "${ctx.name}": ctx.${service} is not available because no plugin provides the "${service}" service (declare inject: ['${service}'])`)
}

defineContextProperty('tools', (ctx) => {
  const registry = ctx.kernel.getService('tools')
  if (!registry) throw missing(ctx, 'tools')
  let view = scopedViews.get(ctx)
  if (!view || view.registry !== registry) scopedViews.set(ctx, (view = new ScopedToolRegistry(ctx, registry)))
  return view
})

defineContextProperty('approval', (ctx) => {
  const approval = ctx.kernel.getService('approval')
  if (!approval) throw missing(ctx, 'approval')
  return approval
})
