// One plugin LSP server: a child process (through the host's guarded spawn: its own process group,
// killed with the host) speaking LSP over stdio with vscode-languageserver-protocol. Started on the
// first use of a file it serves, restarted after a crash while `restartOnCrash` and `maxRestarts`
// allow, stopped with `shutdown` + `exit` and then its whole process group.
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Diagnostic, InitializeParams, ProtocolConnection, ServerCapabilities } from 'vscode-languageserver-protocol/node.js'
import { loadProtocol, type Protocol } from './protocol'
import { spawnGuarded, SEAM_VERSION, type GuardedProcess } from '@seam/sdk/node'
import type { LspServerStatus, PluginLspServer } from '@seam/sdk'

export interface ServerHost {
  /** The workspace: the server's cwd and (without `workspaceFolder`) its root. */
  workspace: string
  /** The host's environment without provider keys; the server's own `env` goes over it. */
  childEnv(): Record<string, string>
  startupTimeoutMs: number
  shutdownTimeoutMs: number
  maxRestarts: number
  /** The server's state changed (the plugin manager shows it). */
  changed(): void
  log(level: 'info' | 'warn' | 'error', message: string): void
}

export interface PublishedDiagnostics {
  items: readonly Diagnostic[]
  /** Counts publications, so a wait can ask for one newer than what it saw. */
  seq: number
}

interface OpenDocument {
  version: number
  text: string
}

const STDERR_LINES = 20

/** Why a `transport: "socket"` server is not started (README, "Not recorded"). */
export const SOCKET_REFUSAL =
  'transport "socket" is not supported: Claude Code\'s plugins reference lists "socket" beside "stdio" but records no port, address or which side listens, so Seam cannot connect as such a server expects; it was not started (use "stdio")'

export class LanguageServer {
  state: LspServerStatus['state'] = 'idle'
  reason: string | undefined
  restarts = 0
  private connection: ProtocolConnection | undefined
  private group: GuardedProcess | undefined
  private starting: Promise<ProtocolConnection> | undefined
  private stopping = false
  private stderr: string[] = []
  private capabilities: ServerCapabilities = {}
  private readonly documents = new Map<string, OpenDocument>()
  private readonly diagnostics = new Map<string, PublishedDiagnostics>()
  private seq = 0
  private readonly waiters = new Set<() => void>()

  constructor(
    readonly plugin: string,
    readonly config: PluginLspServer,
    private readonly host: ServerHost
  ) {}

  get label(): string {
    return `LSP server "${this.config.name}" of plugin "${this.plugin}"`
  }

  get pid(): number | undefined {
    return this.group?.child.pid
  }

  status(): LspServerStatus {
    const status: LspServerStatus = { plugin: this.plugin, server: this.config.name, state: this.state, restarts: this.restarts }
    if (this.reason !== undefined) status.reason = this.reason
    if (this.state === 'running' && this.pid !== undefined) status.pid = this.pid
    return status
  }

  languageOf(file: string): string | undefined {
    const name = basename(file)
    const dot = name.lastIndexOf('.')
    return dot <= 0 ? undefined : this.config.extensionToLanguage[name.slice(dot)]
  }

  /** The running connection, starting the server first when it is idle; rejects with why it cannot run. */
  ready(): Promise<ProtocolConnection> {
    if (this.connection !== undefined && this.state === 'running') return Promise.resolve(this.connection)
    if (this.state === 'failed') return Promise.reject(new Error(`${this.label} failed: ${this.reason ?? 'unknown reason'}`))
    this.starting ??= this.start().finally(() => {
      this.starting = undefined
    })
    return this.starting
  }

  supports(capability: keyof ServerCapabilities): boolean {
    const value = this.capabilities[capability]
    return value !== undefined && value !== false && value !== null
  }

  /**
   * Tells the server what `file` holds now: `didOpen` the first time, `didChange` (whole text) and
   * `didSave` when it changed since. Returns the document's URI and whether anything was sent.
   */
  async sync(file: string): Promise<{ uri: string; sent: boolean }> {
    const connection = await this.ready()
    const { DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidSaveTextDocumentNotification } = await loadProtocol()
    const uri = pathToFileURL(file).href
    const text = readFileSync(file, 'utf8')
    const open = this.documents.get(uri)
    if (open === undefined) {
      this.documents.set(uri, { version: 1, text })
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: this.languageOf(file) ?? 'plaintext', version: 1, text } })
      return { uri, sent: true }
    }
    if (open.text === text) return { uri, sent: false }
    open.version += 1
    open.text = text
    await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: open.version }, contentChanges: [{ text }] })
    await connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri }, text })
    return { uri, sent: true }
  }

  published(uri: string): PublishedDiagnostics {
    return this.diagnostics.get(uri) ?? { items: [], seq: 0 }
  }

  /** Resolves with the first publication for `uri` newer than `afterSeq`, or undefined after `timeoutMs`. */
  nextDiagnostics(uri: string, afterSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<PublishedDiagnostics | undefined> {
    return new Promise((resolve) => {
      const check = () => {
        const now = this.diagnostics.get(uri)
        if (now !== undefined && now.seq > afterSeq) done(now)
        else if (this.state !== 'running' && this.state !== 'starting') done(undefined)
      }
      const timer = setTimeout(() => done(undefined), timeoutMs)
      const abort = () => done(undefined)
      const done = (value: PublishedDiagnostics | undefined) => {
        clearTimeout(timer)
        this.waiters.delete(check)
        signal?.removeEventListener('abort', abort)
        resolve(value)
      }
      signal?.addEventListener('abort', abort, { once: true })
      this.waiters.add(check)
      check()
    })
  }

  async request<R>(method: string, params: unknown): Promise<R> {
    const connection = await this.ready()
    return connection.sendRequest<R>(method, params)
  }

  /** `shutdown` (within `shutdownTimeout`), `exit`, then the process group is killed. */
  async stop(): Promise<void> {
    this.stopping = true
    await this.starting?.catch(() => undefined)
    const connection = this.connection
    const group = this.group
    if (connection === undefined || group === undefined) return
    const child = group.child
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve()
      else child.once('exit', () => resolve())
    })
    const timeoutMs = this.config.shutdownTimeout ?? this.host.shutdownTimeoutMs
    const within = <T>(promise: Promise<T>) => Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false).unref())])
    try {
      const { ShutdownRequest, ExitNotification } = await loadProtocol()
      if (await within(connection.sendRequest(ShutdownRequest.type))) {
        await connection.sendNotification(ExitNotification.type)
        await within(exited)
      }
    } catch {
      // The server is going anyway: its process group is killed below.
    }
    group.signalGroup('SIGKILL')
    await exited
    group.release()
    connection.dispose()
  }

  private async start(): Promise<ProtocolConnection> {
    const config = this.config
    this.set('starting', undefined)
    if (config.transport !== 'stdio') {
      // Nothing records how Claude Code reaches a socket server (README): refused, never guessed.
      this.set('failed', SOCKET_REFUSAL)
      throw new Error(`${this.label} failed: ${this.reason}`)
    }
    const root = config.workspaceFolder ?? this.host.workspace
    this.stderr = []
    this.documents.clear()
    this.diagnostics.clear()
    const lsp = await loadProtocol()
    let group: GuardedProcess
    try {
      group = spawnGuarded(config.command, config.args, { cwd: this.host.workspace, env: { ...this.host.childEnv(), ...config.env }, stdio: ['pipe', 'pipe', 'pipe'] })
    } catch (error) {
      return this.failStart(`cannot start ${JSON.stringify(config.command)}: ${(error as Error).message}`)
    }
    this.group = group
    const child = group.child
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve())
      child.once('error', (error) => reject(new Error(`cannot start ${JSON.stringify(config.command)}: ${error.message}`)))
    })
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (text: string) => {
      this.stderr.push(...text.split('\n').filter((line) => line.trim() !== ''))
      this.stderr.splice(0, Math.max(0, this.stderr.length - STDERR_LINES))
    })
    try {
      await spawned
    } catch (error) {
      group.release()
      this.group = undefined
      return this.failStart((error as Error).message)
    }
    const exit = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal !== null ? `the server process was killed by ${signal}` : `the server process exited with code ${code}`)))
    void exit.then((why) => this.exited(group, why))
    const connection = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout!), new lsp.StreamMessageWriter(child.stdin!))
    this.answerServer(connection, root, lsp.PublishDiagnosticsNotification.type)
    connection.listen()
    const params: InitializeParams = {
      processId: process.pid,
      clientInfo: { name: 'seam', version: SEAM_VERSION },
      rootUri: pathToFileURL(root).href,
      rootPath: root,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: basename(root) }],
      initializationOptions: config.initializationOptions,
      capabilities: CLIENT_CAPABILITIES
    }
    const timeoutMs = config.startupTimeout ?? this.host.startupTimeoutMs
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`it did not answer initialize within ${timeoutMs} ms (startupTimeout)`)), timeoutMs)
    })
    try {
      const initialize = connection.sendRequest(lsp.InitializeRequest.type, params)
      initialize.catch(() => undefined)
      const result = await Promise.race([initialize, timeout, exit.then((why) => Promise.reject(new Error(why)))])
      this.capabilities = result.capabilities
      await connection.sendNotification(lsp.InitializedNotification.type, {})
      if (config.settings !== undefined) await connection.sendNotification(lsp.DidChangeConfigurationNotification.type, { settings: config.settings })
    } catch (error) {
      group.signalGroup('SIGKILL')
      connection.dispose()
      return this.failStart((error as Error).message)
    } finally {
      clearTimeout(timer)
    }
    this.connection = connection
    this.set('running', undefined)
    this.host.log('info', `${this.label} started (pid ${child.pid})`)
    return connection
  }

  private failStart(why: string): never {
    const stderr = this.stderr.length > 0 ? ` (stderr: ${this.stderr.slice(-3).join(' | ')})` : ''
    this.set('failed', `${why}${stderr}`)
    throw new Error(`${this.label} failed to start: ${this.reason}`)
  }

  /** Requests the server sends the client: its settings, and polite answers to the rest. */
  private answerServer(connection: ProtocolConnection, root: string, publishDiagnostics: Protocol['PublishDiagnosticsNotification']['type']): void {
    connection.onNotification(publishDiagnostics, (params) => {
      this.seq += 1
      this.diagnostics.set(params.uri, { items: params.diagnostics, seq: this.seq })
      for (const waiter of [...this.waiters]) waiter()
    })
    connection.onRequest('workspace/configuration', (params: { items?: Array<{ section?: string }> }) => (params.items ?? []).map((item) => settingAt(this.config.settings, item.section)))
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(root).href, name: basename(root) }])
    // Answered so servers that ask go on; anything else gets JSON-RPC's MethodNotFound.
    for (const method of ['client/registerCapability', 'client/unregisterCapability', 'window/workDoneProgress/create', 'window/showMessageRequest']) connection.onRequest(method, () => null)
  }

  private exited(group: GuardedProcess, why: string): void {
    group.release()
    if (this.group !== group) return
    this.connection?.dispose()
    this.connection = undefined
    this.group = undefined
    for (const waiter of [...this.waiters]) waiter()
    if (this.stopping || this.state !== 'running') return
    const max = this.config.maxRestarts ?? this.host.maxRestarts
    if (this.config.restartOnCrash !== true) {
      this.set('failed', `${why} (restartOnCrash is off)`)
    } else if (this.restarts >= max) {
      this.set('failed', `${why}, after ${this.restarts} restart${this.restarts === 1 ? '' : 's'} (maxRestarts ${max})`)
    } else {
      this.restarts += 1
      this.host.log('warn', `${this.label}: ${why}; restarting (${this.restarts} of ${max})`)
      this.set('idle', why)
      // Started again now, so it is warm for the next call; documents are opened again on their next use.
      this.ready().catch((error: Error) => this.host.log('error', error.message))
    }
  }

  private set(state: LspServerStatus['state'], reason: string | undefined): void {
    this.state = state
    this.reason = reason
    this.host.changed()
  }
}

/** `section` (dotted) of the server's `settings`, or null, as `workspace/configuration` answers. */
function settingAt(settings: unknown, section: string | undefined): unknown {
  if (section === undefined || section === '') return settings ?? null
  let value: unknown = settings
  for (const key of section.split('.')) {
    if (typeof value !== 'object' || value === null || !(key in value)) return null
    value = (value as Record<string, unknown>)[key]
  }
  return value ?? null
}

const CLIENT_CAPABILITIES: InitializeParams['capabilities'] = {
  general: { positionEncodings: ['utf-16'] },
  workspace: { configuration: true, workspaceFolders: true, symbol: {} },
  textDocument: {
    synchronization: { didSave: true },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    definition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {}
  }
}
