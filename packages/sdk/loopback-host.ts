// A whole Seam host for a plugin's end-to-end tests: a temp folder holding the Seam home, the
// user's home (its ~/.claude and ~/.codex) and the workspace, with the files a test writes; a
// loopback OpenAI-protocol server the test started as the model (the one double: it speaks the
// provider's real wire protocol); and `HostRuntime` with the base profile, headless, its
// approvals answered by the terminal answerer. The host closes the server with itself. While it runs, this process's HOME and CODEX_HOME
// are the test's (code that reads `os.homedir()` never sees the machine's), restored on close.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { SessionEvent } from '../../src-shared/session/events'
import type { ApprovalMode } from '../../src-shared/host/approval-modes'
import { HostRuntime } from '../../src-main/app/runtime'
import { terminalApprovalPlugin, type ApproveMode } from '../../src-main/cli/terminal-approval'

type LiveSession = Awaited<ReturnType<HostRuntime['sessions']['create']>>

/** A model server on this machine speaking the OpenAI Chat Completions protocol. */
export interface LoopbackModelServer {
  readonly url: string
  close(): Promise<void>
}

export interface LoopbackHostOptions<M extends LoopbackModelServer> {
  /** The model: started by the test; closed with the host (or at once if the host fails to start). */
  model: M
  /** The temp folder's name starts with this (`seam-<prefix>-`). */
  prefix?: string
  /**
   * Files to write, by path: `~/…` under the user's home, anything else under the temp root
   * (`<workspaceDir>/…` is in the workspace). Files ending in `.sh` are written executable.
   */
  files?: Record<string, string>
  /** The workspace folder's name under the root (default `workspace`). */
  workspaceDir?: string
  /** Make the workspace a repository root (an empty `.git` folder). */
  gitRoot?: boolean
  /** The Seam home: `home` (default, beside ~/.claude) or a folder of its own under the root. */
  seamHome?: 'home' | 'separate'
  /** CODEX_HOME (default `~/.codex`). */
  codexHomeDir?: string
  trusted?: boolean
  approve?: ApproveMode
  approvalMode?: ApprovalMode
  /** Seam's settings.json content (in the Seam home). */
  settings?: Record<string, unknown>
  /** A patch layer (YAML text) for the profile. */
  patch?: string
}

export interface LoopbackHost<M extends LoopbackModelServer = LoopbackModelServer> {
  runtime: HostRuntime
  model: M
  root: string
  workspace: string
  /** The user's home (HOME). */
  home: string
  seamHome: string
  codexHome: string
  /** Sends a prompt in a new session and waits until the session is idle. */
  run(prompt: string): Promise<{ session: LiveSession; events: SessionEvent[] }>
  close(): Promise<void>
}

export async function startLoopbackHost<M extends LoopbackModelServer>(options: LoopbackHostOptions<M>): Promise<LoopbackHost<M>> {
  const root = await mkdtemp(join(tmpdir(), `seam-${options.prefix ?? 'host'}-`))
  const home = join(root, 'home')
  const workspace = join(root, options.workspaceDir ?? 'workspace')
  const seamHome = options.seamHome === 'separate' ? join(root, 'seam-home') : home
  const codexHome = options.codexHomeDir !== undefined ? join(root, options.codexHomeDir) : join(home, '.codex')
  for (const dir of [home, workspace, seamHome, codexHome]) await mkdir(dir, { recursive: true })
  if (options.gitRoot) await mkdir(join(workspace, '.git'), { recursive: true })
  for (const [path, content] of Object.entries(options.files ?? {})) {
    const file = path.startsWith('~/') ? join(home, path.slice(2)) : join(root, path)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, content, { mode: file.endsWith('.sh') ? 0o755 : 0o644 })
  }
  if (options.settings) await writeFile(join(seamHome, 'settings.json'), JSON.stringify(options.settings, null, 2))
  let patchFile: string | undefined
  if (options.patch) {
    patchFile = join(root, 'patch.yml')
    await writeFile(patchFile, options.patch)
  }
  const previous = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME }
  process.env.HOME = home
  process.env.CODEX_HOME = codexHome
  const restoreEnv = (): void => {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  const model = options.model
  let runtime: HostRuntime
  try {
    runtime = await HostRuntime.start({
      mode: 'headless',
      env: { ...process.env, SEAM_HOME: seamHome },
      workspace,
      trustWorkspace: options.trusted ?? true,
      patchFile,
      ...(options.approvalMode !== undefined ? { approvalMode: options.approvalMode } : {}),
      provider: { provider: 'openai-compatible', baseUrl: model.url, model: 'm' },
      answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin(options.approve ?? 'allow') as never }
    })
  } catch (error) {
    await model.close()
    restoreEnv()
    await rm(root, { recursive: true, force: true })
    throw error
  }
  return {
    runtime,
    model,
    root,
    workspace,
    home,
    seamHome,
    codexHome,
    async run(prompt) {
      const session = await runtime.sessions.create(workspace)
      session.agent.send(prompt)
      await session.agent.whenIdle()
      return { session, events: [...session.log.events] }
    },
    async close() {
      await runtime.close()
      await model.close()
      restoreEnv()
      await rm(root, { recursive: true, force: true })
    }
  }
}
