// Test support (not a test): the real agent loop with the bridge, end to end. A real kernel
// with the tools plugin, the built-in tools, the prompt plugin, a `workspace` service (the edge
// of the bridge), the bridge itself, a real SessionStore in a temp dir and the in-process
// scripted model. Also: hook commands in bash, Python 3 and Node with a configurable answer.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import type { ToolDefinition } from '@seam/sdk'
import { definePlugin, Kernel, type Context, type PluginRuntime } from '@seam/sdk'
import type { SessionEventOf, SessionEventType } from '@seam/sdk'
import type { TrustItem, WorkspaceService } from '@seam/sdk'
import { Agent, promptPlugin, scaledTestMs, type AgentSettingsInput } from '@seam/sdk/testing'
import { SessionStore, type SessionLog } from '@seam/sdk/testing'
import { toolsPlugin } from '@seam/sdk/testing'
import { builtinTools } from '@seam/sdk/testing'
import { ScriptedModel, type Script, type ScriptStep } from '@seam/sdk/testing'
import hooksClaude, { type ClaudeHooksService, type HooksClaudeConfigInput } from './index'

const HERE = dirname(fileURLToPath(import.meta.url))
export const HOOK_SCRIPTS = { bash: join(HERE, 'test-hooks', 'hook.sh'), python: join(HERE, 'test-hooks', 'hook.py'), node: join(HERE, 'test-hooks', 'hook.mjs') }
export type Lang = keyof typeof HOOK_SCRIPTS
export const LANGS: readonly Lang[] = ['bash', 'python', 'node']

export interface HookBehaviour {
  exit?: number
  /** Seconds before answering. */
  sleep?: number
  /** A string is printed as is; anything else as JSON. */
  stdout?: unknown
  stderr?: string
  /** A file that gets the hook's stdin JSON, one line per run. */
  record?: string
}

const b64 = (text: string | undefined): string => (text === undefined || text === '' ? '-' : Buffer.from(text, 'utf8').toString('base64'))
const q = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** A command line running the test hook in `lang` with `behaviour`. */
export function hookCommand(lang: Lang, behaviour: HookBehaviour = {}): string {
  const runner = lang === 'bash' ? 'bash' : lang === 'python' ? 'python3' : 'node'
  const stdout = behaviour.stdout === undefined ? undefined : typeof behaviour.stdout === 'string' ? behaviour.stdout : JSON.stringify(behaviour.stdout)
  return [runner, q(HOOK_SCRIPTS[lang]), String(behaviour.exit ?? 0), String(behaviour.sleep ?? 0), b64(stdout), b64(behaviour.stderr), q(behaviour.record ?? '-')].join(' ')
}

export interface HandlerSpec {
  type?: 'command' | 'http' | 'prompt' | 'agent'
  command?: string
  [key: string]: unknown
}

/** `{ [event]: [{ matcher, hooks: [...] }] }` from a list of (event, matcher, handler). */
export function hooksOf(...entries: Array<[event: string, matcher: string | undefined, handler: HandlerSpec | string]>): Record<string, unknown[]> {
  const hooks: Record<string, unknown[]> = {}
  for (const [event, matcher, handler] of entries) {
    const spec = typeof handler === 'string' ? { type: 'command', command: handler } : { type: 'command', ...handler }
    ;(hooks[event] ??= []).push(matcher === undefined ? { hooks: [spec] } : { matcher, hooks: [spec] })
  }
  return hooks
}

export interface HarnessOptions {
  /** Settings file contents (an object is written as JSON, a string as is). */
  user?: unknown
  project?: unknown
  local?: unknown
  seamHooks?: Record<string, unknown>
  trusted?: boolean
  script?: Script
  config?: Omit<HooksClaudeConfigInput, 'userSettingsPath' | 'seamHooks'>
  settings?: AgentSettingsInput
  tools?: ToolDefinition[]
  /** Runs on the kernel before the bridge is applied (policies, approval answerers). */
  setup?(kernel: Kernel): void
  source?: 'startup' | 'resume'
}

export interface Harness {
  dir: string
  workspace: string
  home: string
  userSettingsPath: string
  kernel: Kernel
  model: ScriptedModel
  agent: Agent
  log: SessionLog
  store: SessionStore
  bridge: PluginRuntime
  /** Sends a prompt and waits until the agent is idle. */
  run(prompt: string): Promise<void>
  events<T extends SessionEventType>(type: T): SessionEventOf<T>[]
  notices(): string[]
  service(): ClaudeHooksService
  trustItems(): TrustItem[]
  setTrusted(trusted: boolean): void
  write(which: 'user' | 'project' | 'local', content: unknown): void
  pathOf(which: 'user' | 'project' | 'local'): string
  file(name: string): string
  /** Lines a test hook recorded; a relative name is relative to the workspace (the hooks' cwd). */
  records(name: string): Array<Record<string, unknown>>
  cleanup(): Promise<void>
}

const workspacePlugin = definePlugin({
  name: 'test-workspace',
  schema: z.object({ root: z.string(), trusted: z.boolean(), seamHome: z.string() }),
  apply(ctx: Context, config: { root: string; trusted: boolean; seamHome: string }) {
    const providers = trustProviders(ctx.kernel)
    const service: WorkspaceService = {
      root: config.root,
      trusted: config.trusted,
      seamHome: config.seamHome,
      contributeTrustItems(owner, items) {
        providers.add(items)
        return owner.onDispose(() => providers.delete(items))
      },
      // Pinning is the host's (src-main/security/trust-pins.ts): here trust approves every item.
      isApproved: () => config.trusted,
      itemsChanged: () => {},
      approveItems: () => {}
    }
    ctx.provide('workspace', service)
  }
})

const providersByKernel = new WeakMap<Kernel, Set<(workspace: string) => TrustItem[]>>()
function trustProviders(kernel: Kernel): Set<(workspace: string) => TrustItem[]> {
  let set = providersByKernel.get(kernel)
  if (!set) providersByKernel.set(kernel, (set = new Set()))
  return set
}

const builtinToolsPlugin = definePlugin({
  name: 'test-builtin-tools',
  inject: ['tools'],
  apply(ctx: Context, config: { extra?: ToolDefinition[] }) {
    for (const tool of builtinTools()) ctx.tools.register(tool)
    for (const tool of config?.extra ?? []) ctx.tools.register(tool)
  }
})

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-hooks-claude-'))
  const workspace = join(dir, 'ws')
  const home = join(dir, 'home')
  mkdirSync(workspace, { recursive: true })
  mkdirSync(home, { recursive: true })
  const userSettingsPath = join(home, '.claude', 'settings.json')
  const paths = {
    user: userSettingsPath,
    project: join(workspace, '.claude', 'settings.json'),
    local: join(workspace, '.claude', 'settings.local.json')
  }
  const write = (which: keyof typeof paths, content: unknown): void => {
    mkdirSync(dirname(paths[which]), { recursive: true })
    writeFileSync(paths[which], typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  }
  if (options.user !== undefined) write('user', options.user)
  if (options.project !== undefined) write('project', options.project)
  if (options.local !== undefined) write('local', options.local)

  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  kernel.plugin(promptPlugin)
  kernel.plugin(builtinToolsPlugin, { extra: options.tools ?? [] })
  const seamHome = join(dir, 'seam')
  const ws = kernel.plugin(workspacePlugin, { root: workspace, trusted: options.trusted ?? true, seamHome })
  options.setup?.(kernel)
  const bridge = kernel.plugin(hooksClaude, { ...options.config, userSettingsPath, ...(options.seamHooks ? { seamHooks: options.seamHooks } : {}) })
  if (bridge.state !== 'active') throw new Error(`the bridge did not start: ${bridge.state} ${bridge.error?.message ?? ''}`)

  const store = new SessionStore(join(dir, 'sessions'))
  const model = new ScriptedModel(options.script ?? [])
  // As the host creates sessions: the header names the model.
  const log = store.create({ workspace, title: 'hooks test', model: { provider: model.provider, model: model.model } })
  const agent = new Agent({ kernel, log, model, workspace, settings: options.settings, source: options.source ?? 'startup' })
  // As the host's session hub does: every written event goes to the kernel's `session/appended`.
  log.onAppend((event) => kernel.emit('session/appended', log.id, event))

  return {
    dir,
    workspace,
    home,
    userSettingsPath,
    kernel,
    model,
    agent,
    log,
    store,
    bridge,
    async run(prompt) {
      agent.send(prompt)
      await agent.whenIdle()
    },
    events: <T extends SessionEventType>(type: T) => log.events.filter((e): e is SessionEventOf<T> => e.type === type),
    notices: () => log.events.flatMap((e) => (e.type === 'notice' ? [`${e.level}: ${e.text}`] : [])),
    service() {
      const service = kernel.getService('claudeHooks')
      if (!service) throw new Error('the bridge is not running')
      return service
    },
    trustItems: () => [...trustProviders(kernel)].flatMap((provide) => provide(workspace)),
    setTrusted(trusted) {
      ws.update({ root: workspace, trusted, seamHome })
    },
    write,
    pathOf: (which) => paths[which],
    file: (name) => join(dir, name),
    records(name) {
      const path = isAbsolute(name) ? name : join(workspace, name)
      if (!existsSync(path)) return []
      return readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    },
    async cleanup() {
      await agent.close('closed').catch(() => undefined)
      await log.close().catch(() => undefined)
      kernel.dispose()
      await rm(dir, { recursive: true, force: true })
    }
  }
}

/** A tool named like an MCP tool (`mcp__srv__echo`) that echoes its `text`. */
export const mcpEchoTool: ToolDefinition<{ text: string }> = {
  name: 'mcp__srv__echo',
  description: 'Echoes text (named like an MCP tool).',
  inputSchema: z.object({ text: z.string() }),
  concurrent: true,
  execute: (args) => ({ content: `echo: ${args.text}` })
}

/** A tool that fails with `Exit code 3` (for PostToolUseFailure). */
export const failingTool: ToolDefinition<{ why?: string }> = {
  name: 'Fails',
  description: 'Always fails.',
  inputSchema: z.object({ why: z.string().optional() }),
  execute: (args) => ({ content: `Exit code 3\n${args.why ?? 'boom'}`, isError: true })
}

/** The messages of the model's n-th request (0-based). */
export function requestMessages(model: ScriptedModel, n: number) {
  const request = model.requests[n]
  if (!request) throw new Error(`the model got ${model.requests.length} request(s), not ${n + 1}`)
  return request.messages
}

/** Every user-side text of a request, joined (context messages arrive there wrapped in <system-reminder>). */
export function userTexts(model: ScriptedModel, n: number): string {
  return requestMessages(model, n)
    .flatMap((message) => (message.role === 'user' ? [message.content] : []))
    .join('\n----\n')
}

export function toolMessages(model: ScriptedModel, n: number) {
  return requestMessages(model, n).flatMap((message) => (message.role === 'tool' ? [message] : []))
}

/** Polls `check` until it is true (for the file watcher); throws after `ms`, written for an idle machine and scaled by the run's time factor. */
export async function eventually(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + scaledTestMs(ms)
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** A model that calls Bash once with `command`, then ends its turn with `done`. */
export function bashThenDone(command = 'echo ran'): ScriptStep[] {
  return [{ toolCalls: [{ name: 'Bash', args: { command } }] }, { text: 'done' }]
}

/** The single tool message of the model's second request (after one Bash call). */
export function firstToolResult(model: ScriptedModel): { content: string; isError: boolean } {
  const [message] = toolMessages(model, 1)
  if (!message) throw new Error('no tool message in the second request')
  return { content: message.content, isError: message.isError }
}
