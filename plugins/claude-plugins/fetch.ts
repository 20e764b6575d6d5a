// Bringing marketplaces and plugins onto disk with the user's own tools: the system `git` (clone,
// fetch, checkout) and `npm pack`, each run through the host's child-process service (its own
// process group, the host-death watcher, the key-stripped environment).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { defaultKeyGuard, spawnGuarded } from '@seam/sdk/node'

export interface ProcessResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `file args` in `cwd` to its end; rejects only when it cannot start. */
export function runTool(file: string, args: readonly string[], cwd: string, env?: Record<string, string | undefined>): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const guarded = spawnGuarded(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) })
    let stdout = ''
    let stderr = ''
    guarded.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    guarded.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    guarded.child.on('error', (error) => {
      guarded.release()
      reject(new Error(`${file} could not start: ${error.message}`))
    })
    guarded.child.on('close', (code) => {
      guarded.release()
      resolve({ code, stdout, stderr })
    })
  })
}

async function mustRun(file: string, args: readonly string[], cwd: string, env?: Record<string, string | undefined>): Promise<string> {
  const result = await runTool(file, args, cwd, env)
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} failed (exit ${result.code}): ${result.stderr.trim() || result.stdout.trim()}`)
  return result.stdout
}

// Never prompt for credentials: a private repository fails with git's message instead of hanging.
const GIT_ENV = { GIT_TERMINAL_PROMPT: '0' }

/** The host's environment without provider keys (as every child gets it), plus `extra`. */
function toolEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return { ...defaultKeyGuard.childEnv(process.env), ...extra }
}

/** The environment every git Seam runs gets: the host's without provider keys, and no credential prompt. */
export function gitEnv(): Record<string, string | undefined> {
  return toolEnv(GIT_ENV)
}

/**
 * Clones `url` into `dest` (which must not exist) at `ref` (a branch or tag) and then `sha` when
 * given. A shallow clone when only a branch is wanted; a full one when a sha must be checked out.
 */
export async function gitClone(url: string, dest: string, options: { ref?: string; sha?: string } = {}): Promise<void> {
  const args = ['clone', '--quiet']
  if (options.sha === undefined) args.push('--depth', '1')
  if (options.ref !== undefined) args.push('--branch', options.ref)
  args.push('--', url, dest)
  await mustRun('git', args, process.cwd(), gitEnv())
  if (options.sha !== undefined) await mustRun('git', ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', options.sha], dest, gitEnv())
}

/** Brings a clone up to date with its remote (what `marketplace update` does for a git marketplace). */
export async function gitPull(dir: string): Promise<void> {
  await mustRun('git', ['fetch', '--quiet', '--depth', '1', 'origin'], dir, gitEnv())
  await mustRun('git', ['reset', '--quiet', '--hard', 'FETCH_HEAD'], dir, gitEnv())
}

/** The commit a clone is at. */
export async function gitHead(dir: string): Promise<string> {
  return (await mustRun('git', ['rev-parse', 'HEAD'], dir, gitEnv())).trim()
}

/** `npm pack`s `spec` (a name, name@version) from the user's registry and unpacks it into `dest`; the version packed. */
export async function npmFetch(spec: string, dest: string, registry?: string): Promise<string | undefined> {
  const work = mkdtempSync(join(dest, '..', '.npm-pack-'))
  try {
    const args = ['pack', spec, '--json', '--ignore-scripts', '--pack-destination', work]
    if (registry !== undefined) args.push('--registry', registry)
    const result = await runTool('npm', args, work, toolEnv({ npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }))
    if (result.code !== 0) throw new Error(`npm pack ${spec} failed (exit ${result.code}): ${npmFailure(result)}`)
    const stdout = result.stdout
    const [info] = JSON.parse(stdout) as Array<{ filename?: string; version?: string }>
    if (!info?.filename) throw new Error(`npm pack ${spec} printed no file name`)
    mkdirSync(dest, { recursive: true })
    // npm tarballs hold everything under `package/`.
    // Loaded here: only an npm source needs it, and Seam's start should not pay for it.
    const { extract } = await import('tar')
    await extract({ file: join(work, info.filename), cwd: dest, strip: 1 })
    return typeof info.version === 'string' ? info.version : undefined
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * What npm said went wrong. With `--json` npm puts its error on stdout as `{error: {code, summary}}`
 * and, at its default log level, again on stderr; under an inherited `npm_config_loglevel=silent`
 * (Seam started from `npm run --silent`) stdout is all there is, so that is read first.
 */
function npmFailure(result: ProcessResult): string {
  try {
    const parsed: unknown = JSON.parse(result.stdout)
    const error = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? (parsed as { error: unknown }).error : undefined
    if (typeof error === 'object' && error !== null) {
      const { code, summary } = error as { code?: unknown; summary?: unknown }
      const text = [typeof code === 'string' ? code : '', typeof summary === 'string' ? summary : ''].filter(Boolean).join(': ')
      if (text) return text
    }
  } catch {
    // Not JSON: npm failed before it could answer in JSON (a bad flag, a crash); its stderr says why.
  }
  const errorLines = result.stderr.split('\n').filter((line) => line.startsWith('npm error'))
  return (errorLines.length > 0 ? errorLines.join('\n') : result.stderr.trim() || result.stdout.trim()) || 'npm printed nothing'
}

/** Copies a folder (links kept as links, never followed out of it), leaving `.git` behind. */
export function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from)) {
    if (entry === '.git') continue
    cpSync(join(from, entry), join(to, entry), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true })
  }
}
