// A real Seam host for the MCP tests: `startLoopbackHost` of @seam/sdk/testing with a temp Seam
// home, Codex home and workspace (with the .mcp.json and config.toml a test gives), the loopback
// OpenAI-protocol model server playing a script, and the whole base profile. Nothing of Seam is
// replaced.
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { startFakeOpenAI, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import { startLoopbackHost, type LoopbackHost } from '@seam/sdk/testing'
import type { SessionEvent } from '@seam/sdk'

const require = createRequire(import.meta.url)

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

export type McpHost = LoopbackHost<FakeProviderServer<OpenAIRequestBody>>

export async function startMcpHost(options: McpHostOptions): Promise<McpHost> {
  const files: Record<string, string> = {}
  if (options.mcpJson) files['workspace/.mcp.json'] = JSON.stringify({ mcpServers: options.mcpJson }, null, 2)
  if (options.codexToml) files['codex/config.toml'] = options.codexToml
  return startLoopbackHost({
    prefix: 'mcp',
    model: await startFakeOpenAI(options.script),
    files,
    codexHomeDir: 'codex',
    ...(options.trusted !== undefined ? { trusted: options.trusted } : {}),
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.approvalMode ? { approvalMode: options.approvalMode } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.patch !== undefined ? { patch: options.patch } : {})
  })
}

export function toolResults(events: readonly SessionEvent[]) {
  return events.flatMap((event) => (event.type === 'tool/result' ? [event] : []))
}

/** Every stdio server process the host started is gone once it closed: `kill -0` fails for each pid. */
export { isAlive } from '@seam/sdk/testing'
