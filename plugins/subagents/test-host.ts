// A real Seam host for the subagents tests: a temp Seam home, HOME and workspace (with the agent
// files a test writes), the loopback OpenAI-protocol model server, and the whole base profile
// (the subagents plugin, the hook bridges, the built-in tools). Each agent has its own scripted
// conversation: a request is routed by its system prompt, and the reply is the next of that
// conversation (counted from the assistant messages the request already holds).
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { startFakeOpenAI, type OpenAIRequestBody, type ScriptedTurn } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import { HostRuntime, terminalApprovalPlugin } from '@seam/sdk/testing'
import type { SessionEvent, SessionEventOf } from '@seam/sdk'
import { afterEach } from 'vitest'

type LiveSession = Awaited<ReturnType<HostRuntime['sessions']['create']>>

/** A conversation: picked when the system prompt contains `marker`; `turns[n]` answers its n-th request. */
export interface Conversation {
  marker: string
  turns: Array<ScriptedTurn | ((body: OpenAIRequestBody) => ScriptedTurn)>
}

export interface SubagentHostOptions {
  /** Files to write, relative to the test's root: `workspace/...`, `home/...`. */
  files?: Record<string, string>
  /** The main agent's conversation has marker '' (matched last). */
  conversations: Conversation[]
  trusted?: boolean
  patch?: string
  settings?: Record<string, unknown>
}

export interface SubagentHost {
  runtime: HostRuntime
  model: FakeProviderServer<OpenAIRequestBody>
  root: string
  workspace: string
  home: string
  run(prompt: string): Promise<{ session: LiveSession; events: SessionEvent[] }>
  close(): Promise<void>
}

function systemOf(body: OpenAIRequestBody): string {
  const first = body.messages[0]
  return first?.role === 'system' && typeof first.content === 'string' ? first.content : ''
}

/** The scripted reply for `body`: its conversation's next turn. */
export function route(conversations: readonly Conversation[], body: OpenAIRequestBody): ScriptedTurn {
  const system = systemOf(body)
  const conversation = conversations.find((c) => c.marker !== '' && system.includes(c.marker)) ?? conversations.find((c) => c.marker === '')
  if (!conversation) return { text: `no conversation for system prompt: ${system.slice(0, 80)}` }
  const index = body.messages.filter((m) => m.role === 'assistant').length
  const turn = conversation.turns[index]
  if (turn === undefined) return { text: `conversation "${conversation.marker}" has no turn ${index}` }
  return typeof turn === 'function' ? turn(body) : turn
}

export async function startSubagentHost(options: SubagentHostOptions): Promise<SubagentHost> {
  const root = await mkdtemp(join(tmpdir(), 'seam-subagents-'))
  const home = join(root, 'home')
  const workspace = join(root, 'workspace')
  await mkdir(home, { recursive: true })
  await mkdir(workspace, { recursive: true })
  for (const [file, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(root, file)), { recursive: true })
    // Scripts (hooks) are written executable.
    await writeFile(join(root, file), content, { mode: file.endsWith('.sh') ? 0o755 : 0o644 })
  }
  if (options.settings) await writeFile(join(home, 'settings.json'), JSON.stringify(options.settings, null, 2))
  let patchFile: string | undefined
  if (options.patch) {
    patchFile = join(root, 'patch.yml')
    await writeFile(patchFile, options.patch)
  }
  // ~/.claude and ~/.codex come from the test's own folder, never the machine's.
  const previous = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME }
  process.env.HOME = home
  process.env.CODEX_HOME = join(home, '.codex')
  const model = await startFakeOpenAI(Array.from({ length: 200 }, () => (body: OpenAIRequestBody) => route(options.conversations, body)))
  const runtime = await HostRuntime.start({
    mode: 'headless',
    env: { ...process.env, SEAM_HOME: home },
    workspace,
    trustWorkspace: options.trusted ?? true,
    patchFile,
    provider: { provider: 'openai-compatible', baseUrl: model.url, model: 'm' },
    answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('allow') as never }
  })
  return {
    runtime,
    model,
    root,
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
      for (const [key, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
      await rm(root, { recursive: true, force: true })
    }
  }
}

/** A test file's host starter: each host started is closed after its test. */
export function hostPerTest(): (options: SubagentHostOptions) => Promise<SubagentHost> {
  let current: SubagentHost | undefined
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  return async (options) => (current = await startSubagentHost(options))
}

export function ofType<T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T): SessionEventOf<T>[] {
  return events.filter((event): event is SessionEventOf<T> => event.type === type)
}

/** A hook script that appends its stdin (one JSON line) to `<root>/home/records/<name>`, then runs `then`. */
export function recordingHook(name: string, then = ''): string {
  return ['#!/bin/sh', 'dir="$(dirname "$0")/../../records"', 'mkdir -p "$dir"', `cat >> "$dir/${name}"`, `echo >> "$dir/${name}"`, then, ''].join('\n')
}

/** The inputs a recordingHook got, in order. */
export function hookRecords(root: string, name: string): Array<Record<string, unknown>> {
  const file = join(root, 'home', 'records', name)
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** The working directory a (sub)agent's request names in its environment details. */
export function cwdOf(body: { messages: Array<{ content?: unknown }> }): string {
  const match = /Working directory: (.*)/.exec(String(body.messages[0].content))
  return match ? match[1].trim() : ''
}
