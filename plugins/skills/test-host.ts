// A real Seam host for the skills tests: `startLoopbackHost` of @seam/sdk/testing with a temp Seam
// home, user home and workspace (a git repository) holding the SKILL.md folders a test writes, the
// loopback OpenAI-protocol model server playing a script, and the whole base profile. Nothing of
// Seam is replaced.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { startFakeOpenAI, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import { startLoopbackHost, type LoopbackHost } from '@seam/sdk/testing'

export type SkillsHost = LoopbackHost<FakeProviderServer<OpenAIRequestBody>>

export interface SkillsHostOptions {
  /** Files by path: `~/…` in the user's home, `ws/…` in the workspace, else under the temp root. */
  files: Record<string, string>
  script: OpenAIScript
  trusted?: boolean
  /** The model's context window the fake server enforces. */
  contextWindow?: number
}

export async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

/** A SKILL.md with front matter (YAML text) and a body. */
export function skillFile(front: string, body: string): string {
  return `---\n${front.trim()}\n---\n${body}`
}

export async function startSkillsHost(options: SkillsHostOptions): Promise<SkillsHost> {
  return startLoopbackHost({
    prefix: 'skills',
    model: await startFakeOpenAI(options.script, options.contextWindow ? { contextWindow: options.contextWindow } : {}),
    files: options.files,
    workspaceDir: 'ws',
    gitRoot: true,
    seamHome: 'separate',
    ...(options.trusted !== undefined ? { trusted: options.trusted } : {})
  })
}

/** The text of a request's messages of one role, in order (content parts joined). */
export function messageTexts(body: OpenAIRequestBody, role: string): string[] {
  return body.messages
    .filter((m) => m.role === role)
    .map((m) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((part) => (part as { text?: string }).text ?? '').join('') : ''))
}
