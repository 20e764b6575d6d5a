// A real Seam host for the MCP tests: a temp Seam home and workspace (with a .mcp.json), the
// loopback OpenAI-protocol model server playing a script, and the whole base profile (the mcp
// plugin included). Nothing of Seam is replaced.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { startFakeOpenAI, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { terminalApprovalPlugin } from '@seam/sdk/testing'
import { HostRuntime } from '@seam/sdk/testing'
import type { SessionEvent } from '@seam/sdk'

const require = createRequire(import.meta.url)

type LiveSession = Awaited<ReturnType<HostRuntime['sessions']['create']>>

/** The entry script of @modelcontextprotocol/server-everything (a pinned devDependency). */
export const EVERYTHING_SERVER = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')

/** Small scripted MCP servers for the fault tests (real processes speaking JSON-RPC). */
export const SCRIPTED_SERVER = join(import.meta.dirname, 'test-servers', 'scripted-server.mjs')

export interface McpHostOptions {
  mcpJson?: Record<string, unknown>
  script: OpenAIScript
  trusted?: boolean
  approve?: 'allow' | 'deny'
  approvalMode?: 'ask-side-effects' | 'ask-all' | 'never-ask'
  /** Seam settings.json content. */
  settings?: Record<string, unknown>
  /** A patch layer (YAML text) for the profile, e.g. to configure the mcp entry. */
  patch?: string
  codexToml?: string
}

export interface McpHost {
  runtime: HostRuntime
  model: FakeProviderServer<OpenAIRequestBody>
  workspace: string
  home: string
  /** Sends a prompt in a new session and waits until the turn is over. */
  run(prompt: string): Promise<{ session: LiveSession; events: SessionEvent[] }>
  close(): Promise<void>
}

export async function startMcpHost(options: McpHostOptions): Promise<McpHost> {
  const root = await mkdtemp(join(tmpdir(), 'seam-mcp-'))
  const home = join(root, 'home')
  const workspace = join(root, 'workspace')
  const codexHome = join(root, 'codex')
  await mkdir(home, { recursive: true })
  await mkdir(workspace, { recursive: true })
  await mkdir(codexHome, { recursive: true })
  if (options.mcpJson) await writeFile(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: options.mcpJson }, null, 2))
  if (options.settings) await writeFile(join(home, 'settings.json'), JSON.stringify(options.settings, null, 2))
  if (options.codexToml) await writeFile(join(codexHome, 'config.toml'), options.codexToml)
  let patchFile: string | undefined
  if (options.patch) {
    patchFile = join(root, 'patch.yml')
    await writeFile(patchFile, options.patch)
  }
  // User-level files (~/.claude, ~/.codex) come from the test's own folders, never the machine's.
  const previousCodexHome = process.env.CODEX_HOME
  const previousHome = process.env.HOME
  process.env.CODEX_HOME = codexHome
  process.env.HOME = home
  const model = await startFakeOpenAI(options.script)
  const runtime = await HostRuntime.start({
    mode: 'headless',
    env: { ...process.env, SEAM_HOME: home },
    workspace,
    trustWorkspace: options.trusted ?? true,
    patchFile,
    approvalMode: options.approvalMode,
    provider: { provider: 'openai-compatible', baseUrl: model.url, model: 'm' },
    answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin(options.approve ?? 'allow') as never }
  })
  return {
    runtime,
    model,
    workspace,
    home,
    async run(prompt) {
      const session = await runtime.sessions.create(workspace)
      session.agent.send(prompt)
      await session.agent.whenIdle()
      return { session, events: [...session.log.events] }
    },
    async close() {
      await runtime.close()
      await model.close()
      if (previousCodexHome === undefined) delete process.env.CODEX_HOME
      else process.env.CODEX_HOME = previousCodexHome
      process.env.HOME = previousHome
      await rm(root, { recursive: true, force: true })
    }
  }
}

export function toolResults(events: readonly SessionEvent[]) {
  return events.flatMap((event) => (event.type === 'tool/result' ? [event] : []))
}

/** Every stdio server process the host started is gone once it closed: `kill -0` fails for each pid. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
