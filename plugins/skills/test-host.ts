// A real Seam host for the skills tests: a temp Seam home, user home and workspace (a git
// repository) with SKILL.md folders written by the test, the loopback OpenAI-protocol model server
// playing a script, and the whole base profile (the skills plugin included). Nothing of Seam is
// replaced.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { startFakeOpenAI, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import { HostRuntime, terminalApprovalPlugin } from '@seam/sdk/testing'

export interface SkillsHost {
  runtime: HostRuntime
  model: FakeProviderServer<OpenAIRequestBody>
  root: string
  workspace: string
  home: string
  close(): Promise<void>
}

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
  const root = await mkdtemp(join(tmpdir(), 'seam-skills-'))
  const home = join(root, 'home')
  const workspace = join(root, 'ws')
  await mkdir(join(workspace, '.git'), { recursive: true })
  await mkdir(home, { recursive: true })
  for (const [path, text] of Object.entries(options.files)) {
    await put(path.startsWith('~/') ? join(home, path.slice(2)) : join(root, path), text)
  }
  const model = await startFakeOpenAI(options.script, options.contextWindow ? { contextWindow: options.contextWindow } : {})
  const runtime = await HostRuntime.start({
    mode: 'headless',
    // The user-level folders (~/.claude, ~/.agents, ~/.codex) are the test's, never the machine's.
    env: { ...process.env, SEAM_HOME: join(root, 'seam-home'), HOME: home, CODEX_HOME: join(home, '.codex') },
    workspace,
    trustWorkspace: options.trusted ?? true,
    provider: { provider: 'openai-compatible', baseUrl: model.url, model: 'm' },
    answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('allow') as never }
  })
  return {
    runtime,
    model,
    root,
    workspace,
    home,
    async close() {
      await runtime.close()
      await model.close()
      await rm(root, { recursive: true, force: true })
    }
  }
}

/** The text of a request's messages of one role, in order (content parts joined). */
export function messageTexts(body: OpenAIRequestBody, role: string): string[] {
  return body.messages
    .filter((m) => m.role === role)
    .map((m) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((part) => (part as { text?: string }).text ?? '').join('') : ''))
}
