// The system's `git`, run through the one child-process service (its own process group, killed
// with the host, key-stripped environment). Output is collected whole: every command here is a
// short query or one mutation, never a stream.
import { defaultKeyGuard, spawnGuarded } from '@seam/sdk/node'

/** A failure the user can act on; the message says what happened and what to do. */
export class WorktreeError extends Error {
  constructor(
    message: string,
    readonly code: WorktreeErrorCode
  ) {
    super(message)
    this.name = 'WorktreeError'
  }
}

export type WorktreeErrorCode =
  | 'GIT_MISSING'
  | 'GIT_TOO_OLD'
  | 'NOT_A_REPOSITORY'
  | 'NO_COMMIT'
  | 'BAD_NAME'
  | 'BAD_BASE'
  | 'BRANCH_EXISTS'
  | 'PATH_EXISTS'
  | 'CREATE_FAILED'
  | 'HOOK_PATH'
  | 'UNCOMMITTED'
  | 'NOT_MERGED'
  | 'MERGE_REFUSED'
  | 'GIT_FAILED'
  | 'GH_MISSING'

export interface GitResult {
  code: number
  stdout: string
  stderr: string
}

export interface GitRunner {
  (args: readonly string[], cwd: string, options?: { env?: Record<string, string | undefined> }): Promise<GitResult>
}

/** The environment a child gets: this process's without the provider keys (the host's key guard). */
export type ChildEnv = (env: Readonly<Record<string, string | undefined>>) => Record<string, string>

/**
 * Runs `git` (`executable`, default from PATH) and resolves with its exit code and output; a
 * missing git rejects with GIT_MISSING. Its environment goes through `childEnv` (git runs the
 * repository's hooks, and gh is a third-party program: neither needs a provider key).
 */
export function gitRunner(executable = 'git', childEnv: ChildEnv = (env) => defaultKeyGuard.childEnv(env)): GitRunner {
  return (args, cwd, options = {}) =>
    new Promise<GitResult>((resolve, reject) => {
      let guarded: ReturnType<typeof spawnGuarded>
      // No pager, no prompt for credentials, no editor: nobody is at git's terminal.
      const env = { ...childEnv({ ...process.env, ...options.env }), GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_EDITOR: 'true', LC_ALL: 'C' }
      try {
        guarded = spawnGuarded(executable, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
      } catch (error) {
        reject(missing(executable, error))
        return
      }
      const out: Buffer[] = []
      const err: Buffer[] = []
      guarded.child.stdout?.on('data', (chunk: Buffer) => out.push(chunk))
      guarded.child.stderr?.on('data', (chunk: Buffer) => err.push(chunk))
      guarded.child.on('error', (error) => {
        guarded.release()
        reject(missing(executable, error))
      })
      guarded.child.on('close', (code, signal) => {
        guarded.release()
        resolve({ code: code ?? (signal ? 128 : 1), stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })
      })
    })
}

function missing(executable: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new WorktreeError(`git was not found (looked for "${executable}" on PATH): install git to use worktree sessions`, 'GIT_MISSING')
  return error as Error
}

/** Runs git and returns stdout; a non-zero exit throws GIT_FAILED with git's own words. */
export async function gitOk(git: GitRunner, args: readonly string[], cwd: string, what: string): Promise<string> {
  const result = await git(args, cwd)
  if (result.code !== 0) throw new WorktreeError(`${what}: ${gitWords(result)}`, 'GIT_FAILED')
  return result.stdout
}

/** git's message, trimmed to what a person reads (its `fatal:`/`error:` lines first). */
export function gitWords(result: GitResult): string {
  const text = (result.stderr.trim() || result.stdout.trim() || `git exited with ${result.code}`).split('\n')
  const important = text.filter((line) => /^(fatal|error):/.test(line))
  return (important.length > 0 ? important : text).slice(0, 6).join('\n')
}

/** `git version 2.39.5` -> [2, 39, 5]. */
export function parseGitVersion(text: string): [number, number, number] | undefined {
  const match = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text)
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined
}

export function versionAtLeast(version: readonly number[], minimum: readonly number[]): boolean {
  for (let i = 0; i < minimum.length; i++) {
    const a = version[i] ?? 0
    if (a !== minimum[i]) return a > minimum[i]
  }
  return true
}
