// A real Seam host for the subagents tests: `startLoopbackHost` of @seam/sdk/testing (a temp Seam
// home, HOME and workspace with the agent files a test writes, the loopback OpenAI-protocol model
// server, the whole base profile). Each agent has its own scripted conversation: a request is
// routed by its system prompt, and the reply is the next of that conversation (counted from the
// assistant messages the request already holds).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeOpenAI, type OpenAIRequestBody, type ScriptedTurn } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import { startLoopbackHost, type LoopbackHost } from '@seam/sdk/testing'
import type { SessionEvent, SessionEventOf } from '@seam/sdk'
import { afterEach } from 'vitest'

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

export type SubagentHost = LoopbackHost<FakeProviderServer<OpenAIRequestBody>>

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
  return startLoopbackHost({
    prefix: 'subagents',
    model: await startFakeOpenAI(Array.from({ length: 200 }, () => (body: OpenAIRequestBody) => route(options.conversations, body))),
    ...(options.files ? { files: options.files } : {}),
    ...(options.trusted !== undefined ? { trusted: options.trusted } : {}),
    ...(options.patch !== undefined ? { patch: options.patch } : {}),
    ...(options.settings ? { settings: options.settings } : {})
  })
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
