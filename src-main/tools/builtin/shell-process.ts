// Runs one shell command in its own process group and ends the whole group (children,
// grandchildren) on abort or deadline: SIGTERM first, SIGKILL after a grace period.
//
// The result is delivered when the shell has exited and its stdout and stderr have closed (Node's
// 'close'), which for a command that leaves nothing behind is the moment it exits: no timer is
// involved. Only when a process the command started in the background still holds the pipes after
// the shell exited is there a bounded wait (STDIO_DRAIN_MS); then the result says so.
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import os from 'node:os'
import type { RunningCommand } from '../../../src-shared/host/background-tasks'
import { HeadTailBuffer } from './output-limit'
import { commandShell } from '../../process/command-shell'
import { spawnShellCommand, type GuardedProcess } from '../../process/guarded-spawn'

export interface ShellRunOptions {
  command: string
  cwd: string
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal: AbortSignal
  /** Characters of each stream kept in memory (head + tail). */
  maxCaptureChars: number
  killGraceMs: number
  onOutput(stream: 'stdout' | 'stderr', text: string): void
  /**
   * Hands the running command over instead of waiting for it: right after it starts (`start`), or
   * when its deadline passes instead of killing it (`deadline`). `take` gets the command and what
   * it printed so far; when it returns true, the run resolves at once with `handedOver` and the
   * command's output, exit and process group are the taker's. False: the run goes on as without.
   */
  handOver?: {
    /** When it is handed over by itself: at once, or when its deadline passes (absent: only when asked). */
    when?: 'start' | 'deadline'
    take(running: RunningCommand, outputSoFar: string): boolean
    /** Gets the trigger that hands it over now (the user's Ctrl+B); it answers whether it was taken. */
    onReady?(handOverNow: () => boolean): void
  }
}

export interface ShellRun {
  stdout: string
  stderr: string
  /** Both streams in the order their chunks arrived, as a terminal shows them. */
  output: string
  /** The shell's exit code; 128 + signal number when a signal ended it. */
  exitCode: number
  /** Set when Seam ended the command: its deadline passed, or the call was aborted. */
  interruptedBy?: 'timeout' | 'abort'
  /** Set when the shell could not be started at all. */
  spawnError?: string
  /**
   * Set when the shell exited but something it started (a `cmd &` job) still held stdout or stderr
   * open after STDIO_DRAIN_MS: the run ended without the rest of that output.
   */
  outputHeldOpen?: true
  /** The command was handed over (ShellRunOptions.handOver) and runs on. */
  handedOver?: true
}

/** How long to wait for the pipes to close once the shell exited on its own (a backgrounded `cmd &` can hold them). */
export const STDIO_DRAIN_MS = 500
/** After SIGKILL, how long to wait for the pipes before giving up on them. */
const AFTER_KILL_MS = 1_000

/** bash (sh without it); on Windows Git for Windows' bash.exe, or throws saying what to install. */
export function shellPath(): string {
  return commandShell(existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh')
}

export function runShellCommand(options: ShellRunOptions): Promise<ShellRun> {
  return new Promise((resolve) => {
    const stdout = new HeadTailBuffer(options.maxCaptureChars)
    const stderr = new HeadTailBuffer(options.maxCaptureChars)
    const output = new HeadTailBuffer(options.maxCaptureChars)
    let interruptedBy: ShellRun['interruptedBy']
    let exitCode: number | undefined
    let settled = false
    const timers = new Set<NodeJS.Timeout>()

    // Its own process group, killed with this process if it dies; long commands go through a file.
    let group: GuardedProcess
    try {
      group = spawnShellCommand({ shell: shellPath(), command: options.command, cwd: options.cwd, env: options.env, stdin: 'ignore' })
    } catch (error) {
      resolve({ stdout: '', stderr: '', output: '', exitCode: 127, spawnError: (error as Error).message })
      return
    }
    const child: ChildProcess = group.child
    const pid = child.pid

    const finish = (ended: { spawnError?: string; outputHeldOpen?: true } = {}): void => {
      if (settled) return
      settled = true
      // What is left of the group now (a background job holding the pipes) is let go: it is no
      // longer killed with Seam (README, known limitations).
      group.release()
      options.signal.removeEventListener('abort', onAbort)
      clearTimeout(deadline)
      for (const timer of timers) clearTimeout(timer)
      child.stdout?.destroy()
      child.stderr?.destroy()
      const run: ShellRun = { stdout: stdout.text(), stderr: stderr.text(), output: output.text(), exitCode: exitCode ?? 1, interruptedBy, ...ended }
      resolve(run)
    }

    const later = (ms: number, run: () => void): void => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        run()
      }, ms)
      timers.add(timer)
    }

    const interrupt = (reason: 'timeout' | 'abort'): void => {
      if (interruptedBy || settled || pid === undefined) return
      interruptedBy = reason
      group.signalGroup('SIGTERM')
      // Not one of `timers`: the SIGKILL must still reach a SIGTERM-ignoring straggler after we resolved.
      setTimeout(() => {
        group.signalGroup('SIGKILL')
        if (!settled) later(AFTER_KILL_MS, () => finish())
      }, options.killGraceMs)
    }

    // After a hand-over, output and the exit go to the taker instead.
    let taker: { output(text: string): void; exit(exitCode: number): void } | undefined
    let takerTold = false
    const tellTaker = (): void => {
      if (takerTold || !taker) return
      takerTold = true
      for (const timer of timers) clearTimeout(timer)
      group.release()
      child.stdout?.destroy()
      child.stderr?.destroy()
      taker.exit(exitCode ?? 1)
    }

    const handOver = (): boolean => {
      if (!options.handOver || settled || interruptedBy || exitCode !== undefined || pid === undefined) return false
      const running: RunningCommand = {
        pid,
        signalGroup: (signal) => group.signalGroup(signal),
        attach: (sink) => {
          taker = sink
        }
      }
      if (!options.handOver.take(running, output.text()) || !taker) return false
      settled = true
      options.signal.removeEventListener('abort', onAbort)
      clearTimeout(deadline)
      resolve({ stdout: stdout.text(), stderr: stderr.text(), output: output.text(), exitCode: 0, handedOver: true })
      return true
    }

    options.handOver?.onReady?.(handOver)
    const onAbort = (): void => interrupt('abort')
    const deadline = setTimeout(() => {
      if (options.handOver?.when !== 'deadline' || !handOver()) interrupt('timeout')
    }, options.timeoutMs)

    const onData = (stream: 'stdout' | 'stderr', buffer: HeadTailBuffer) => (text: string) => {
      if (taker) return taker.output(text)
      buffer.push(text)
      output.push(text)
      options.onOutput(stream, text)
    }
    child.stdout?.setEncoding('utf8')
    child.stderr?.setEncoding('utf8')
    child.stdout?.on('data', onData('stdout', stdout))
    child.stderr?.on('data', onData('stderr', stderr))

    child.on('error', (error) => {
      exitCode = 127
      if (taker) return tellTaker()
      finish({ spawnError: error.message })
    })
    child.on('exit', (code, signal) => {
      exitCode = code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0)
      // Normally 'close' follows at once and this timer never fires. It does when a background
      // job holds the pipes. Interrupted: keep waiting for 'close' (or the post-SIGKILL fallback)
      // so the whole group is gone. Each end waits one more turn of the loop: output written before
      // the exit is read even when this process was stalled past the wait (timers run before the
      // loop polls the pipes).
      if (taker) later(STDIO_DRAIN_MS, () => setImmediate(tellTaker))
      else if (!interruptedBy) later(STDIO_DRAIN_MS, () => setImmediate(() => finish({ outputHeldOpen: true })))
    })
    // Exited and both pipes closed: the run is complete.
    child.on('close', () => (taker ? tellTaker() : finish()))

    if (options.signal.aborted) onAbort()
    else options.signal.addEventListener('abort', onAbort, { once: true })
    if (options.handOver?.when === 'start' && !handOver()) interrupt('abort')
  })
}
