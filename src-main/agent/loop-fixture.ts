// Test-only: a real kernel with the real tools and prompt plugins, a real session store in a
// temp dir and the scripted model, wired to an Agent. Used by the agent tests and the benchmark.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { Kernel } from '../../src-shared/kernel'
import type { ToolRegistry } from '../../src-shared/host/services'
import type { ToolDefinition, ToolExec } from '../../src-shared/host/tools'
import type { SessionEvent, SessionEventOf, SessionEventType } from '../../src-shared/session/events'
import { ScriptedModel, type Script } from '../../test-support/scripted-model'
import { SessionStore, type SessionLog } from '../session/store'
import { toolsPlugin } from '../tools'
import { Agent, type AgentOptions } from './agent'
import type { AgentSettingsInput } from './settings'
import { promptPlugin } from './system-prompt'
import { childTurnsPlugin } from './child'

export interface LoopFixture {
  dir: string
  kernel: Kernel
  tools: ToolRegistry
  store: SessionStore
  log: SessionLog
  model: ScriptedModel
  agent: Agent
  /** Event types in log order. */
  types(): SessionEventType[]
  ofType<T extends SessionEventType>(type: T): SessionEventOf<T>[]
  /** Closes the agent and the log and removes the temp dir. */
  cleanup(): Promise<void>
}

export interface LoopFixtureOptions {
  script?: Script
  settings?: AgentSettingsInput
  /** Runs on the kernel before the agent exists (register tools, listeners). */
  setup?: (kernel: Kernel, tools: ToolRegistry) => void
  keepRequests?: boolean
  source?: AgentOptions['source']
  /** Config of the tools plugin. */
  toolsConfig?: unknown
}

export async function createLoopFixture(options: LoopFixtureOptions = {}): Promise<LoopFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-agent-'))
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin, options.toolsConfig)
  kernel.plugin(promptPlugin)
  kernel.plugin(childTurnsPlugin)
  const tools = kernel.getService('tools')
  if (!tools) throw new Error('the tools plugin did not provide the tools service')
  options.setup?.(kernel, tools)
  const store = new SessionStore(join(dir, 'sessions'))
  const log = await store.create({ workspace: dir, title: 'test' })
  const model = new ScriptedModel(options.script ?? [], { keepRequests: options.keepRequests })
  const agent = new Agent({ kernel, log, model, workspace: dir, settings: options.settings, source: options.source ?? 'startup' })
  return {
    dir,
    kernel,
    tools,
    store,
    log,
    model,
    agent,
    types: () => log.events.map((e) => e.type),
    ofType: <T extends SessionEventType>(type: T) => log.events.filter((e): e is SessionEventOf<T> => e.type === type),
    async cleanup() {
      await agent.close('closed').catch(() => undefined)
      await log.close().catch(() => undefined)
      kernel.dispose()
      await rm(dir, { recursive: true, force: true })
    }
  }
}

/** A tool that answers at once with `ok:<name>`, or runs `body` when given. */
export function testTool(
  name: string,
  options: { concurrent?: boolean; sideEffects?: boolean; body?: (args: { ms?: number; tag?: string }, exec: ToolExec) => Promise<string> | string } = {}
): ToolDefinition<{ ms?: number; tag?: string }> {
  return {
    name,
    description: `test tool ${name}`,
    inputSchema: z.object({ ms: z.number().optional(), tag: z.string().optional() }),
    concurrent: options.concurrent,
    sideEffects: options.sideEffects,
    async execute(args, exec) {
      const content = options.body ? await options.body(args, exec) : `ok:${name}${args.tag ? `:${args.tag}` : ''}`
      return { content }
    }
  }
}

/** Sleeps `ms`, rejecting when `signal` aborts (like a well-behaved tool). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'))
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(new Error('aborted'))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export function lastOf<T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T): SessionEventOf<T> | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === type) return events[i] as SessionEventOf<T>
  return undefined
}
