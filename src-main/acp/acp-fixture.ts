// Fixture of the `seam acp` integration tests: a Seam home, a workspace and a loopback
// OpenAI-wire server per test, the built CLI as the agent process (test-client.ts), and
// cleanup of both after each test. Call `useAcpFixture()` at the top of a test file.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startFakeOpenAI, type FakeProviderServer, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { startAgent, type AgentProcess, type EditorHandlers } from './test-client'
import { ensureBuilt } from '../../test-support/built-cli'

let scratchDir = ''
const running: AgentProcess[] = []
const servers: FakeProviderServer<OpenAIRequestBody>[] = []

/** Builds the CLI when needed, and stops every agent process and fake server after each test. */
export function useAcpFixture(): void {
  beforeAll(async () => {
    await ensureBuilt()
    scratchDir = await mkdtemp(join(tmpdir(), 'seam-acp-'))
  }, 120_000)
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()))
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  afterAll(async () => {
    await rm(scratchDir, { recursive: true, force: true })
  })
}

export function scratch(): string {
  return scratchDir
}

export interface Setup {
  home: string
  workspace: string
  env: NodeJS.ProcessEnv
  url: string
  server: FakeProviderServer<OpenAIRequestBody>
}

let counter = 0
/** A fresh Seam home (with `settings` when given), workspace and user home, and a fake provider playing `script`. */
export async function setup(script: OpenAIScript, settings?: Record<string, unknown>): Promise<Setup> {
  const dir = join(scratchDir, `t${++counter}`)
  const home = join(dir, 'seam-home')
  const workspace = join(dir, 'ws')
  const userHome = join(dir, 'home')
  await mkdir(home, { recursive: true })
  await mkdir(workspace, { recursive: true })
  await mkdir(userHome, { recursive: true })
  if (settings) await writeFile(join(home, 'settings.json'), JSON.stringify(settings))
  const server = await startFakeOpenAI(script)
  servers.push(server)
  const env: NodeJS.ProcessEnv = { ...process.env, SEAM_HOME: home, HOME: userHome }
  for (const key of ['DEEPSEEK_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY']) delete env[key]
  return { home, workspace, env, url: server.url, server }
}

export function providerArgs(s: Setup, ...more: string[]): string[] {
  return ['--provider', 'openai-compatible', '--base-url', s.url, '--model', 'm', ...more]
}

export function agent(s: Setup, args: string[], handlers?: EditorHandlers): AgentProcess {
  const proc = startAgent(args, s.env, handlers)
  running.push(proc)
  return proc
}

export async function connect(proc: AgentProcess, capabilities: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
  return proc.agent.request('initialize', { protocolVersion: 1, clientCapabilities: capabilities })
}

export async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise
  } catch (error) {
    const e = error as { code: number; message: string }
    return { code: e.code, message: e.message }
  }
  throw new Error('expected a JSON-RPC error')
}

export function updatesOf(proc: AgentProcess, sessionId: string): acp.SessionUpdate[] {
  return proc.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update)
}

export function textOf(updates: acp.SessionUpdate[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updates
    .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: typeof kind }> => u.sessionUpdate === kind)
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('')
}

export async function sessionEvents(home: string, sessionId: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(home, 'sessions', `${sessionId}.jsonl`), 'utf8')
  return text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** What the model was last shown (a tool result, as the next request carries it). */
export const lastToolContent = (body: OpenAIRequestBody): string => JSON.stringify(body.messages.at(-1)?.content ?? '')
export function lastToolContentOf(server: FakeProviderServer<OpenAIRequestBody>, requestIndex: number): string {
  return lastToolContent(server.requests[requestIndex]!.body)
}

/** The test editor's terminal: real processes, as an editor would run them. With `recordOutput`, `terminal/output` requests are recorded too. */
export function processTerminal(requests: string[], { recordOutput = false } = {}): NonNullable<EditorHandlers['terminal']> {
  const terminals = new Map<string, { output: string; exit: Promise<{ exitCode: number | null; signal: string | null }>; kill(): void }>()
  return {
    create: ({ command, args, cwd }) => {
      requests.push(`terminal ${command} ${(args ?? []).join(' ')}`)
      const child = spawn(command, args ?? [], { cwd: cwd ?? undefined })
      const id = `term-${terminals.size + 1}`
      const entry = {
        output: '',
        exit: new Promise<{ exitCode: number | null; signal: string | null }>((r) => child.on('exit', (exitCode, signal) => r({ exitCode, signal }))),
        kill: () => child.kill()
      }
      child.stdout.on('data', (c: Buffer) => (entry.output += c.toString()))
      child.stderr.on('data', (c: Buffer) => (entry.output += c.toString()))
      terminals.set(id, entry)
      return { terminalId: id }
    },
    output: async ({ terminalId }) => {
      if (recordOutput) requests.push(`output ${terminalId}`)
      const t = terminals.get(terminalId)!
      // Output the command wrote before this request was sent may sit in the pipe, its read due later
      // in this same turn of the event loop: let it be read first, as a client that has caught up would.
      await new Promise((resolve) => setImmediate(resolve))
      const status = await Promise.race([t.exit, new Promise<undefined>((r) => setTimeout(r, 0, undefined))])
      return { output: t.output, truncated: false, exitStatus: status ?? null }
    },
    waitForExit: ({ terminalId }) => terminals.get(terminalId)!.exit,
    kill: ({ terminalId }) => {
      requests.push(`kill ${terminalId}`)
      terminals.get(terminalId)!.kill()
      return {}
    },
    release: ({ terminalId }) => {
      requests.push(`release ${terminalId}`)
      return {}
    }
  }
}

