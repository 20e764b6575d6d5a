// Test and bench wiring: the built `seam acp` as a child process, driven over its stdio by the
// SDK's client side. Nothing of Seam is mocked; the client handlers are the test's editor.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Readable, Writable } from 'node:stream'
import * as acp from '@agentclientprotocol/sdk'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const SEAM_BIN = join(REPO_ROOT, 'bin', 'seam.mjs')

export interface EditorHandlers {
  permission?: (params: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>
  readTextFile?: (params: acp.ReadTextFileRequest) => acp.ReadTextFileResponse | Promise<acp.ReadTextFileResponse>
  writeTextFile?: (params: acp.WriteTextFileRequest) => acp.WriteTextFileResponse | Promise<acp.WriteTextFileResponse>
  terminal?: {
    create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse | Promise<acp.CreateTerminalResponse>
    output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse | Promise<acp.TerminalOutputResponse>
    waitForExit(params: acp.WaitForTerminalExitRequest): acp.WaitForTerminalExitResponse | Promise<acp.WaitForTerminalExitResponse>
    kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse | Promise<acp.KillTerminalResponse>
    release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse | Promise<acp.ReleaseTerminalResponse>
  }
}

export interface AgentProcess {
  child: ChildProcessWithoutNullStreams
  agent: acp.ClientContext
  /** Every `session/update` received, in arrival order. */
  updates: acp.SessionNotification[]
  /** Called for each update as it arrives (after it is recorded). */
  onUpdate(listener: (notification: acp.SessionNotification) => void): () => void
  stderr(): string
  /** Closes stdin and waits for the process to exit; resolves with its exit code. */
  stop(): Promise<number | null>
}

export function startAgent(args: string[], env: NodeJS.ProcessEnv, handlers: EditorHandlers = {}): AgentProcess {
  const child = spawn(process.execPath, [SEAM_BIN, 'acp', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const updates: acp.SessionNotification[] = []
  const listeners = new Set<(n: acp.SessionNotification) => void>()
  let app = acp.client({ name: 'seam-test-editor' }).onNotification('session/update', ({ params }) => {
    updates.push(params)
    for (const listener of listeners) listener(params)
  })
  if (handlers.permission) app = app.onRequest('session/request_permission', ({ params }) => handlers.permission!(params))
  if (handlers.readTextFile) app = app.onRequest('fs/read_text_file', ({ params }) => handlers.readTextFile!(params))
  if (handlers.writeTextFile) app = app.onRequest('fs/write_text_file', ({ params }) => handlers.writeTextFile!(params))
  const terminal = handlers.terminal
  if (terminal) {
    app = app
      .onRequest('terminal/create', ({ params }) => terminal.create(params))
      .onRequest('terminal/output', ({ params }) => terminal.output(params))
      .onRequest('terminal/wait_for_exit', ({ params }) => terminal.waitForExit(params))
      .onRequest('terminal/kill', ({ params }) => terminal.kill(params))
      .onRequest('terminal/release', ({ params }) => terminal.release(params))
  }
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>))
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)))
  return {
    child,
    agent: connection.agent,
    updates,
    onUpdate(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    stderr: () => stderr,
    async stop() {
      connection.close()
      child.stdin.end()
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      const code = await exited
      clearTimeout(timer)
      return code
    }
  }
}

/** Resolves with the first update (from now on) that `match` accepts. */
export function nextUpdate(proc: AgentProcess, match: (update: acp.SessionUpdate) => boolean): Promise<acp.SessionUpdate> {
  return new Promise((resolveUpdate) => {
    const off = proc.onUpdate((n) => {
      if (match(n.update)) {
        off()
        resolveUpdate(n.update)
      }
    })
  })
}
