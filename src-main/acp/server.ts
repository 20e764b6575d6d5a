// The ACP agent: the stable v1 methods on the SDK's agent app, each answering bad input with a
// JSON-RPC error that names the problem. Sessions live in `AcpSession`s (session.ts).
import { isAbsolute } from 'node:path'
import { statSync } from 'node:fs'
import * as acp from '@agentclientprotocol/sdk'
import { RequestError } from '@agentclientprotocol/sdk'
import { z } from 'zod'
import { PROVIDER_PRESETS } from '../llm/presets'
import { providerKeyName, SEAM_VERSION } from '../app/runtime'
import { resolveSeamHome, seamPaths } from '../app/paths'
import { SettingsFile } from '../app/settings'
import { SecretStore } from '../app/secrets'
import { SessionStore } from '../session/store'
import { DEFAULT_KEY_ENV } from '../cli/provider-flags'
import { attachClientMcpServers, checkClientMcpServers, MCP_TRANSPORTS, type ClientMcpServerState } from './mcp-servers'
import { promptContent, PromptContentError, type PromptContent } from './prompt-content'
import { AcpSession, WorktreeOptionSchema, type AcpProcess, type WorktreeOption } from './session'
import { formatZodError } from '../../src-shared/validation'

export const AUTH_METHOD_ID = 'seam-provider-key'

export interface AcpServerOptions extends Omit<AcpProcess, 'client' | 'clientCapabilities'> {
  /** The variable the key was to come from, for messages (`--api-key-env` or the provider's usual one). */
  keyEnv?: string
}

export class AcpServer {
  private readonly sessions = new Map<string, AcpSession>()
  /** Sessions still opening, so a close of the connection can wait for them. */
  private readonly opening = new Set<Promise<unknown>>()
  private capabilities: acp.ClientCapabilities = {}
  private connection: acp.AgentConnection | undefined
  private readonly proc: AcpProcess

  constructor(private readonly options: AcpServerOptions) {
    this.proc = {
      ...options,
      client: () => {
        if (!this.connection) throw new Error('no client is connected')
        return this.connection.client
      },
      clientCapabilities: () => ({
        readTextFile: this.capabilities.fs?.readTextFile === true,
        writeTextFile: this.capabilities.fs?.writeTextFile === true,
        terminal: this.capabilities.terminal === true,
        notices: this.capabilities.session?.notices != null
      })
    }
  }

  /** Ends the connection (a signal to stop): `serve` then closes every session and resolves. */
  stop(): void {
    this.connection?.close()
  }

  /** Serves one client over `stream` until it closes, then closes every session. */
  async serve(stream: acp.Stream): Promise<void> {
    this.connection = this.app().connect(stream)
    await this.connection.closed
    await Promise.allSettled([...this.opening])
    await Promise.allSettled([...this.sessions.values()].map((s) => s.close()))
    this.sessions.clear()
  }

  private app(): acp.AgentApp {
    return acp
      .agent({ name: 'seam' })
      .onRequest('initialize', ({ params }) => this.initialize(params))
      .onRequest('authenticate', ({ params }) => this.authenticate(params))
      .onRequest('session/new', ({ params }) => this.newSession(params))
      .onRequest('session/load', ({ params }) => this.loadSession(params))
      .onRequest('session/list', ({ params }) => this.listSessions(params))
      .onRequest('session/close', async ({ params }) => {
        const session = this.session(params.sessionId)
        this.sessions.delete(session.id)
        await session.close()
        return {}
      })
      .onRequest('session/prompt', async ({ params }) => {
        const session = this.session(params.sessionId)
        let content: PromptContent
        try {
          content = promptContent(params.prompt)
        } catch (error) {
          if (error instanceof PromptContentError) throw RequestError.invalidParams(undefined, error.message)
          throw error
        }
        return { stopReason: await session.prompt(content.text, content.images) }
      })
      .onNotification('session/cancel', async ({ params }) => {
        const session = this.sessions.get(params.sessionId)
        if (!session) return this.options.log(`session/cancel: no session "${params.sessionId}" is open on this connection`)
        await session.cancel()
      })
      .onRequest('session/set_mode', async ({ params }) => {
        await this.session(params.sessionId).setMode(params.modeId)
        return {}
      })
      .onRequest('session/set_config_option', async ({ params }) => ({
        configOptions: await this.session(params.sessionId).setConfigOption(params.configId, params.value)
      }))
      .onRequest('*', ({ method, params }) => {
        // A cancel sent as a request (it is a notification) still gets an answer naming the session.
        if (method === 'session/cancel') return this.cancelAsRequest(params)
        throw RequestError.methodNotFound(method)
      })
  }

  private async initialize(params: acp.InitializeRequest): Promise<acp.InitializeResponse> {
    if (!Number.isInteger(params.protocolVersion) || params.protocolVersion < 1) {
      throw RequestError.unsupportedProtocolVersion(params.protocolVersion, [acp.PROTOCOL_VERSION])
    }
    this.capabilities = params.clientCapabilities ?? {}
    const missingKey = await this.keyProblem()
    return {
      // The client's version when it is one Seam speaks, else the latest Seam speaks.
      protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { ...MCP_TRANSPORTS },
        sessionCapabilities: { list: {}, close: {} }
      },
      authMethods: missingKey ? [{ id: AUTH_METHOD_ID, name: 'Provider API key', description: missingKey }] : [],
      agentInfo: { name: 'seam', title: 'Seam', version: SEAM_VERSION }
    }
  }

  private async authenticate(params: acp.AuthenticateRequest): Promise<acp.AuthenticateResponse> {
    if (params.methodId !== AUTH_METHOD_ID) throw RequestError.invalidParams({ methodId: params.methodId }, `methodId: unknown method "${params.methodId}"; Seam offers "${AUTH_METHOD_ID}"`)
    const problem = await this.providerProblem()
    if (problem) throw RequestError.authRequired(undefined, problem)
    return {}
  }

  /** Why no model request could be made, or undefined when the provider is ready. */
  private async providerProblem(): Promise<string | undefined> {
    const paths = seamPaths(resolveSeamHome(this.options.env))
    const settings = new SettingsFile(paths.settings).value
    const config = this.options.provider ?? settings.provider
    if (!config) {
      return 'no model provider is configured: add --provider KIND (with --model and --base-url where needed) to the agent server command, or choose a provider in the Seam app'
    }
    return this.keyProblem()
  }

  private async keyProblem(): Promise<string | undefined> {
    const paths = seamPaths(resolveSeamHome(this.options.env))
    if (this.options.provider) {
      if (!PROVIDER_PRESETS[this.options.provider.provider].needsApiKey || this.options.provider.apiKey) return undefined
      const variable = this.options.keyEnv ?? DEFAULT_KEY_ENV[this.options.provider.provider] ?? 'the key variable'
      return `no API key for ${this.options.provider.provider}: set ${variable} in the agent server's environment (in Zed, "env" of its agent_servers entry), or name another variable with --api-key-env`
    }
    const stored = new SettingsFile(paths.settings).value.provider
    if (!stored || !PROVIDER_PRESETS[stored.provider].needsApiKey) return undefined
    const key = await new SecretStore(paths.secrets).lookup(providerKeyName(stored.provider))
    if (key.state === 'stored') return undefined
    const why = key.state === 'unreadable' ? `the stored key cannot be read: ${key.reason}` : `no API key for ${stored.provider} in the Seam home (${paths.home})`
    return `${why}; save one in the Seam app's Settings, or start seam acp with --provider ${stored.provider} and ${DEFAULT_KEY_ENV[stored.provider] ?? 'its key variable'} set`
  }

  private async checkReady(): Promise<void> {
    const problem = await this.providerProblem()
    if (problem) throw RequestError.authRequired(undefined, problem)
  }

  private async newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    const cwd = checkCwd(params.cwd)
    checkClientMcpServers(params.mcpServers)
    const worktree = worktreeOption(params._meta)
    await this.checkReady()
    const session = await this.track(AcpSession.open(this.proc, cwd, undefined, worktree))
    const mcp = await this.attach(session, params.mcpServers)
    this.sessions.set(session.id, session)
    session.follow(false)
    // The editor learns the session's id from this answer: the command list follows it.
    setImmediate(() => session.announceCommands())
    return { sessionId: session.id, modes: session.modes(), configOptions: session.configOptions(), ...mcpMeta(mcp) }
  }

  private async loadSession(params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> {
    const cwd = checkCwd(params.cwd)
    checkClientMcpServers(params.mcpServers)
    if (this.sessions.has(params.sessionId)) {
      throw RequestError.invalidRequest({ sessionId: params.sessionId }, `session ${params.sessionId} is already open on this connection`)
    }
    const store = SessionStore.inSeamHome(seamPaths(resolveSeamHome(this.options.env)).home)
    let summary
    try {
      store.pathOf(params.sessionId)
      summary = (await store.list()).find((s) => s.id === params.sessionId)
    } catch (error) {
      throw RequestError.invalidParams({ sessionId: params.sessionId }, `sessionId: ${(error as Error).message}`)
    }
    if (!summary) throw new RequestError(-32002, `no stored session "${params.sessionId}" in the Seam home`, { sessionId: params.sessionId })
    if (summary.error) throw RequestError.internalError({ sessionId: params.sessionId }, `session ${params.sessionId} cannot be opened: ${summary.error}`)
    // A worktree session is loaded from its worktree or from the repository it was made from.
    if (summary.workspace !== cwd && summary.worktree?.repo !== cwd) {
      throw RequestError.invalidParams({ sessionId: params.sessionId, cwd }, `cwd: session ${params.sessionId} belongs to the workspace ${summary.workspace}, not ${cwd}`)
    }
    await this.checkReady()
    const session = await this.track(AcpSession.open(this.proc, summary.workspace, params.sessionId))
    const mcp = await this.attach(session, params.mcpServers)
    this.sessions.set(session.id, session)
    session.follow(true)
    session.announceCommands()
    await session.flush()
    return { modes: session.modes(), configOptions: session.configOptions(), ...mcpMeta(mcp) }
  }

  private async listSessions(params: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse> {
    const cwd = params.cwd == null ? undefined : checkCwd(params.cwd)
    const store = SessionStore.inSeamHome(seamPaths(resolveSeamHome(this.options.env)).home)
    const sessions = (await store.list()).filter((s) => !s.error && (cwd === undefined || s.workspace === cwd))
    return {
      sessions: sessions.map((s) => ({ sessionId: s.id, cwd: s.workspace, title: s.title || null, updatedAt: new Date(s.lastActivity).toISOString() }))
    }
  }

  private async cancelAsRequest(params: unknown): Promise<Record<string, never>> {
    const parsed = z.object({ sessionId: z.string() }).safeParse(params)
    if (!parsed.success) throw RequestError.invalidParams(undefined, 'sessionId: required (a string)')
    await this.session(parsed.data.sessionId).cancel()
    return {}
  }

  private session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId)
    if (!session) {
      throw new RequestError(-32002, `no session "${sessionId}" is open on this connection (create it with session/new or session/load)`, { sessionId })
    }
    return session
  }

  /** Starts the editor's MCP servers; a session that cannot take them is closed, not left open. */
  private async attach(session: AcpSession, servers: readonly acp.McpServer[]): Promise<ClientMcpServerState[]> {
    try {
      return await this.track(attachClientMcpServers(session, servers))
    } catch (error) {
      await session.close().catch(() => undefined)
      throw error
    }
  }

  private track<T>(opening: Promise<T>): Promise<T> {
    this.opening.add(opening)
    const done = () => this.opening.delete(opening)
    opening.then(done, done)
    return opening
  }
}

/** The editor's MCP servers as started (`_meta.seam.mcpServers`), when it passed any. */
function mcpMeta(servers: ClientMcpServerState[]): { _meta?: { seam: { mcpServers: ClientMcpServerState[] } } } {
  return servers.length === 0 ? {} : { _meta: { seam: { mcpServers: servers } } }
}

/** ACP's `cwd`: an absolute path of an existing folder. */
function checkCwd(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, `cwd: must be an absolute path (got "${cwd}")`)
  let isDir = false
  try {
    isDir = statSync(cwd).isDirectory()
  } catch {
    throw RequestError.invalidParams({ cwd }, `cwd: the folder "${cwd}" does not exist`)
  }
  if (!isDir) throw RequestError.invalidParams({ cwd }, `cwd: "${cwd}" is not a folder`)
  return cwd
}

/** `_meta.seam.worktree` of session/new (`true` or `{name?, base?}`): the session runs in a new git worktree. */
function worktreeOption(meta: unknown): WorktreeOption | undefined {
  const seam = (meta as { seam?: { worktree?: unknown } } | null | undefined)?.seam
  if (seam?.worktree === undefined || seam.worktree === false) return undefined
  if (seam.worktree === true) return {}
  const parsed = WorktreeOptionSchema.safeParse(seam.worktree)
  if (!parsed.success) throw RequestError.invalidParams({ worktree: seam.worktree }, formatZodError('_meta.seam.worktree', parsed.error))
  return parsed.data
}
