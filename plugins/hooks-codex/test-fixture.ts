// Test-only: the Codex bridge on the real agent loop. A real kernel with the tools plugin, the
// built-in tools, a workspace service, the bridge (fake CODEX_HOME via config.codexHome), a real
// SessionStore in a temp dir and the in-process scripted model at the provider edge.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Kernel, definePlugin } from '@seam/sdk'
import type { ToolDefinition } from '@seam/sdk'
import type { ModelMessage } from '@seam/sdk'
import type { SessionEventOf, SessionEventType } from '@seam/sdk'
import type { TrustItem } from '@seam/sdk'
import { Agent } from '@seam/sdk/testing'
import type { AgentSettingsInput } from '@seam/sdk/testing'
import { SessionStore, type SessionLog } from '@seam/sdk/testing'
import { toolsPlugin } from '@seam/sdk/testing'
import { builtinTools } from '@seam/sdk/testing'
import { ScriptedModel, type RecordedRequest, type Script } from '@seam/sdk/testing'
import codexHooks from './index'
import type { CodexHooksConfig } from './config'

export interface CodexFixtureOptions {
  script?: Script
  /** Files in the fake $CODEX_HOME, by name: objects are written as JSON, strings as they are. */
  user?: Record<string, unknown>
  /** Files under the repository folder, by relative path (e.g. `.codex/hooks.json`, `sub/.codex/config.toml`). */
  project?: Record<string, unknown>
  /** Create `<repo>/.git` (default true). */
  git?: boolean
  /** The workspace (and working directory) relative to the repository folder (default: the repository). */
  workspace?: string
  trusted?: boolean
  config?: Partial<CodexHooksConfig>
  settings?: AgentSettingsInput
  extraTools?: ToolDefinition[]
  /** S4 source of the session (default `startup`). */
  source?: 'startup' | 'resume'
}

export interface CodexFixture {
  root: string
  repo: string
  workspace: string
  codexHome: string
  kernel: Kernel
  model: ScriptedModel
  log: SessionLog
  agent: Agent
  /** Sends a prompt and waits until the agent is idle. */
  run(prompt: string): Promise<void>
  ofType<T extends SessionEventType>(type: T): SessionEventOf<T>[]
  notices(): string[]
  trustItems(): TrustItem[]
  /** Re-provides the workspace service with another trust answer (the bridge restarts, as in the host). */
  setTrusted(trusted: boolean): void
  /** Writes a file (relative to the root temp folder). */
  write(file: string, content: unknown): Promise<void>
  cleanup(): Promise<void>
}

export async function createCodexFixture(options: CodexFixtureOptions = {}): Promise<CodexFixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'seam-codex-'))
  const repo = path.join(root, 'repo')
  const codexHome = path.join(root, 'codex-home')
  const workspace = path.join(repo, options.workspace ?? '')
  await mkdir(workspace, { recursive: true })
  await mkdir(codexHome, { recursive: true })
  if (options.git !== false) await mkdir(path.join(repo, '.git'))
  const write = async (file: string, content: unknown) => {
    const target = path.join(root, file)
    await mkdir(path.dirname(target), { recursive: true })
    await writeFile(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  }
  for (const [name, content] of Object.entries(options.user ?? {})) await write(path.join('codex-home', name), content)
  for (const [name, content] of Object.entries(options.project ?? {})) await write(path.join('repo', name), content)

  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  const extraTools = options.extraTools ?? []
  kernel.plugin(
    definePlugin({
      name: 'test-tools',
      inject: ['tools'],
      apply(ctx) {
        for (const tool of [...builtinTools(), ...extraTools]) ctx.tools.register(tool)
      }
    })
  )
  const providers = new Set<(workspace: string) => TrustItem[]>()
  const provideWorkspace = (trusted: boolean) =>
    kernel.context.provide('workspace', {
      root: workspace,
      trusted,
      seamHome: path.join(root, 'seam-home'),
      contributeTrustItems(owner, items) {
        providers.add(items)
        return owner.onDispose(() => providers.delete(items))
      },
      // Pinning is the host's (src-main/security/trust-pins.ts): here trust approves every item.
      isApproved: () => trusted,
      itemsChanged: () => {},
      approveItems: () => {}
    })
  let unprovide = provideWorkspace(options.trusted ?? true)
  const bridge = kernel.plugin(codexHooks, { codexHome, ...options.config })
  if (bridge.state !== 'active') throw new Error(`the Codex bridge did not start: ${bridge.error?.message ?? bridge.state}`)

  const store = new SessionStore(path.join(root, 'sessions'))
  const log = store.create({ workspace, title: 'codex hooks test', model: { provider: 'scripted', model: 'scripted-1' } })
  const model = new ScriptedModel(options.script ?? [])
  const agent = new Agent({ kernel, log, model, workspace, settings: options.settings, source: options.source ?? 'startup' })

  return {
    root,
    repo,
    workspace,
    codexHome,
    kernel,
    model,
    log,
    agent,
    async run(prompt) {
      agent.send(prompt)
      await agent.whenIdle()
    },
    ofType: <T extends SessionEventType>(type: T) => log.events.filter((e): e is SessionEventOf<T> => e.type === type),
    notices: () => log.events.flatMap((e) => (e.type === 'notice' ? [e.text] : [])),
    trustItems: () => [...providers].flatMap((provide) => provide(workspace)),
    setTrusted(trusted) {
      const next = provideWorkspace(trusted)
      unprovide()
      unprovide = next
    },
    write,
    async cleanup() {
      await agent.close('closed').catch(() => undefined)
      await log.close().catch(() => undefined)
      kernel.dispose()
      await rm(root, { recursive: true, force: true })
    }
  }
}

// ---- building hook files --------------------------------------------------------------------

export interface HandlerSpec {
  command: string
  timeout?: number
  async?: boolean
  [key: string]: unknown
}

/** `{hooks: {Event: [{matcher, hooks: [{type: 'command', ...}]}]}}` */
export function hooksJson(events: Record<string, Array<{ matcher?: string; hooks: Array<string | HandlerSpec> }>>): unknown {
  const hooks: Record<string, unknown> = {}
  for (const [event, groups] of Object.entries(events)) {
    hooks[event] = groups.map((group) => ({
      ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
      hooks: group.hooks.map((handler) => (typeof handler === 'string' ? { type: 'command', command: handler } : { type: 'command', ...handler }))
    }))
  }
  return { hooks }
}

/** One handler for one event, optionally with a matcher. */
export function oneHook(event: string, command: string, matcher?: string): unknown {
  return hooksJson({ [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [command] }] })
}

/** A shell command printing `value` as JSON on stdout. */
export function printJson(value: unknown): string {
  return `printf '%s' ${shellQuote(JSON.stringify(value))}`
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

// ---- reading what the model got ------------------------------------------------------------

export function toolMessage(request: RecordedRequest | undefined, callId: string): Extract<ModelMessage, { role: 'tool' }> | undefined {
  return request?.messages.find((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool' && m.callId === callId)
}

export function userTexts(request: RecordedRequest | undefined): string[] {
  return (request?.messages ?? []).flatMap((m) => (m.role === 'user' ? [m.content] : []))
}

export function reminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`
}
