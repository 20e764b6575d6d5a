// On macOS an app started from the Finder or the Dock gets launchd's PATH
// (/usr/bin:/bin:/usr/sbin:/sbin), not the one the user's shell builds (Homebrew, nvm, ~/.local/bin),
// so tools and hooks would not find `node`, `git` from Homebrew or `rg`. At start the desktop app
// asks the user's login shell for its PATH (through the one child-process service, with a time
// limit) and puts those folders first. A shell that fails or hangs is logged and the PATH kept.
import { spawnGuarded } from '../process/guarded-spawn'

const MARK = '__SEAM_LOGIN_PATH__'

export interface LoginPathOptions {
  /** The user's shell ($SHELL); /bin/zsh, macOS's default, when unset. */
  shell?: string
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}

/** The PATH the user's interactive login shell sets up, or an Error saying why there is none. */
export function readLoginShellPath(options: LoginPathOptions = {}): Promise<string | Error> {
  const env = options.env ?? process.env
  const shell = options.shell ?? (env.SHELL || '/bin/zsh')
  const timeoutMs = options.timeoutMs ?? 5_000
  return new Promise((resolve) => {
    let guarded: ReturnType<typeof spawnGuarded>
    try {
      // -i and -l: the files a Terminal window reads (.zprofile, .zshrc, .bash_profile...). printf
      // and env work the same in sh, bash, zsh and fish.
      guarded = spawnGuarded(shell, ['-ilc', `printf ${MARK}; command env; printf ${MARK}`], { env: { ...env, DISABLE_AUTO_UPDATE: 'true' }, stdio: ['ignore', 'pipe', 'ignore'] })
    } catch (error) {
      resolve(error as Error)
      return
    }
    const { child } = guarded
    let out = ''
    const timer = setTimeout(() => {
      guarded.signalGroup('SIGKILL')
      finish(new Error(`${shell} gave no PATH within ${timeoutMs / 1000} s`))
    }, timeoutMs)
    let done = false
    const finish = (result: string | Error) => {
      if (done) return
      done = true
      clearTimeout(timer)
      guarded.release()
      resolve(result)
    }
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (out.length < 1_000_000) out += chunk
    })
    child.on('error', (error) => finish(error))
    child.on('close', (code) => {
      const start = out.indexOf(MARK)
      const end = out.lastIndexOf(MARK)
      const block = start >= 0 && end > start ? out.slice(start + MARK.length, end) : ''
      const line = block.split('\n').find((entry) => entry.startsWith('PATH='))
      finish(line ? line.slice('PATH='.length) : new Error(`${shell} printed no PATH (exit code ${code})`))
    })
  })
}

/** The login shell's folders first, then the current ones it lacks; no duplicates, no empty entries. */
export function mergePath(loginPath: string, currentPath: string | undefined): string {
  const seen = new Set<string>()
  const merged: string[] = []
  for (const dir of [...loginPath.split(':'), ...(currentPath ?? '').split(':')]) {
    if (dir === '' || seen.has(dir)) continue
    seen.add(dir)
    merged.push(dir)
  }
  return merged.join(':')
}

/** On macOS: sets env.PATH from the login shell (logging what happened). Elsewhere: nothing. */
export async function useLoginShellPath(options: LoginPathOptions & { platform?: NodeJS.Platform; log(message: string): void }): Promise<void> {
  if ((options.platform ?? process.platform) !== 'darwin') return
  const env = options.env ?? process.env
  const result = await readLoginShellPath(options)
  if (result instanceof Error) {
    options.log(`PATH: could not read the login shell's PATH (${result.message}); tools and hooks get ${env.PATH ?? '(none)'}`)
    return
  }
  env.PATH = mergePath(result, env.PATH)
}
