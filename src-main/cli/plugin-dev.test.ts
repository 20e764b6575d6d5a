// `seam plugin dev PATH` against a running Seam, all real processes: web mode (`out/main/web.js`,
// driven over its WebSocket with its access token, as the UI drives it), `seam plugin dev` on a
// bundle scaffolded by `seam plugin new`, npm and Vite building it, and a loopback server that
// speaks OpenAI's protocol calling the bundle's tool. Editing the tool's source changes what the
// running Host's loop gets back; a syntax error is reported with file and line while the previous
// build keeps working; the fix reloads; ending the dev session unloads the bundle.
import { spawn, type ChildProcessByStdio } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startFakeOpenAI, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { ensureBuilt } from '../../test-support/built-cli'
import { scaledTestMs } from '../process/liveness'
import { seedSeamHome } from '../../test-support/packed-sdk'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SEAM_BIN = path.join(ROOT, 'bin/seam.mjs')
const NAME = 'dev-count'
const TOOL = 'DevCount'
const TOKEN = 'plugin-dev-test-token-0123456789abcdef'

type Child = ChildProcessByStdio<null, Readable, Readable>

/** A child process with its output collected, and a way to wait for a line. */
class Proc {
  out = ''
  constructor(readonly child: Child) {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.out += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.out += chunk))
  }
  async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const match = pattern.exec(this.out)
      if (match) return match
      if (this.child.exitCode !== null) throw new Error(`exited ${this.child.exitCode} before ${pattern}:\n${this.out}`)
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${this.out}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve()
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve())
      this.child.kill('SIGTERM')
    })
  }
}

function start(args: string[], cwd: string, env: NodeJS.ProcessEnv): Proc {
  return new Proc(spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }))
}

/** The UI's side of web mode: requests `{id, method, input}`, replies and pushes. */
class WireClient {
  private next = 1
  private readonly waiting = new Map<number, (reply: { ok: boolean; output?: unknown; error?: { message: string } }) => void>()
  readonly pushes: Array<{ push: string; payload: Record<string, unknown> }> = []
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; push?: string; payload?: Record<string, unknown>; ok: boolean }
      if (message.push) this.pushes.push({ push: message.push, payload: message.payload ?? {} })
      else if (message.id !== undefined) this.waiting.get(message.id)?.(message)
    })
  }
  static connect(port: number): Promise<WireClient> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { origin: `http://127.0.0.1:${port}`, cookie: `seam_token_${port}=${TOKEN}` } })
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WireClient(socket)))
      socket.once('error', reject)
    })
  }
  invoke<T = unknown>(method: string, input: unknown = {}): Promise<T> {
    const id = this.next++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) => (reply.ok ? resolve(reply.output as T) : reject(new Error(reply.error?.message))))
      this.socket.send(JSON.stringify({ id, method, input }))
    })
  }
  close(): void {
    this.socket.close()
  }
}

interface PluginRow {
  name: string
  state: string
  error?: string
  dev?: boolean
  source: string
}

let work: string
let home: string
let workspace: string
let bundle: string
let model: FakeProviderServer<OpenAIRequestBody>
let host: Proc
let dev: Proc | undefined
let wire: WireClient
let sessionId: string
const env = () => ({ ...process.env, SEAM_HOME: home, NO_COLOR: '1' })

/** One tool call per prompt, then a closing text: the model asks for the tool on every turn. */
const script: OpenAIScript = Array.from({ length: 8 }, (_, i) => [
  { toolCalls: [{ id: `call_${i}`, name: TOOL, args: { text: 'héllo' } }] },
  { text: `turn ${i} done` }
]).flat()

/** Sends a prompt through the running Host and returns what the tool gave back to the loop. */
async function toolResultOf(prompt: string): Promise<{ content: string; isError: boolean }> {
  const before = wire.pushes.length
  await wire.invoke('chat/send', { sessionId, content: prompt })
  const deadline = Date.now() + 30_000
  for (;;) {
    const events = wire.pushes.slice(before).filter((p) => p.push === 'session/appended').map((p) => p.payload.event as Record<string, unknown>)
    const end = events.find((e) => e.type === 'turn/end')
    if (end) {
      const result = events.find((e) => e.type === 'tool/result')
      if (!result) throw new Error(`the turn ended without a tool result: ${JSON.stringify(events.map((e) => e.type))}`)
      return { content: String(result.content), isError: Boolean(result.isError) }
    }
    if (Date.now() > deadline) throw new Error('the turn did not end')
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function row(): Promise<PluginRow | undefined> {
  return (await wire.invoke<PluginRow[]>('plugins/list')).find((p) => p.name === NAME)
}

async function editHost(edit: (source: string) => string): Promise<void> {
  const file = path.join(bundle, 'src/host.ts')
  await writeFile(file, edit(await readFile(file, 'utf8')))
}

beforeAll(async () => {
  await ensureBuilt()
  // Inside the repository (under out/), so the bundle resolves @seam/sdk, vite and zod from node_modules.
  await mkdir(path.join(ROOT, 'out'), { recursive: true })
  work = await mkdtemp(path.join(ROOT, 'out', 'plugin-dev-'))
  home = path.join(work, 'home')
  workspace = path.join(work, 'workspace')
  bundle = path.join(work, NAME)
  await mkdir(home)
  await mkdir(workspace)
  model = await startFakeOpenAI(script)
  await writeFile(
    path.join(home, 'settings.json'),
    JSON.stringify({ workspace, approvalMode: 'never-ask', provider: { provider: 'openai-compatible', baseUrl: model.url, model: 'fake-model' } })
  )
  // The SDK packed once for the run (test-support/packed-sdk.ts), where `seam plugin new` takes one packed earlier.
  await seedSeamHome(home)
  const created = start([SEAM_BIN, 'plugin', 'new', NAME], work, env())
  await new Promise((resolve) => created.child.once('exit', resolve))
  expect(created.child.exitCode, created.out).toBe(0)

  host = start([path.join(ROOT, 'out/main/web.js')], ROOT, { ...env(), PORT: '0', SEAM_WEB_TOKEN: TOKEN })
  const [, port] = await host.waitFor(/Seam web UI: http:\/\/127\.0\.0\.1:(\d+)\//, 30_000)
  wire = await WireClient.connect(Number(port))
  sessionId = (await wire.invoke<{ id: string }>('sessions/create', {})).id
}, scaledTestMs(180_000))

afterAll(async () => {
  wire?.close()
  await dev?.stop()
  await host?.stop()
  await model?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('seam plugin dev PATH with the web-mode Host running', () => {
  it('builds the bundle and the running Host loads it as a dev bundle: its tool works through the loop, its client entry is served', async () => {
    expect(await row()).toBeUndefined()
    dev = start([SEAM_BIN, 'plugin', 'dev', bundle], work, env())
    await dev.waitFor(/build 1: ok/)
    await dev.waitFor(/build 1: loaded by Seam \(web, pid \d+\)/)
    expect(await row()).toMatchObject({ name: NAME, state: 'active', dev: true, source: `dev: ${bundle}` })
    const entries = await wire.invoke<Array<{ name: string; url: string }>>('plugins/client-entries')
    expect(entries).toContainEqual({ name: NAME, url: `/plugins/${NAME}/dist/client.js?seam-dev=1` })
    expect(await toolResultOf('How long is héllo?')).toEqual({ content: '5 characters', isError: false })
  }, 120_000)

  it('an edit of the tool source rebuilds and reloads: the next call runs the new code, the client entry gets a new URL', async () => {
    await editHost((source) => source.replace('`${characters} characters`', '`${characters} chars (edited)`'))
    await dev!.waitFor(/build 2: loaded by Seam/)
    expect(await toolResultOf('again')).toEqual({ content: '5 chars (edited)', isError: false })
    const entries = await wire.invoke<Array<{ name: string; url: string }>>('plugins/client-entries')
    expect(entries.find((e) => e.name === NAME)?.url).toMatch(/\?seam-dev=2$/)
    // The tool is registered once, by the new instance (the old one was disposed).
    const tools = model.requests.at(-1)!.body.tools!.map((t) => t.function.name)
    expect(tools.filter((t) => t === TOOL)).toHaveLength(1)
  }, 120_000)

  it('a syntax error is reported with file and line in the terminal and the plugin manager; the previous build keeps working', async () => {
    await editHost((source) => source.replace('const characters = [...text].length', 'const characters = [...text].length +'))
    const [, place] = await dev!.waitFor(/build 3 failed: (src\/host\.ts:\d+:\d+)/)
    await dev!.waitFor(/build 3: not loaded by Seam \(web, pid \d+\): src\/host\.ts:\d+:\d+/)
    const current = await row()
    expect(current).toMatchObject({ state: 'active', dev: true })
    expect(current?.error).toContain(place)
    expect(await toolResultOf('still there?')).toEqual({ content: '5 chars (edited)', isError: false })
  }, 120_000)

  it('an error thrown at activation is placed in the source through the source map; the previous build stays', async () => {
    await editHost((source) => source.replace('const characters = [...text].length +', 'const characters = [...text].length').replace('    ctx.tools.register(tool)', "    throw new Error('refused to start')"))
    const [, line] = await dev!.waitFor(/build 4: not loaded by Seam \(web, pid \d+\): .*refused to start \(at src\/host\.ts:(\d+):\d+\)/)
    const source = (await readFile(path.join(bundle, 'src/host.ts'), 'utf8')).split('\n')
    expect(source[Number(line) - 1]).toContain("throw new Error('refused to start')")
    expect((await row())?.error).toContain('refused to start')
    expect(await toolResultOf('and now?')).toEqual({ content: '5 chars (edited)', isError: false })
  }, 120_000)

  it('the fix reloads, and ending the dev session unloads the bundle from the running Host', async () => {
    await editHost((source) => source.replace("    throw new Error('refused to start')", '    ctx.tools.register(tool)').replace('chars (edited)', 'chars (fixed)'))
    await dev!.waitFor(/build 5: loaded by Seam/)
    expect((await row())?.error).toBeUndefined()
    expect(await toolResultOf('fixed?')).toEqual({ content: '5 chars (fixed)', isError: false })

    await dev!.stop()
    expect(dev!.out).toContain(`dev bundle ${NAME}: ended`)
    const deadline = Date.now() + 10_000
    while ((await row()) !== undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(await row()).toBeUndefined()
  }, 120_000)
})

describe('seam run --plugin-dev PATH', () => {
  const run = async (server: FakeProviderServer<OpenAIRequestBody>) => {
    const proc = start(
      [SEAM_BIN, 'run', '--json', '--plugin-dev', bundle, '--approve', 'allow', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'fake-model', 'count héllo'],
      workspace,
      env()
    )
    await new Promise((resolve) => proc.child.once('exit', resolve))
    return proc
  }

  it('builds the bundle and runs the prompt with it loaded; a build error stops the run before the prompt, naming file and line', async () => {
    const server = await startFakeOpenAI([{ toolCalls: [{ id: 'call_run', name: TOOL, args: { text: 'héllo' } }] }, { text: 'Five.' }])
    try {
      await editHost((source) => source.replace(/`\$\{characters\} [^`]*`/, '`${characters} chars (run)`'))
      const ok = await run(server)
      expect(ok.child.exitCode, ok.out).toBe(0)
      expect(ok.out).toContain('"content":"5 chars (run)"')

      await editHost((source) => source.replace('const characters = [...text].length', 'const characters = [...text].length +'))
      const broken = await run(server)
      expect(broken.child.exitCode).toBe(1)
      expect(broken.out).toMatch(/seam: --plugin-dev .*: src\/host\.ts:\d+:\d+: /)
      expect(server.requests).toHaveLength(2)
    } finally {
      await server.close()
    }
  }, 120_000)
})
