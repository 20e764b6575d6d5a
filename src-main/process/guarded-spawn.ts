// Every child process Seam starts goes through here: it leads its own process group (so a
// timeout, a cancel or a shutdown ends its whole tree; Windows: process-tree.ts), and the group is registered with the
// host's one death watcher (host-death-watcher.ts) until the caller releases it, so the group
// dies with the host even when the host is SIGKILLed. Nothing sits between the host and the
// child: the child's pipes are its own, and they close when its tree is done.
//
// A shell command longer than the kernel's per-argument limit (MAX_ARG_STRLEN, 128 KiB) cannot be
// an argv string (spawn E2BIG): such a command is written to a private temp file the shell runs.
import { spawn, type ChildProcess, type IOType, type StdioOptions } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { prepareWatcher, unwatchGroup, watchGroup } from './host-death-watcher'
import { defaultKeyGuard } from '../security/keys'
import { signalTree, treeSpawnOptions } from './process-tree'

export { killWatchedGroups } from './host-death-watcher'

/** Commands up to this many bytes go on the command line; longer ones through a file (the kernel's limit is 131 072 per string, NUL included). */
export const MAX_INLINE_COMMAND_BYTES = 128 * 1024 - 1024

export interface GuardedProcess {
  child: ChildProcess
  /** Sends `signal` to the child's whole process group; false when the group is gone (or never started). */
  signalGroup(signal: NodeJS.Signals): boolean
  /** The run is over: the group is no longer killed when the host dies (what is left of it is let go). Idempotent. */
  release(): void
}

type ChildEnvPolicy = (env: Readonly<Record<string, string | undefined>>) => Record<string, string>

/** Without a host: the default key variables and their values are stripped. */
let childEnvPolicy: ChildEnvPolicy = (env) => defaultKeyGuard.childEnv(env)

/**
 * The environment a child gets when its caller passes none: this process's, through the host's key
 * guard (set by the host at start), so a plugin that spawns without thinking of keys leaks none.
 */
export function setDefaultChildEnvPolicy(policy: ChildEnvPolicy): void {
  childEnvPolicy = policy
}

/** `spawn`'s options that apply (`detached` is Seam's: the child leads its own group, see process-tree.ts). */
export interface GuardedSpawnOptions {
  cwd?: string
  /** Default: this process's environment without provider keys (the host's key guard). */
  env?: NodeJS.ProcessEnv | Record<string, string | undefined>
  stdio?: StdioOptions
}

/**
 * Spawns `file` with `args` as the leader of a new process group, watched for the death of this
 * process until `release()`. Errors are `spawn`'s own ('error' for a missing file or bad cwd).
 */
export function spawnGuarded(file: string, args: readonly string[], options: GuardedSpawnOptions): GuardedProcess {
  prepareWatcher()
  const child = spawn(file, args, { cwd: options.cwd, env: options.env ?? childEnvPolicy(process.env), stdio: options.stdio, ...treeSpawnOptions() })
  // Registered in the same synchronous step as the spawn (see host-death-watcher.ts, races).
  const pgid = child.pid
  if (pgid !== undefined) watchGroup(pgid)
  let released = pgid === undefined
  return {
    child,
    signalGroup: (signal) => pgid !== undefined && signalTree(pgid, signal),
    release: () => {
      if (released) return
      released = true
      if (pgid !== undefined) unwatchGroup(pgid)
    }
  }
}

export interface ShellCommandOptions {
  shell: string
  command: string
  cwd?: string
  env?: NodeJS.ProcessEnv | Record<string, string | undefined>
  /** `pipe` when the caller writes stdin (hooks), `ignore` otherwise (Bash). */
  stdin: 'pipe' | 'ignore'
}

/**
 * `<shell> -c <command>` (or `<shell> <file>` for a command past the argv limit) as a guarded
 * group with stdout and stderr piped. Throws when the shell cannot be executed, as `spawn` does
 * for a bad cwd; `release()` also removes the temp file.
 */
export function spawnShellCommand(options: ShellCommandOptions): GuardedProcess {
  accessSync(options.shell, constants.X_OK)
  let scriptDir: string | undefined
  let args: string[]
  if (Buffer.byteLength(options.command) > MAX_INLINE_COMMAND_BYTES) {
    scriptDir = mkdtempSync(join(tmpdir(), 'seam-command-'))
    const script = join(scriptDir, 'command.sh')
    writeFileSync(script, options.command, { mode: 0o600 })
    args = [script]
  } else {
    args = ['-c', options.command]
  }
  const stdio: [IOType, IOType, IOType] = [options.stdin, 'pipe', 'pipe']
  let guarded: GuardedProcess
  try {
    guarded = spawnGuarded(options.shell, args, { cwd: options.cwd, env: options.env, stdio })
  } catch (error) {
    removeDir(scriptDir)
    throw error
  }
  guarded.child.on('error', () => removeDir(scriptDir))
  const release = guarded.release
  return {
    ...guarded,
    release: () => {
      release()
      removeDir(scriptDir)
      scriptDir = undefined
    }
  }
}

function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true })
}
