// Starts `<shell> -c <command>` as the leader of its own process group, watched for the death of
// this process: a small `/bin/sh` watcher inside the group blocks reading a pipe whose only
// writer is us. When we die (even by SIGKILL) the kernel closes our end, the watcher reads EOF
// and SIGKILLs the whole group. Node has no portable prctl(PR_SET_PDEATHSIG), and that would only
// cover the direct child anyway, not the group.
//
// A command longer than the kernel's per-argument limit (MAX_ARG_STRLEN, 128 KiB) cannot be an
// argv string (spawn E2BIG): such a command is written to a private temp file the shell runs.
import { spawn, type ChildProcess, type StdioPipe, type IOType } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Writable } from 'node:stream'

/** Commands up to this many bytes go on the command line; longer ones through a file (the kernel's limit is 131 072 per string, NUL included). */
export const MAX_INLINE_COMMAND_BYTES = 128 * 1024 - 1024

/**
 * The watcher reads one line from fd 3. `release()` writes that line (the run is over, leave the
 * group alone); a close without it (we died, or `abandon()`) kills the group. fd 3 is closed
 * before the real shell starts, so the command never sees it.
 */
const WATCHER = '(read -r released <&3 || kill -KILL 0) </dev/null >/dev/null 2>&1 & exec 3<&-; exec "$@"'

export interface WatchedGroupOptions {
  shell: string
  command: string
  cwd?: string
  env?: NodeJS.ProcessEnv | Record<string, string | undefined>
  /** `pipe` when the caller writes stdin (hooks), `ignore` otherwise (Bash). */
  stdin: 'pipe' | 'ignore'
}

export interface WatchedGroup {
  child: ChildProcess
  /** The run is over: the watcher exits without touching the group. Removes the temp file. Idempotent. */
  release(): void
  /** Kill the group through the watcher (SIGKILL) without waiting. Idempotent. */
  abandon(): void
}

/** Throws (like `spawn` does for a bad cwd) when the shell cannot be executed. */
export function spawnWatchedGroup(options: WatchedGroupOptions): WatchedGroup {
  accessSync(options.shell, constants.X_OK)
  let scriptDir: string | undefined
  let shellArgs: string[]
  if (Buffer.byteLength(options.command) > MAX_INLINE_COMMAND_BYTES) {
    scriptDir = mkdtempSync(join(tmpdir(), 'seam-command-'))
    const script = join(scriptDir, 'command.sh')
    writeFileSync(script, options.command, { mode: 0o600 })
    shellArgs = [options.shell, script]
  } else {
    shellArgs = [options.shell, '-c', options.command]
  }
  const stdio: [IOType, StdioPipe, StdioPipe, StdioPipe] = [options.stdin, 'pipe', 'pipe', 'pipe']
  let child: ChildProcess
  try {
    child = spawn('/bin/sh', ['-c', WATCHER, 'seam-watch', ...shellArgs], {
      cwd: options.cwd,
      env: options.env,
      detached: true, // own process group, so the whole tree can be signalled
      stdio
    })
  } catch (error) {
    removeDir(scriptDir)
    throw error
  }
  const watchPipe = child.stdio[3] as Writable | null
  // EPIPE when the group is already gone: nothing left to watch.
  watchPipe?.on('error', () => undefined)
  let done = false
  const close = (line: string | undefined): void => {
    if (done) return
    done = true
    if (line === undefined) watchPipe?.destroy()
    else watchPipe?.end(line)
    removeDir(scriptDir)
  }
  child.on('error', () => removeDir(scriptDir))
  return { child, release: () => close('\n'), abandon: () => close(undefined) }
}

function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true })
}
