// The part of Seam's plugin API this bundle uses, written out here instead of imported: a bundle
// is built on its own and must not reach into Seam's source tree. Types only; nothing here exists
// at run time. The host part receives a kernel Context, the client part a ClientContext
// (`@seam/client`); these interfaces are the subset of each that the example touches.
import type { ReactNode } from 'react'
import type { z } from 'zod'

export type Disposer = () => void

// ---- host ----------------------------------------------------------------------------------

export interface ToolOutput {
  content: string
  isError?: boolean
  structured?: unknown
}

export interface ToolExec {
  readonly signal: AbortSignal
  /** The session's working directory (the workspace). */
  readonly cwd: string
}

export interface ToolDefinition<A> {
  readonly name: string
  readonly description: string
  readonly inputSchema: z.ZodType<A>
  execute(args: A, exec: ToolExec): ToolOutput | Promise<ToolOutput>
  readonly concurrent?: boolean
  readonly sideEffects?: boolean
}

export interface RpcService {
  /** Registers `method` under this plugin's name; clients call it as `rpc(method, input)`. */
  register(ctx: HostContext, method: string, handler: (input: unknown) => unknown): Disposer
}

export interface HostContext {
  readonly name: string
  /** The tool registry scoped to this plugin: its tools go when the plugin is disposed. */
  readonly tools: { register<A>(tool: ToolDefinition<A>): Disposer }
  get(service: 'rpc'): RpcService
  readonly logger: { info(message: string): void }
}

export interface HostPlugin {
  readonly name: string
  readonly inject: readonly string[]
  apply(ctx: HostContext): void
}

// ---- client --------------------------------------------------------------------------------

export interface ToolResultProps {
  call: { name: string; callId: string; args: Record<string, unknown> }
  result: { content: string; isError: boolean; code?: string; structured?: unknown; durationMs: number }
}

export interface ClientContext {
  readonly plugin: string
  readonly slots: {
    sidebarPanel(panel: { id: string; title: string; render: () => ReactNode }): Disposer
    toolResultRenderer(toolName: string, render: (props: ToolResultProps) => ReactNode): Disposer
  }
  rpc<T = unknown>(method: string, input?: unknown): Promise<T>
  onSessionEvent(listener: (event: { type: string }, sessionId: string) => void): Disposer
}
