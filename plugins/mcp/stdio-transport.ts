// The stdio transport: the server is a child process speaking newline-delimited JSON-RPC on
// stdin/stdout. Seam has its own (rather than the SDK's) to know what went wrong in words: the
// exit code or signal, the stderr lines, the exact malformed line, an oversized message. A
// malformed or oversized message ends the connection: a server that breaks the framing cannot
// be trusted to answer the calls in flight, and they end at once with the reason.
//
// The server leads its own process group, registered with the host's death watcher
// (@seam/sdk/node's spawnGuarded): closing signals the whole group, what the server left
// behind when it ended (a tool's child still running after a timed-out call) is killed with
// it, and a host killed with SIGKILL takes the server and its children down too.
import type { ChildProcess } from 'node:child_process'
import { spawnGuarded, type GuardedProcess } from '@seam/sdk/node'
import { formatBytes } from './bytes'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export interface StdioOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
  /** A message (one line) longer than this ends the connection. */
  maxMessageBytes: number
  onStderr(line: string): void
}

/** Why the connection ended, when the transport knows. */
export class TransportFault extends Error {
  override name = 'TransportFault'
}

const KILL_GRACE_MS = 2_000

export class ProcessTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private child: ChildProcess | undefined
  private group: GuardedProcess | undefined
  private chunks: Buffer[] = []
  private buffered = 0
  private stderrRest = ''
  private closed = false
  /** Seam asked the process to end (close, kill): an exit then is Seam's doing, unless the child says otherwise. */
  private closing = false
  /** The first fatal problem (a spawn error, bad framing, the child's own exit), for the error calls in flight end with. */
  fault: string | undefined

  constructor(private readonly options: StdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.options
    return new Promise((resolve, reject) => {
      const group = spawnGuarded(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
      const child = group.child
      this.group = group
      this.child = child
      child.once('spawn', () => resolve())
      child.once('error', (error) => {
        const message = `cannot start ${JSON.stringify(command)}: ${error.message}`
        this.fault ??= message
        reject(new TransportFault(message))
        this.finish()
      })
      child.once('exit', (code, signal) => {
        const fault = exitFault(code, signal, this.closing)
        if (fault !== undefined) this.fault ??= fault
      })
      child.once('close', () => {
        // The server is gone: whatever it started and left running goes with it.
        group.signalGroup('SIGKILL')
        group.release()
        this.finish()
      })
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk))
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (text: string) => this.readStderr(text))
      child.stdin?.on('error', (error) => this.onerror?.(error))
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (this.closed || !stdin || stdin.destroyed) return Promise.reject(new TransportFault(this.fault ?? 'the server process is not running'))
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()))
    })
  }

  /** Why the connection ended: the fault, else Seam's own close; undefined while it runs. */
  get endReason(): string | undefined {
    return this.fault ?? (this.closing ? CLOSED_BY_SEAM : undefined)
  }

  /** Ends stdin, then SIGTERM, then SIGKILL; resolves once the process is gone (and its exit is known). */
  async close(): Promise<void> {
    const child = this.child
    // Gone already (or never started: a spawn error has no process to wait for).
    if (this.closed || !child || child.pid === undefined) return this.finish()
    this.closing = true
    const gone = new Promise<void>((resolve) => child.once('close', () => resolve()))
    // Exited, with 'close' (the pipes) still to come: wait for it, so the exit is known and the connection is closed once.
    if (child.exitCode !== null || child.signalCode !== null) return gone
    const wait = (ms: number) => Promise.race([gone.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref())])
    child.stdin?.end()
    if (await wait(KILL_GRACE_MS)) return
    this.group?.signalGroup('SIGTERM')
    if (await wait(KILL_GRACE_MS)) return
    this.group?.signalGroup('SIGKILL')
    await wait(KILL_GRACE_MS)
  }

  /**
   * Ends the process group without waiting (app shutdown from a synchronous disposer). It stays
   * registered with the death watcher: what ignores SIGTERM is SIGKILLed when the host exits.
   */
  kill(): void {
    const child = this.child
    if (child && child.exitCode === null && child.signalCode === null) {
      this.closing = true
      this.group?.signalGroup('SIGTERM')
    }
  }

  private read(chunk: Buffer): void {
    let start = 0
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.chunks.push(chunk.subarray(start, newline))
      const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '')
      this.chunks = []
      this.buffered = 0
      start = newline + 1
      if (line.trim() !== '' && !this.deliver(line)) return
    }
    if (start < chunk.length) {
      this.chunks.push(chunk.subarray(start))
      this.buffered += chunk.length - start
      if (this.buffered > this.options.maxMessageBytes) {
        this.fail(`the server sent a message larger than ${formatBytes(this.options.maxMessageBytes)} (the maxMessageBytes limit)`)
      }
    }
  }

  /** Hands one line on; false (and the connection ends) when it is not JSON-RPC. */
  private deliver(line: string): boolean {
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(line)
    } catch (error) {
      const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line
      this.fail(`the server sent malformed JSON-RPC: ${JSON.stringify(shown)} (${firstLine((error as Error).message)})`)
      return false
    }
    this.onmessage?.(message)
    return true
  }

  private readStderr(text: string): void {
    const lines = (this.stderrRest + text).split('\n')
    this.stderrRest = lines.pop() ?? ''
    for (const line of lines) this.options.onStderr(line.replace(/\r$/, ''))
  }

  private fail(reason: string): void {
    if (this.closed) return
    this.fault = reason
    this.chunks = []
    this.buffered = 0
    this.onerror?.(new TransportFault(reason))
    void this.close()
  }

  private finish(): void {
    if (this.closed) return
    this.closed = true
    if (this.stderrRest !== '') this.options.onStderr(this.stderrRest)
    this.stderrRest = ''
    this.onclose?.()
  }
}

const CLOSED_BY_SEAM = 'the connection was closed by Seam'

/**
 * The fault an exit is, or undefined when it was Seam's doing: a clean exit or a signal after Seam
 * asked the process to end. A non-zero exit code is the child's own word and is reported even when
 * Seam's close was already under way: a server that exited with code 7 just before Seam closed the
 * connection (the exit event not yet seen) is "exited with code 7", not "closed by Seam".
 */
export function exitFault(code: number | null, signal: NodeJS.Signals | null, closedBySeam: boolean): string | undefined {
  if (signal !== null) return closedBySeam ? undefined : `the server process was killed by ${signal}`
  if (code === 0 && closedBySeam) return undefined
  return `the server process exited with code ${code}`
}


function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? text
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}
