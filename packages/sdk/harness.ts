// `createTestHost`: a plugin's test drives the real Host loop (kernel, tool pipeline, built-in
// tools, system prompt, agent, a session log on disk) with a scripted model, the one double: it
// replays scripted replies and records every request. The `workspace` and `rpc` services are
// the Host's contracts, provided here for a temporary workspace.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { Kernel, definePlugin, type Plugin, type PluginRuntime } from '../../src-shared/kernel'
import type { ToolDefinition } from '../../src-shared/host/tools'
import type { RpcService, TrustItem, WorkspaceService } from '../../src-shared/host/workspace'
import { createTurnPermissions } from '../../src-shared/host/services'
import { createSlashCommandRegistry } from '../../src-shared/host/slash-commands'
import type { SessionEventOf, SessionEventType } from '../../src-shared/session/events'
import { Agent, promptPlugin, type AgentSettingsInput } from '../../src-main/agent'
import { toolsPlugin } from '../../src-main/tools'
import { builtinTools } from '../../src-main/tools/builtin'
import { SessionStore, type SessionLog } from '../../src-main/session/store'
import { ScriptedModel, type Script } from '../../test-support/scripted-model'

/**
 * A plugin under test, whatever its config type: `Plugin<unknown>` takes every object plugin
 * (`definePlugin` without a schema gives `PluginObject<unknown>`), `Plugin<never>` the others.
 */
export type TestedPlugin = Plugin<never> | Plugin<unknown>

export interface TestHostOptions {
  /** The plugins under test, applied in order after the Host's own parts: a plugin, or [plugin, config]. */
  plugins?: ReadonlyArray<TestedPlugin | readonly [TestedPlugin, unknown]>
  /** What the model answers, request by request. */
  script?: Script
  /** Whether the workspace is trusted (default true). */
  trusted?: boolean
  /** Register Read, Write, Edit, Bash, Glob and Grep (default true). */
  builtinTools?: boolean
  settings?: AgentSettingsInput
}

export interface TestHost {
  /** A fresh folder: the session's working directory. */
  readonly workspace: string
  readonly kernel: Kernel
  readonly model: ScriptedModel
  readonly agent: Agent
  readonly log: SessionLog
  /** The runtimes of `options.plugins`, in order. */
  readonly plugins: PluginRuntime[]
  /** Sends a prompt and waits until the turn (and any it started) is over. */
  run(prompt: string): Promise<void>
  events<T extends SessionEventType>(type: T): SessionEventOf<T>[]
  /** Calls an RPC method a plugin registered, as its client part would. */
  rpc(plugin: string, method: string, input?: unknown): Promise<unknown>
  trustItems(): TrustItem[]
  cleanup(): Promise<void>
}

interface Shared {
  rpc: Map<string, (input: unknown) => unknown>
  trust: Set<(workspace: string) => TrustItem[]>
}

const hostServices = definePlugin({
  name: 'test-host-services',
  schema: z.object({ root: z.string(), trusted: z.boolean(), seamHome: z.string() }),
  apply(ctx, config) {
    const shared = sharedOf.get(ctx.kernel)!
    const workspace: WorkspaceService = {
      root: config.root,
      trusted: config.trusted,
      seamHome: config.seamHome,
      contributeTrustItems(owner, items) {
        shared.trust.add(items)
        return owner.onDispose(() => shared.trust.delete(items))
      },
      // A trusted test workspace has approved everything it declares.
      isApproved: () => config.trusted,
      itemsChanged() {},
      approveItems: () => {}
    }
    const rpc: RpcService = {
      register(owner, method, handler) {
        const key = `${owner.name}/${method}`
        shared.rpc.set(key, handler)
        return owner.onDispose(() => shared.rpc.delete(key))
      }
    }
    ctx.provide('workspace', workspace)
    ctx.provide('rpc', rpc)
    ctx.provide('turnPermissions', createTurnPermissions())
    ctx.provide('slashCommands', createSlashCommandRegistry())
  }
})
const sharedOf = new WeakMap<Kernel, Shared>()

const builtinToolsPlugin = definePlugin({
  name: 'test-builtin-tools',
  inject: ['tools'],
  apply(ctx) {
    for (const tool of builtinTools({}, undefined, () => ctx.maybe('backgroundTasks'))) ctx.tools.register(tool as ToolDefinition<unknown>)
  }
})

export async function createTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seam-test-host-'))
  const workspace = path.join(dir, 'workspace')
  await mkdir(workspace)
  const kernel = new Kernel()
  sharedOf.set(kernel, { rpc: new Map(), trust: new Set() })
  kernel.plugin(toolsPlugin)
  kernel.plugin(promptPlugin)
  if (options.builtinTools !== false) kernel.plugin(builtinToolsPlugin)
  kernel.plugin(hostServices, { root: workspace, trusted: options.trusted ?? true, seamHome: path.join(dir, 'seam-home') })
  const plugins: PluginRuntime[] = []
  for (const entry of options.plugins ?? []) {
    const [plugin, config] = Array.isArray(entry) ? (entry as readonly [Plugin<never>, unknown]) : [entry as Plugin<never>, undefined]
    const runtime = kernel.plugin(plugin, config as never)
    if (runtime.state === 'failed') throw new Error(`plugin failed to start: ${runtime.error?.message ?? 'unknown error'}`)
    plugins.push(runtime)
  }
  const store = new SessionStore(path.join(dir, 'sessions'))
  const log = store.create({ workspace, title: 'plugin test' })
  const model = new ScriptedModel(options.script ?? [])
  const agent = new Agent({ kernel, log, model, workspace, settings: options.settings, source: 'startup' })
  const shared = sharedOf.get(kernel)!
  return {
    workspace,
    kernel,
    model,
    agent,
    log,
    plugins,
    async run(prompt) {
      agent.send(prompt)
      await agent.whenIdle()
    },
    events: <T extends SessionEventType>(type: T) => log.events.filter((e): e is SessionEventOf<T> => e.type === type),
    async rpc(plugin, method, input) {
      const handler = shared.rpc.get(`${plugin}/${method}`)
      if (!handler) throw new Error(`no RPC method ${method} registered by ${plugin}`)
      return handler(input)
    },
    trustItems: () => [...shared.trust].flatMap((items) => items(workspace)),
    async cleanup() {
      await agent.close('closed').catch(() => undefined)
      await log.close().catch(() => undefined)
      kernel.dispose()
      await rm(dir, { recursive: true, force: true })
    }
  }
}
