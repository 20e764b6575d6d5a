// `seam plugin dev PATH`: the author's live loop. Builds the bundle in PATH with its own build
// script (`npm run build`, with SEAM_PLUGIN_DEV=1 so @seam/sdk/build writes source maps),
// registers it as a dev bundle in the Seam home (src-main/plugins/bundles/dev-bundles.ts), then
// rebuilds on every change of its sources. Every Seam running on that home (the desktop app, web
// mode, `seam run`) loads the dev bundle and reloads it on each build; what each one made of a
// build (loaded, or the error with file:line:column) is printed here. Ctrl-C ends the session and
// the Hosts go back to the installed bundle of that name, if any.
import { watch, type FSWatcher } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs, stripVTControlCharacters } from 'node:util'
import { resolveSeamHome } from '../app/paths'
import { spawnGuarded } from '../process/guarded-spawn'
import { devBundlesDir, readHostStates, registerDevBundle, unregisterDevBundle, type DevEntry } from '../plugins/bundles/dev-bundles'
import { z } from 'zod'
import { formatZodError } from '../../src-shared/validation'
import { packageNameSchema } from '../plugins/bundles/manifest'
import { UsageError } from './usage-error'

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env?: NodeJS.ProcessEnv }

export const DEV_USAGE = 'seam plugin dev PATH   build the bundle in PATH, load it in every running Seam, rebuild and reload on change'

export interface BuildResult {
  ok: boolean
  /** What the build printed (colours removed). */
  output: string
  /** When it failed: the first error, as `file:line:column: message` when the output names a place. */
  error?: string
}

/** Runs the bundle's own build script with source maps on. */
export async function buildDevBundle(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<BuildResult> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> }
  if (typeof manifest.scripts?.build !== 'string') {
    return { ok: false, output: '', error: 'package.json has no "build" script (seam plugin new writes one: node build.mjs, using @seam/sdk/build)' }
  }
  return new Promise((resolve, reject) => {
    // Its own process group (npm, its shell, the bundler), killed with Seam.
    const guarded = spawnGuarded('npm', ['run', 'build', '--silent'], {
      cwd: dir,
      env: { ...env, SEAM_PLUGIN_DEV: '1', NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const { child } = guarded
    let output = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.on('error', (error) => {
      guarded.release()
      reject(error)
    })
    child.on('close', (code) => {
      guarded.release()
      const text = stripVTControlCharacters(output)
      resolve(code === 0 ? { ok: true, output: text } : { ok: false, output: text, error: buildError(text, dir) ?? `the build script exited with ${code}` })
    })
  })
}

/** The first error of a build's output, placed: `src/host.ts:15:5: Unexpected token`. */
export function buildError(output: string, dir: string): string | undefined {
  const lines = output.split('\n').map((line) => line.trimEnd())
  const place = /((?:[\w@.-]+\/|\/)?[\w@./-]+\.(?:tsx?|mts|cts|jsx?|mjs|cjs|json|css)):(\d+):(\d+)/
  const start = lines.findIndex((line) => /Build failed with \d+ error/.test(line))
  const body = start >= 0 ? lines.slice(start + 1) : lines
  const messageLine = body.find((line) => line.trim() !== '' && !/^\s*at\s/.test(line))
  const located = body.find((line) => place.test(line))
  const match = located ? place.exec(located) : null
  if (!messageLine) return undefined
  const message = messageLine.replace(/^\s*\[[^\]]+\]\s*/, '').trim()
  if (!match) return message
  const file = path.isAbsolute(match[1]) ? path.relative(dir, match[1]) : match[1]
  return `${file}:${match[2]}:${match[3]}: ${message}`
}

async function bundleName(dir: string): Promise<string> {
  const file = path.join(dir, 'package.json')
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new UsageError(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found (PATH must be a bundle folder)' : (error as Error).message}`)
  }
  const parsed = z.object({ name: packageNameSchema }).safeParse(raw)
  if (!parsed.success) throw new UsageError(formatZodError(file, parsed.error))
  return parsed.data.name
}

/** Source changes worth a rebuild: not the build's output, dependencies or packed files. */
function isSourceChange(file: string | null): boolean {
  if (!file) return true
  const first = file.split(path.sep)[0]
  return !['dist', 'node_modules', '.git'].includes(first) && !file.endsWith('.tgz') && !file.endsWith('~') && !/\.swp$/.test(file)
}

export interface DevSessionOptions {
  dir: string
  env?: NodeJS.ProcessEnv
  /** Each build's outcome (the CLI prints it; `seam run --plugin-dev` hands it to its own Host). */
  onBuild: (entry: DevEntry, result: BuildResult) => Promise<void> | void
  debounceMs?: number
}

/** Builds once, then on every source change (one build at a time; changes during a build queue one more). */
export class DevSession {
  private build = 0
  private watcher?: FSWatcher
  private timer?: NodeJS.Timeout
  private running: Promise<void> = Promise.resolve()
  private pending = false
  private closed = false
  name = ''

  constructor(private readonly options: DevSessionOptions) {}

  async start(): Promise<DevEntry> {
    // Only the name now: the entries are checked (as install checks them) once they are built.
    this.name = await bundleName(this.options.dir)
    const first = await this.rebuild()
    this.watcher = watch(this.options.dir, { recursive: true }, (_event, file) => {
      if (this.closed || !isSourceChange(file === null ? null : String(file))) return
      if (this.timer) clearTimeout(this.timer)
      this.timer = setTimeout(() => this.schedule(), this.options.debounceMs ?? 150)
    })
    return first
  }

  private schedule(): void {
    if (this.pending) return
    this.pending = true
    this.running = this.running.then(async () => {
      this.pending = false
      if (!this.closed) await this.rebuild()
    })
  }

  private async rebuild(): Promise<DevEntry> {
    const result = await buildDevBundle(this.options.dir, this.options.env)
    this.build += 1
    const entry: DevEntry = {
      dir: this.options.dir,
      name: this.name,
      build: this.build,
      ok: result.ok,
      ...(result.error ? { error: result.error } : {}),
      pid: process.pid,
      at: new Date().toISOString()
    }
    await this.options.onBuild(entry, result)
    return entry
  }

  /** Resolves once the builds in flight are done. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.watcher?.close()
    await this.running
  }
}

/** `seam plugin dev PATH`: runs until SIGINT/SIGTERM (or `signal` aborts), then unregisters. */
export async function devCommand(args: string[], io: Io, signal?: AbortSignal): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: {} })
  if (positionals.length !== 1) throw new UsageError(DEV_USAGE)
  const dir = path.resolve(positionals[0])
  const env = io.env ?? process.env
  const seamHome = resolveSeamHome(env)
  const printed = new Map<string, string>()
  let current = 0

  const session = new DevSession({
    dir,
    env,
    onBuild: async (entry, result) => {
      current = entry.build
      if (result.ok) io.stdout.write(`build ${entry.build}: ok\n`)
      else io.stderr.write(`build ${entry.build} failed: ${entry.error}\n${result.output.trim() ? indent(result.output.trim()) + '\n' : ''}`)
      await registerDevBundle(seamHome, entry)
    }
  })
  await session.start()
  io.stdout.write(`dev bundle ${session.name} from ${dir}: registered in ${seamHome}; every running Seam on that home loads it (Ctrl-C ends)\n`)

  // What each running Host made of each build, printed once per Host and build.
  const report = async () => {
    for (const host of await readHostStates(seamHome)) {
      const mine = host.bundles.find((b) => b.dir === dir)
      if (!mine || mine.build !== current) continue
      const line = mine.state === 'loaded' ? `build ${mine.build}: loaded by Seam (${host.mode}, pid ${host.pid})` : `build ${mine.build}: not loaded by Seam (${host.mode}, pid ${host.pid}): ${mine.error}`
      const key = `${host.pid}`
      if (printed.get(key) === line) continue
      printed.set(key, line)
      ;(mine.state === 'loaded' ? io.stdout : io.stderr).write(line + '\n')
    }
  }
  const hostsWatcher = watchFolder(devBundlesDir(seamHome), () => void report())
  await report()

  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    signal?.addEventListener('abort', stop, { once: true })
  })
  hostsWatcher.close()
  await session.close()
  await unregisterDevBundle(seamHome, dir)
  io.stdout.write(`dev bundle ${session.name}: ended\n`)
  return 0
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
}

function watchFolder(dir: string, onChange: () => void): { close(): void } {
  let timer: NodeJS.Timeout | undefined
  const watcher = watch(dir, () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(onChange, 30)
  })
  return {
    close() {
      if (timer) clearTimeout(timer)
      watcher.close()
    }
  }
}
