// Runs one `command` hook handler: `<shell> -c <command>` in its own process group, the event
// JSON on stdin, bounded capture of stdout/stderr. Never rejects for anything the hook does;
// only invalid options (a programming error in the caller) reject.
import type { ChildProcess } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import { BoundedOutput } from './output-buffer'
import { commandShell, spawnShellCommand, type GuardedProcess } from '@seam/sdk/node'

export const DEFAULT_HOOK_TIMEOUT_MS = 600_000
export const DEFAULT_KILL_GRACE_MS = 500
export const DEFAULT_PIPE_GRACE_MS = 200
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024
/** Longest delay setTimeout honours; longer ones would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1

export interface CommandHookOptions {
  /** Shell command text, passed as `-c <command>`. */
  command: string
  /** Written to stdin, then stdin is closed. Usually the event JSON. */
  stdin: string
  /** Default `/bin/sh` (Claude Code); Codex uses `/bin/bash`. On Windows Git for Windows' bash.exe (commandShell). */
  shell?: string
  /** The whole environment of the hook; default: this process's environment. */
  env?: Record<string, string | undefined>
  cwd?: string
  /** Default 600 000 ms. On expiry the process group gets SIGTERM, then SIGKILL after `killGraceMs`. */
  timeoutMs?: number
  /** Default 500 ms between SIGTERM and SIGKILL. */
  killGraceMs?: number
  /** Default 200 ms: how long pipes may stay open after the direct child exited (a grandchild holding them). */
  pipeGraceMs?: number
  /** Aborting kills the process group like a timeout does. */
  signal?: AbortSignal
  /** Per stream, default 1 MiB; the rest is drained and dropped. */
  maxOutputBytes?: number
}

export type CommandHookFailure = 'spawn_error' | 'timeout' | 'aborted'

export interface CommandHookResult {
  handlerType: 'command'
  /** Exit code of the shell; `null` when it died of a signal or never started. */
  exitCode: number | null
  /** Name of the signal that ended the shell (`SIGTERM`, `SIGKILL`, ...), else `null`. */
  signal: string | null
  stdout: string
  stderr: string
  stdoutTruncated: boolean
  stderrTruncated: boolean
  durationMs: number
  /** Set when Seam ended or could not start the hook; the exit fields then say how it ended. */
  failure?: CommandHookFailure
  errorMessage?: string
}

const Options = z.object({
  command: z.string(),
  stdin: z.string(),
  shell: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
  timeoutMs: z.number().positive().optional(),
  killGraceMs: z.number().nonnegative().optional(),
  pipeGraceMs: z.number().nonnegative().optional(),
  maxOutputBytes: z.number().int().nonnegative().optional()
})

export async function runCommandHook(opts: CommandHookOptions): Promise<CommandHookResult> {
  const checked = Options.safeParse(opts)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new TypeError(`runCommandHook: invalid option ${issue.path.join('.')}: ${issue.message}`)
  }
  const started = performance.now()
  if (opts.signal?.aborted) {
    return { ...emptyResult(), durationMs: 0, failure: 'aborted', errorMessage: 'hook aborted before it started' }
  }
  return new Promise((resolve) => new CommandRun(opts, started, resolve).start())
}

function emptyResult(): CommandHookResult {
  return { handlerType: 'command', exitCode: null, signal: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, durationMs: 0 }
}

/** One run's state machine: resolves once the shell exited and both pipes closed (or were given up on). */
class CommandRun {
  private child: ChildProcess | undefined
  private group: GuardedProcess | undefined
  private readonly stdout: BoundedOutput
  private readonly stderr: BoundedOutput
  private exited = false
  private exitCode: number | null = null
  private exitSignal: string | null = null
  private openPipes = 2
  private failure: CommandHookFailure | undefined
  private errorMessage: string | undefined
  private settled = false
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly onAbort = (): void => this.terminate('aborted', 'hook aborted')

  constructor(
    private readonly opts: CommandHookOptions,
    private readonly started: number,
    private readonly resolve: (result: CommandHookResult) => void
  ) {
    const max = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES
    this.stdout = new BoundedOutput(max)
    this.stderr = new BoundedOutput(max)
  }

  start(): void {
    const { opts } = this
    let child: ChildProcess
    try {
      // Own process group (the whole tree can be signalled), killed if this process dies.
      this.group = spawnShellCommand({ shell: opts.shell ?? commandShell('/bin/sh'), command: opts.command, cwd: opts.cwd, env: opts.env, stdin: 'pipe' })
      child = this.group.child
    } catch (error) {
      this.spawnFailed(error)
      return
    }
    this.child = child
    child.on('error', (error) => {
      // Without a pid the process never started; later 'error's come from signalling, which we do ourselves.
      if (child.pid === undefined) this.spawnFailed(error)
    })
    child.on('exit', (code, signal) => this.onExit(code, signal))
    for (const [stream, sink] of [
      [child.stdout, this.stdout],
      [child.stderr, this.stderr]
    ] as const) {
      if (!stream) {
        this.openPipes--
        continue
      }
      stream.on('data', (chunk: Buffer) => sink.push(chunk))
      // Read errors end the capture; 'close' follows and counts the pipe as done.
      stream.on('error', () => undefined)
      stream.on('close', () => {
        this.openPipes--
        this.maybeFinish()
      })
    }
    // EPIPE / ERR_STREAM_DESTROYED when the hook exits without reading its stdin: allowed (spec §3).
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(opts.stdin)

    this.later(() => this.terminate('timeout', `hook timed out after ${opts.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS} ms`), opts.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS)
    opts.signal?.addEventListener('abort', this.onAbort, { once: true })
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true
    this.exitCode = code
    this.exitSignal = signal
    this.maybeFinish()
    // A background grandchild may still hold the pipes: give it a moment, then stop waiting. The
    // end waits one more turn of the loop, so output written before the exit is read even when this
    // process was stalled past the grace (timers run before the loop polls the pipes).
    if (!this.settled) this.later(() => setImmediate(() => this.finish()), this.opts.pipeGraceMs ?? DEFAULT_PIPE_GRACE_MS)
  }

  private terminate(failure: CommandHookFailure, message: string): void {
    if (this.settled || this.failure) return
    this.failure = failure
    this.errorMessage = message
    this.killGroup('SIGTERM')
    this.later(() => {
      this.killGroup('SIGKILL')
      // SIGKILL cannot be ignored; if the exit still does not arrive, stop waiting anyway.
      this.later(() => this.finish(), this.opts.pipeGraceMs ?? DEFAULT_PIPE_GRACE_MS)
    }, this.opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS)
  }

  private spawnFailed(error: unknown): void {
    this.failure = 'spawn_error'
    const message = error instanceof Error ? error.message : String(error)
    this.errorMessage = this.opts.cwd ? `${message} (cwd: ${this.opts.cwd})` : message
    this.finish()
  }

  private maybeFinish(): void {
    if (this.exited && this.openPipes <= 0) this.finish()
  }

  private finish(): void {
    if (this.settled) return
    this.settled = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    this.opts.signal?.removeEventListener('abort', this.onAbort)
    const child = this.child
    if (child) {
      // Pipes still open here are held by a process we no longer wait for: close our ends and
      // kill what is left of the group (also sweeps members that survived a timeout's SIGTERM).
      const lingering = this.openPipes > 0
      child.stdout?.destroy()
      child.stderr?.destroy()
      child.stdin?.destroy()
      if (lingering || this.failure) this.killGroup('SIGKILL')
    }
    this.group?.release()
    const result: CommandHookResult = {
      handlerType: 'command',
      exitCode: this.exitCode,
      signal: this.exitSignal,
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      stdoutTruncated: this.stdout.truncated,
      stderrTruncated: this.stderr.truncated,
      durationMs: Math.round(performance.now() - this.started)
    }
    if (this.failure) result.failure = this.failure
    if (this.errorMessage) result.errorMessage = this.errorMessage
    this.resolve(result)
  }

  private killGroup(signal: NodeJS.Signals): void {
    this.group?.signalGroup(signal)
  }

  private later(fn: () => void, ms: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer)
        fn()
      },
      Math.min(ms, MAX_TIMER_MS)
    )
    this.timers.add(timer)
  }
}
