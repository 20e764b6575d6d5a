// A real Seam host for the LSP tests: a temp home and a TypeScript workspace, a Claude Code plugin
// folder (made here) whose `.lsp.json` runs typescript-language-server (a pinned devDependency)
// with the workspace's own `typescript`, loaded in place through the claude-plugins config, and the
// loopback OpenAI-protocol model server playing a script. Nothing of Seam is replaced.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeOpenAI, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import { HostRuntime, terminalApprovalPlugin } from '@seam/sdk/testing'
import type { LspServerStatus, SessionEvent } from '@seam/sdk'

const require = createRequire(import.meta.url)

/** typescript-language-server's entry script, and the tsserver it is told to use (initializationOptions). */
export const TS_LANGUAGE_SERVER = require.resolve('typescript-language-server/lib/cli.mjs')
export const TSSERVER = require.resolve('typescript/lib/tsserver.js')

export const MATH_TS = 'export function add(a: number, b: number): number {\n  return a + b\n}\n'
export const MAIN_TS = "import { add } from './math'\n\nexport const total: number = add(1, 2)\n"

/** The `.lsp.json` entry of the TypeScript server, with what a test changes merged in. */
export function typescriptServer(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [TS_LANGUAGE_SERVER, '--stdio'],
    extensionToLanguage: { '.ts': 'typescript' },
    initializationOptions: { tsserver: { path: TSSERVER } },
    ...extra
  }
}

type LiveSession = Awaited<ReturnType<HostRuntime['sessions']['create']>>

export interface LspHost {
  runtime: HostRuntime
  model: FakeProviderServer<OpenAIRequestBody>
  workspace: string
  run(prompt: string): Promise<{ session: LiveSession; events: SessionEvent[] }>
  status(): readonly LspServerStatus[]
  /** Resolves once `check` holds for the servers' status (checked at every change). */
  until(check: (status: readonly LspServerStatus[]) => boolean): Promise<readonly LspServerStatus[]>
  close(): Promise<void>
}

export async function startLspHost(options: { lspJson: Record<string, unknown>; script: OpenAIScript; patch?: string }): Promise<LspHost> {
  const root = await mkdtemp(join(tmpdir(), 'seam-lsp-'))
  const home = join(root, 'home')
  const workspace = join(root, 'workspace')
  const plugin = join(root, 'ts-plugin')
  await mkdir(home, { recursive: true })
  await mkdir(join(workspace, 'src'), { recursive: true })
  await mkdir(join(plugin, '.claude-plugin'), { recursive: true })
  await writeFile(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'es2022', moduleResolution: 'bundler' }, include: ['src'] }))
  await writeFile(join(workspace, 'src', 'math.ts'), MATH_TS)
  await writeFile(join(workspace, 'src', 'main.ts'), MAIN_TS)
  await writeFile(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'ts-lsp', version: '1.0.0' }))
  // typescript-language-server makes a folder for tsserver's cancellation pipes in the temp folder
  // and never removes it: each server gets the test's own, which goes with the rest.
  const temp = join(root, 'tmp')
  await mkdir(temp)
  const servers = Object.fromEntries(Object.entries(options.lspJson).map(([name, server]) => [name, withTemp(server, temp)]))
  await writeFile(join(plugin, '.lsp.json'), JSON.stringify(servers))
  const patchFile = join(root, 'patch.yml')
  await writeFile(patchFile, `- id: claude-plugins\n  config: { pluginDirs: [${JSON.stringify(plugin)}], userSettingsPath: ${JSON.stringify(join(home, 'claude-settings.json'))} }\n${options.patch ?? ''}`)
  const previousHome = process.env.HOME
  process.env.HOME = home
  const model = await startFakeOpenAI(options.script)
  const runtime = await HostRuntime.start({
    mode: 'headless',
    env: { ...process.env, SEAM_HOME: home },
    workspace,
    trustWorkspace: true,
    patchFile,
    approvalMode: 'never-ask',
    provider: { provider: 'openai-compatible', baseUrl: model.url, model: 'm' },
    answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('allow') as never }
  })
  const service = () => {
    const lsp = runtime.kernel.getService('lspServers')
    if (lsp === undefined) throw new Error('the lsp plugin is not running')
    return lsp
  }
  return {
    runtime,
    model,
    workspace,
    async run(prompt) {
      const session = await runtime.sessions.create(workspace)
      session.agent.send(prompt)
      await session.agent.whenIdle()
      return { session, events: [...session.log.events] }
    },
    status: () => service().status(),
    until(check) {
      return new Promise((resolve) => {
        const test = () => {
          const now = service().status()
          if (!check(now)) return
          off()
          resolve(now)
        }
        const off = service().onChange(test)
        test()
      })
    },
    async close() {
      await runtime.close()
      await model.close()
      process.env.HOME = previousHome
      await rm(root, { recursive: true, force: true })
    }
  }
}

function withTemp(server: unknown, temp: string): unknown {
  if (typeof server !== 'object' || server === null) return server
  const entry = server as { env?: Record<string, string> }
  return { ...entry, env: { TMPDIR: temp, ...entry.env } }
}
