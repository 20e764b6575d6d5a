// Worktree sessions (issue 32). (1) Through the built `seam run` against the loopback OpenAI-wire
// server, on a repository of 10,000 committed files made here: the time from starting the
// command to the model's first request for a session in a new worktree (`--worktree`: git checks
// out 10,000 files) against a plain session in the same repository, median of alternating rounds.
// (2) In Chromium against the built web host: four, then eight worktree sessions streaming at once
// (started from the Board, each answer 4,000 characters per session in 4-character chunks 5 ms
// apart, so the first still streams when the last starts), the longest main-thread task while they
// stream, watching the Board and then one of them in the chat, against the Board idle for as long
// once they have ended. The UI's bound for a streaming frame is 50 ms.
import { spawn, type ChildProcess } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { startFakeOpenAI, type ScriptedTurn } from '../test-support/fake-openai.mjs'
import { findChromium } from '../scripts/chromium.mjs'
import { line, type BenchLine } from './measure'
import { startHost, stopProcess } from './ui-support/host'
import { traceTasks } from './ui-support/trace'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CLI = join(root, 'bin', 'seam.mjs')
const WEB_ENTRY = join(root, 'out', 'main', 'web.js')
const found = findChromium()
const CHROMIUM = found !== undefined && !('error' in found) ? found.path : '/usr/bin/chromium'
const FILES = 10_000
const ROUNDS = 3
/** How many sessions stream at once in each round. */
const STREAM_ROUNDS = [4, 8]
/** Characters each answer streams, per session of the round (4 sessions: 16,000). */
const STREAM_CHARS_PER_SESSION = 4_000
/** How long each view is traced while they stream, and idle after. */
const TRACE_MS = 3_000

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' })
}

function makeRepo(dir: string, files: number): void {
  mkdirSync(dir, { recursive: true })
  git(dir, 'init', '--quiet', '--initial-branch=main')
  git(dir, 'config', 'user.name', 'Bench')
  git(dir, 'config', 'user.email', 'bench@example.com')
  for (let i = 0; i < files; i++) {
    const folder = join(dir, 'src', `m${Math.floor(i / 100)}`)
    if (i % 100 === 0) mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, `f${i}.ts`), `export const value${i} = ${i}\n`)
  }
  git(dir, 'add', '--all')
  git(dir, 'commit', '--quiet', '-m', 'files')
}

/** ms from spawning `seam run` to the model's first request (the server answers at once). */
async function timeToFirstRequest(args: string[], cwd: string, env: NodeJS.ProcessEnv, firstRequest: () => Promise<number>): Promise<number> {
  const start = Date.now()
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: 'ignore' })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const at = await firstRequest()
  const code = await exited
  if (code !== 0) throw new Error(`bench worktrees: seam ${args.join(' ')} exited ${code}`)
  return at - start
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

export async function run(): Promise<BenchLine[]> {
  if (!existsSync(WEB_ENTRY)) throw new Error(`${WEB_ENTRY} is missing: build first (npm run build)`)
  const temp = await mkdtemp(join(tmpdir(), 'seam-bench-worktrees-'))
  const lines: BenchLine[] = []
  try {
    // (1) Time to the first model request.
    const repo = join(temp, 'big')
    makeRepo(repo, FILES)
    let waiting: ((at: number) => void) | undefined
    const firstRequest = () => new Promise<number>((done) => (waiting = done))
    const fake = await startFakeOpenAI(
      Array.from({ length: ROUNDS * 2 }, () => () => {
        waiting?.(Date.now())
        return { text: 'ok' } satisfies ScriptedTurn
      })
    )
    const env = { ...process.env, HOME: join(temp, 'home'), SEAM_HOME: join(temp, 'seam'), FAKE_KEY: 'sk-bench' }
    const flags = ['--workspace', repo, '--provider', 'openai-compatible', '--base-url', fake.url, '--api-key-env', 'FAKE_KEY', '--model', 'bench-model', '--approve', 'allow']
    const plain: number[] = []
    const worktree: number[] = []
    try {
      for (let round = 0; round < ROUNDS; round++) {
        plain.push(await timeToFirstRequest(['run', ...flags, 'hello'], repo, env, firstRequest))
        worktree.push(await timeToFirstRequest(['run', ...flags, `--worktree=bench${round}`, 'hello'], repo, env, firstRequest))
      }
    } finally {
      await fake.close()
    }
    lines.push(line('worktrees', `seam run to the first model request, ${FILES} files, in a new worktree (vs a plain session)`, median(worktree), 'ms', median(plain)))

    // (2) Four, then eight sessions streaming at once, watching the Board.
    for (const streams of STREAM_ROUNDS) lines.push(...(await streamingBoard(temp, streams)))
  } finally {
    await rm(temp, { recursive: true, force: true })
  }
  return lines
}

async function streamingBoard(temp: string, streams: number): Promise<BenchLine[]> {
  const workspace = join(temp, `ui-repo-${streams}`)
  makeRepo(workspace, 10)
  const answer: ScriptedTurn = { text: 'x'.repeat(STREAM_CHARS_PER_SESSION * streams), chunkSize: 4, chunkDelayMs: 5 }
  const fake = await startFakeOpenAI(Array.from({ length: streams }, () => answer))
  const seamHome = join(temp, `ui-seam-${streams}`)
  mkdirSync(seamHome, { recursive: true })
  mkdirSync(join(temp, `ui-home-${streams}`), { recursive: true })
  writeFileSync(join(seamHome, 'settings.json'), JSON.stringify({ workspace, provider: { provider: 'openai-compatible', baseUrl: fake.url, model: 'bench-model' } }))
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu', '--disable-quic'] })
  let host: ChildProcess | undefined
  try {
    const started = await startHost(WEB_ENTRY, root, { ...process.env, HOME: join(temp, `ui-home-${streams}`), SEAM_HOME: seamHome, PORT: '0', SEAM_WEB_HOST: '127.0.0.1' })
    host = started.child
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
    await page.goto(started.url)
    const boardButton = page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Board', exact: true })
    for (let i = 0; i < streams; i++) {
      await boardButton.click()
      const form = page.getByRole('form', { name: 'New session in a worktree' })
      await form.getByLabel('Worktree name').fill(`stream${i}`)
      await form.getByRole('button', { name: 'New session in a worktree' }).click()
      const box = page.getByRole('textbox', { name: 'Message' })
      await box.fill('stream please')
      await box.press('Enter')
      await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 30_000 })
    }
    // All of them stream now. Watching the Board, then one of them in the chat while the others go on.
    await boardButton.click()
    const onBoard = await traceTasks(browser, page, () => page.waitForTimeout(TRACE_MS))
    const runningOnBoard = await page.locator('tr[data-status="running"]').count()
    await page.locator('tr[data-status="running"]').first().getByRole('button', { name: 'Open' }).click()
    const inChat = await traceTasks(browser, page, () => page.waitForTimeout(TRACE_MS))
    // The baseline: the same views once every stream has ended, traced as long.
    await boardButton.click()
    await page.locator('tr[data-status="running"]').first().waitFor({ state: 'detached', timeout: 240_000 })
    const idleBoard = await traceTasks(browser, page, () => page.waitForTimeout(TRACE_MS))
    const detail = `${runningOnBoard} of ${streams} still streaming when the trace ended`
    return [
      line('worktrees', `longest main-thread task watching the Board, ${streams} worktree sessions streaming (${detail}; vs the Board idle), wall`, onBoard.tasks.longest, 'ms', idleBoard.tasks.longest, { bound: 50 }),
      line('worktrees', `the same, CPU`, onBoard.tasks.longestCpu, 'ms', idleBoard.tasks.longestCpu, { bound: 50 }),
      line('worktrees', `longest main-thread task watching one of ${streams} streaming sessions in the chat (vs the Board idle), wall`, inChat.tasks.longest, 'ms', idleBoard.tasks.longest, { bound: 50 }),
      line('worktrees', `the same, CPU`, inChat.tasks.longestCpu, 'ms', idleBoard.tasks.longestCpu, { bound: 50 })
    ]
  } finally {
    if (host) await stopProcess(host)
    await browser.close()
    await fake.close()
  }
}
