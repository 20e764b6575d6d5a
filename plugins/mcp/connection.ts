// One MCP server: its transport, the SDK client over it, its state as the UI shows it, its
// stderr, its tools, and the restart of a stdio server that crashed (with backoff). Calls in
// flight when the connection ends fail at once, with the reason the transport knows.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { McpServerSpec } from './config'

type SdkRuntime = typeof import('./sdk-runtime')
let runtime: Promise<SdkRuntime> | undefined
/** Set once the SDK is loaded: a transport or an SDK error can only exist after that. */
let loaded: SdkRuntime | undefined
const loadRuntime = (): Promise<SdkRuntime> => (runtime ??= import('./sdk-runtime').then((module) => (loaded = module)))

function isProcessTransport(transport: Transport | undefined): transport is InstanceType<SdkRuntime['ProcessTransport']> {
  return loaded !== undefined && transport instanceof loaded.ProcessTransport
}

/** An McpError with this code (ErrorCode.ConnectionClosed, RequestTimeout). */
function isMcpError(error: unknown, code: (sdk: SdkRuntime) => number): boolean {
  return loaded !== undefined && error instanceof loaded.McpError && error.code === code(loaded)
}

export type McpServerState = 'stopped' | 'starting' | 'connected' | 'failed' | 'disabled' | 'untrusted'

/** A tool as the server listed it (validated loosely here; each tool is checked on its own later). */
export interface ListedTool {
  name: string
  description: string
  inputSchema: unknown
  annotations?: Record<string, unknown>
}

export interface ConnectionOptions {
  clientName: string
  clientVersion: string
  /** Where stdio servers run when their declaration names no cwd: the workspace. */
  cwd: string
  /**
   * The environment a stdio server of this name starts with, before its declaration's own `env`:
   * Seam's, without the provider keys (the host's one child-environment policy).
   */
  childEnv(serverName: string): Record<string, string>
  startupTimeoutMs: number
  maxMessageBytes: number
  /** Backoff of crash restarts: delay before attempt n is base * 2^(n-1); after `max` attempts it stays failed. */
  restart: { baseDelayMs: number; max: number }
  stderrLines: number
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void
  /** State, tools or stderr changed. */
  changed(connection: ServerConnection): void
  /**
   * A notification the client does not handle itself (not a tool list change): an extension's,
   * such as Claude Code's `notifications/claude/channel`. `params` is as the server sent it.
   */
  notification?(connection: ServerConnection, method: string, params: unknown): void
}

const LooseToolList = z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() })
const LooseTool = z.object({ name: z.string(), description: z.string().optional(), inputSchema: z.unknown(), annotations: z.record(z.string(), z.unknown()).optional() })
const ResourceList = z.object({ resources: z.array(z.record(z.string(), z.unknown())), nextCursor: z.string().optional() })
const ResourceRead = z.object({ contents: z.array(z.record(z.string(), z.unknown())) })

export class ServerConnection {
  state: McpServerState = 'stopped'
  reason: string | undefined
  tools: ListedTool[] = []
  /** Tools the server listed that Seam could not use, with why. */
  toolProblems: string[] = []
  readonly stderr: string[] = []
  hasResources = false
  /** The names under the server's `capabilities.experimental` (`claude/channel`, ...), once connected. */
  experimental: string[] = []
  /** The server's `instructions` from its initialize answer, once connected. */
  instructions: string | undefined
  private client: Client | undefined
  private transport: Transport | undefined
  private starting: Promise<void> | undefined
  private restartTimer: ReturnType<typeof setTimeout> | undefined
  private crashes = 0
  /** Bumped by every start and stop, so a late event of an old connection changes nothing. */
  private generation = 0

  constructor(
    readonly spec: McpServerSpec,
    private readonly options: ConnectionOptions
  ) {}

  get name(): string {
    return this.spec.name
  }

  /** Starts the server unless it is connected or starting; resolves when it is connected or failed. */
  ensureStarted(): Promise<void> {
    if (this.state === 'connected' || this.state === 'disabled' || this.state === 'untrusted') return Promise.resolve()
    this.starting ??= this.connect().finally(() => (this.starting = undefined))
    return this.starting
  }

  /** Stops the server (its process ends) and leaves it in `state`. */
  async stop(state: 'stopped' | 'disabled' | 'untrusted' = 'stopped', reason?: string): Promise<void> {
    this.generation++
    clearTimeout(this.restartTimer)
    const transport = this.transport
    const client = this.client
    this.transport = undefined
    this.client = undefined
    this.tools = []
    this.toolProblems = []
    this.experimental = []
    this.instructions = undefined
    this.setState(state, reason)
    await client?.close().catch(() => undefined)
    await transport?.close().catch(() => undefined)
  }

  /** Ends the process without waiting: the app is shutting down. */
  kill(): void {
    this.generation++
    clearTimeout(this.restartTimer)
    if (isProcessTransport(this.transport)) this.transport.kill()
    else void this.transport?.close().catch(() => undefined)
    this.transport = undefined
    this.client = undefined
  }

  async restart(): Promise<void> {
    this.crashes = 0
    await this.stop()
    await this.ensureStarted()
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<CallToolResult> {
    const client = await this.connectedClient()
    const scoped = scopedSignal(signal)
    try {
      return (await client.callTool({ name, arguments: args }, undefined, { signal: scoped.signal, timeout: timeoutMs })) as CallToolResult
    } catch (error) {
      throw this.explain(error, timeoutMs)
    } finally {
      scoped.release()
    }
  }

  async listResources(signal: AbortSignal): Promise<Array<Record<string, unknown>>> {
    const client = await this.connectedClient()
    const resources: Array<Record<string, unknown>> = []
    let cursor: string | undefined
    const scoped = scopedSignal(signal)
    try {
      do {
        const page = await client.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, ResourceList, { signal: scoped.signal }).catch((error) => {
          throw this.explain(error)
        })
        resources.push(...page.resources)
        cursor = page.nextCursor
      } while (cursor)
    } finally {
      scoped.release()
    }
    return resources
  }

  async readResource(uri: string, signal: AbortSignal): Promise<Array<Record<string, unknown>>> {
    const client = await this.connectedClient()
    const scoped = scopedSignal(signal)
    try {
      const read = await client.request({ method: 'resources/read', params: { uri } }, ResourceRead, { signal: scoped.signal }).catch((error) => {
        throw this.explain(error)
      })
      return read.contents
    } finally {
      scoped.release()
    }
  }

  /** Sends a notification to the server (an extension's, such as a channel's permission request); fails when it is not connected. */
  async notify(method: string, params: Record<string, unknown>): Promise<void> {
    if (this.state !== 'connected' || !this.client) throw new Error(`MCP server "${this.name}" is ${this.state}`)
    await this.client.notification({ method, params })
  }

  private async connectedClient(): Promise<Client> {
    if (this.state !== 'connected') await this.ensureStarted()
    if (this.state !== 'connected' || !this.client) throw new Error(`MCP server "${this.name}" is ${this.state}${this.reason ? `: ${this.reason}` : ''}`)
    return this.client
  }

  /** An error in words: a closed connection says why it closed. */
  private explain(error: unknown, timeoutMs?: number): Error {
    if (isMcpError(error, (sdk) => sdk.ErrorCode.ConnectionClosed)) {
      return new Error(`MCP server "${this.name}" closed the connection during the call: ${this.reason ?? 'the connection ended'}`)
    }
    if (isMcpError(error, (sdk) => sdk.ErrorCode.RequestTimeout) && timeoutMs !== undefined) {
      return new Error(`MCP server "${this.name}" did not answer within ${timeoutMs} ms (MCP_TOOL_TIMEOUT)`)
    }
    return error instanceof Error ? error : new Error(String(error))
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation
    clearTimeout(this.restartTimer)
    if (this.spec.error !== undefined) return this.setState('failed', this.spec.error)
    this.setState('starting', undefined)
    let sdk: SdkRuntime
    let transport: Transport
    try {
      sdk = await loadRuntime()
      if (generation !== this.generation) return
      transport = this.createTransport(sdk)
    } catch (error) {
      return this.setState('failed', (error as Error).message)
    }
    const client = new sdk.Client({ name: this.options.clientName, version: this.options.clientVersion }, { capabilities: {} })
    this.transport = transport
    this.client = client
    const timeoutMs = this.spec.startupTimeoutMs ?? this.options.startupTimeoutMs
    try {
      await client.connect(transport, { timeout: timeoutMs })
      if (generation !== this.generation) return
      client.onclose = () => this.connectionEnded(generation)
      client.onerror = (error) => this.options.log('warn', `MCP server "${this.name}": ${error.message}`)
      this.hasResources = client.getServerCapabilities()?.resources !== undefined
      const experimental = client.getServerCapabilities()?.experimental
      this.experimental = experimental && typeof experimental === 'object' ? Object.keys(experimental) : []
      this.instructions = client.getInstructions()
      // Notifications the SDK has no handler for (extensions such as Claude Code's channels) go to the plugin.
      client.fallbackNotificationHandler = async (notification) => {
        if (generation === this.generation) this.options.notification?.(this, notification.method, notification.params)
      }
      if (client.getServerCapabilities()?.tools?.listChanged) {
        client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => void this.refreshTools(generation))
      }
      await this.listTools(client, generation, timeoutMs)
      if (generation !== this.generation) return
      this.crashes = 0
      this.setState('connected', undefined)
      this.options.log('info', `MCP server "${this.name}" connected (${this.tools.length} tools)`)
    } catch (error) {
      if (generation !== this.generation) return
      this.transport = undefined
      this.client = undefined
      const closing = Promise.all([client.close().catch(() => undefined), transport.close().catch(() => undefined)])
      // Unless the server is merely silent (a timeout), the connection ended because the process is
      // going: wait until it is gone, so its own exit (code 7) is the reason, whichever of its exit
      // and Seam's close came first.
      if (!isTimeout(error)) await closing
      if (generation !== this.generation) return
      const reason = this.startFailure(error, timeoutMs, transport)
      this.setState('failed', reason)
      this.options.log('error', `MCP server "${this.name}" failed to start: ${reason}`)
      await closing
    }
  }

  private startFailure(error: unknown, timeoutMs: number, transport: Transport): string {
    const fault = isProcessTransport(transport) ? transport.fault : undefined
    const lastStderr = this.stderr.at(-1)
    const stderrNote = lastStderr ? `; last stderr line: ${lastStderr}` : ''
    if (isTimeout(error)) {
      return `did not answer initialize within ${timeoutMs} ms${fault ? ` (${fault})` : ''}${stderrNote}`
    }
    if (fault !== undefined) return `${fault}${stderrNote}`
    return `${(error as Error).message ?? String(error)}${stderrNote}`
  }

  private createTransport(sdk: SdkRuntime): Transport {
    const spec = this.spec
    if (spec.transport === 'stdio') {
      // The declaration's own `env` (.mcp.json, Codex's env and env_vars, ACP's) applies over it, as Claude Code does.
      const env = { ...this.options.childEnv(spec.name), ...spec.env }
      return new sdk.ProcessTransport({
        command: spec.command as string,
        args: spec.args ?? [],
        env,
        cwd: spec.cwd ?? this.options.cwd,
        maxMessageBytes: this.options.maxMessageBytes,
        onStderr: (line) => this.addStderr(line)
      })
    }
    const url = new URL(spec.url as string)
    const requestInit = { headers: spec.headers ?? {} }
    return spec.transport === 'http' ? new sdk.StreamableHTTPClientTransport(url, { requestInit }) : new sdk.SSEClientTransport(url, { requestInit })
  }

  private async listTools(client: Client, generation: number, timeoutMs: number): Promise<void> {
    const listed: ListedTool[] = []
    const problems: string[] = []
    let cursor: string | undefined
    do {
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LooseToolList, { timeout: timeoutMs })
      page.tools.forEach((raw, index) => {
        const tool = LooseTool.safeParse(raw)
        if (!tool.success) problems.push(`tools/list entry ${index} is not a tool: ${tool.error.issues[0]?.path.join('.') || '(root)'}: ${tool.error.issues[0]?.message}`)
        else listed.push({ name: tool.data.name, description: tool.data.description ?? '', inputSchema: tool.data.inputSchema, annotations: tool.data.annotations })
      })
      cursor = page.nextCursor
    } while (cursor)
    if (generation !== this.generation) return
    const allowed = this.spec.enabledTools
    const blocked = new Set(this.spec.disabledTools ?? [])
    this.tools = listed.filter((tool) => (allowed === undefined || allowed.includes(tool.name)) && !blocked.has(tool.name))
    this.toolProblems = problems
  }

  /** tools/list_changed: list again; the catalog follows. */
  private async refreshTools(generation: number): Promise<void> {
    const client = this.client
    if (!client || generation !== this.generation) return
    try {
      await this.listTools(client, generation, this.spec.startupTimeoutMs ?? this.options.startupTimeoutMs)
      this.options.log('info', `MCP server "${this.name}": tool list changed (${this.tools.length} tools)`)
      this.options.changed(this)
    } catch (error) {
      this.options.log('warn', `MCP server "${this.name}": listing tools after tools/list_changed failed: ${(error as Error).message}`)
    }
  }

  /** The connection ended without Seam closing it: a crash. Stdio servers are restarted with backoff. */
  private connectionEnded(generation: number): void {
    if (generation !== this.generation) return
    const fault = isProcessTransport(this.transport) ? this.transport.fault : undefined
    const lastStderr = this.stderr.at(-1)
    const reason = `${fault ?? 'the connection closed'}${lastStderr ? `; last stderr line: ${lastStderr}` : ''}`
    // The tools stay listed while a restart is pending: a call waits for the new connection.
    this.transport = undefined
    this.client = undefined
    this.options.log('error', `MCP server "${this.name}": ${reason}`)
    const { baseDelayMs, max } = this.options.restart
    if (this.spec.transport !== 'stdio' || this.crashes >= max) {
      this.setState('failed', this.spec.transport === 'stdio' ? `${reason} (gave up after ${max} restarts)` : reason)
      return
    }
    this.crashes++
    const delay = baseDelayMs * 2 ** (this.crashes - 1)
    this.setState('failed', `${reason}; restarting in ${delay} ms (attempt ${this.crashes} of ${max})`)
    this.restartTimer = setTimeout(() => {
      if (generation === this.generation) void this.ensureStarted()
    }, delay)
    this.restartTimer.unref?.()
  }

  private addStderr(line: string): void {
    this.stderr.push(line)
    if (this.stderr.length > this.options.stderrLines) this.stderr.splice(0, this.stderr.length - this.options.stderrLines)
    this.options.log('debug', `MCP server "${this.name}" stderr: ${line}`)
    this.options.changed(this)
  }

  private setState(state: McpServerState, reason: string | undefined): void {
    this.state = state
    this.reason = reason
    this.options.changed(this)
  }
}

function isTimeout(error: unknown): boolean {
  return isMcpError(error, (sdk) => sdk.ErrorCode.RequestTimeout)
}

/**
 * A signal for one request that follows `signal`. The SDK never removes the abort listener it
 * adds to a request's signal, and a turn's signal outlives many calls: each call gets its own.
 */
function scopedSignal(signal: AbortSignal): { signal: AbortSignal; release(): void } {
  const local = new AbortController()
  const forward = (): void => local.abort(signal.reason)
  if (signal.aborted) local.abort(signal.reason)
  else signal.addEventListener('abort', forward, { once: true })
  return { signal: local.signal, release: () => signal.removeEventListener('abort', forward) }
}
