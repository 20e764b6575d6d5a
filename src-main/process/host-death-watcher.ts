// One watcher per host process that kills the registered process groups when the host dies, even
// by SIGKILL (no handler runs then). Node has no portable prctl(PR_SET_PDEATHSIG), which would
// only cover the direct child anyway, not its group.
//
// The watcher is a small `/bin/sh` loop, started once on first use, in its own session (terminal
// signals do not reach it) and ignoring the catchable signals. It reads lines from a pipe whose
// only writer is the host: `+<pgid>` registers a group, `-<pgid>` forgets it. When the host dies
// the kernel closes the host's end, the watcher reads EOF and SIGKILLs every group still
// registered. Children never see this pipe (Node opens every descriptor close-on-exec), so it
// never holds a child's output open and costs nothing per spawn beyond one short write.
//
// Races, and what remains:
// - spawn → register: the watcher is started before the child is spawned (starting it takes a
//   fork and an exec), and the registration is written right after `spawn()` returns, in the same
//   synchronous step (the write reaches the kernel pipe buffer at once: libuv writes
//   synchronously when its queue is empty), so the watcher reads it even if the host dies just
//   after. What remains: a host killed between the child's exec and that write leaves that one
//   group unwatched. It is a few instructions of the host, but the child may run first, and on a
//   loaded machine the host can wait milliseconds for a core. Closing it would take a gate
//   between the child's start and its command (a wrapper shell, the cost this replaced).
// - pgid reuse: the watcher kills only groups the host has registered and not yet forgotten; a
//   run forgets its group when it ends. A pid stays reserved while any process of its group
//   lives (and while the leader is an unreaped zombie), so the id can only be reused between the
//   last member's end and the `-` line, which would take the kernel handing out every other pid
//   (pid_max, 4M on 64-bit Linux) in that moment.
// - the watcher dying (someone killed it, OOM): the host sees it exit, starts a new one and
//   registers every live group again (after a second's pause if it died within a second of
//   starting, so a watcher that cannot run does not spin). Groups are unwatched in between.
// - a group the host forgot (a Bash command's leftover background process after the run was
//   released) is not killed at host death, as before: it was let go on purpose.
import { spawn, type ChildProcess } from 'node:child_process'
import type { Socket } from 'node:net'
import { commandShell } from './command-shell'
import { signalTree } from './process-tree'

/**
 * The watcher's script. Lines are `+N` / `-N` with N a pgid (anything else is ignored, and 0 and
 * 1 are never signalled). `kill -9 -N`, not `kill -KILL -- -N`: dash has no `--` for kill. On
 * Windows the script runs in Git for Windows' bash (the shell Seam already needs there) and ends
 * each tree with taskkill (process-tree.ts); `//PID` keeps MSYS from reading `/PID` as a path.
 */
export function watcherScript(platform: NodeJS.Platform): string {
  const kill = platform === 'win32' ? 'taskkill //PID $g //T //F >/dev/null 2>&1' : 'kill -9 -$g 2>/dev/null'
  return [
    "trap '' HUP INT QUIT TERM PIPE",
    "groups=' '",
    'while IFS= read -r line; do',
    '  g=${line#?}',
    "  case $g in ''|*[!0-9]*|0|1) continue ;; esac",
    '  case $line in',
    '    +*) groups="$groups$g " ;;',
    '    -*) rest=${groups#* $g }; [ "$rest" = "$groups" ] || groups="${groups%% $g *} $rest" ;;',
    '  esac',
    'done',
    `for g in $groups; do ${kill}; done`
  ].join('\n')
}

/** What a watcher runs on; injectable so the Windows form is tested on any machine. */
export interface WatcherPlatform {
  platform?: NodeJS.Platform
  /** The shell that runs the script: `/bin/sh`, or on Windows Git for Windows' bash.exe. */
  shell?: () => string
  env?: NodeJS.ProcessEnv
}

/** A watcher that died sooner than this after its start is restarted only after this long. */
const RESTART_PAUSE_MS = 1_000

export class HostDeathWatcher {
  private readonly groups = new Set<number>()
  private readonly platform: NodeJS.Platform

  constructor(private readonly options: WatcherPlatform = {}) {
    this.platform = options.platform ?? process.platform
  }

  private watcher: ChildProcess | undefined
  private pipe: Socket | undefined
  private startedAt = 0
  private restartTimer: NodeJS.Timeout | undefined

  /** Starts the watcher unless it runs; called before a spawn, so the registration after it is one write. */
  prepare(): void {
    if (!this.pipe && this.restartTimer === undefined) this.start()
  }

  watch(pgid: number): void {
    if (!isGroupId(pgid) || this.groups.has(pgid)) return
    this.groups.add(pgid)
    if (this.pipe) this.send(`+${pgid}\n`)
    else if (this.restartTimer === undefined) this.start()
  }

  unwatch(pgid: number): void {
    if (!this.groups.delete(pgid)) return
    if (this.pipe) this.send(`-${pgid}\n`)
  }

  killAll(signal: NodeJS.Signals): number {
    let signalled = 0
    for (const pgid of this.groups) {
      if (signalTree(pgid, signal, this.platform)) signalled++
    }
    return signalled
  }

  /**
   * Closes the host's end of the pipe, which is what the host's death does: the watcher kills
   * every registered group and exits. This instance forgets them (tests use it on their own
   * instance; the host's watcher is never closed this way).
   */
  closePipe(): void {
    clearTimeout(this.restartTimer)
    const pipe = this.pipe
    this.watcher = undefined
    this.pipe = undefined
    this.groups.clear()
    pipe?.end()
  }

  get watched(): readonly number[] {
    return [...this.groups]
  }

  get pid(): number | undefined {
    return this.watcher?.pid
  }

  private start(): void {
    clearTimeout(this.restartTimer)
    this.restartTimer = undefined
    let watcher: ChildProcess
    try {
      const shell = this.options.shell?.() ?? commandShell('/bin/sh', { platform: this.platform })
      watcher = spawn(shell, ['-c', watcherScript(this.platform), 'seam-host-watcher'], { stdio: ['pipe', 'ignore', 'ignore'], env: this.options.env, detached: true, windowsHide: true })
    } catch {
      // Cannot fork now (EAGAIN, ENOMEM), or no Git Bash on Windows: the next registration tries again.
      return
    }
    const pipe = watcher.stdin as Socket
    this.watcher = watcher
    this.pipe = pipe
    this.startedAt = Date.now()
    // EPIPE once the watcher is gone: 'exit' below starts another.
    pipe.on('error', () => undefined)
    const gone = (): void => this.gone(watcher)
    watcher.once('error', gone)
    watcher.once('exit', gone)
    // Neither the watcher nor its pipe keeps the host's event loop alive.
    watcher.unref()
    pipe.unref()
    if (this.groups.size > 0) this.send([...this.groups].map((pgid) => `+${pgid}\n`).join(''))
  }

  private gone(watcher: ChildProcess): void {
    if (this.watcher !== watcher) return
    this.watcher = undefined
    this.pipe?.destroy()
    this.pipe = undefined
    if (this.groups.size === 0) return
    const soon = Date.now() - this.startedAt < RESTART_PAUSE_MS
    if (!soon) return this.start()
    this.restartTimer = setTimeout(() => this.start(), RESTART_PAUSE_MS)
    this.restartTimer.unref()
  }

  private send(lines: string): void {
    this.pipe?.write(lines)
  }
}

function isGroupId(pgid: number): boolean {
  return Number.isSafeInteger(pgid) && pgid > 1
}

const hostWatcher = new HostDeathWatcher()

/** Starts the host's watcher if it is not running (before a spawn: see the races above). */
export function prepareWatcher(): void {
  hostWatcher.prepare()
}

/** Kill the process group `pgid` (SIGKILL) if this process dies before `unwatchGroup(pgid)`. */
export function watchGroup(pgid: number): void {
  hostWatcher.watch(pgid)
}

/** The group's run is over: leave it alone when this process dies. */
export function unwatchGroup(pgid: number): void {
  hostWatcher.unwatch(pgid)
}

/**
 * Sends `signal` (default SIGKILL) to every registered process group now, synchronously; returns
 * how many groups were still there. For a host's signal handlers (SIGTERM, SIGINT, SIGHUP) before
 * they exit: the watcher would kill them once the host is gone anyway, this does it first. The
 * groups stay registered (each run forgets its own when it sees the end).
 */
export function killWatchedGroups(signal: NodeJS.Signals = 'SIGKILL'): number {
  return hostWatcher.killAll(signal)
}

/** The registered groups and the watcher's pid, for tests and diagnostics. */
export function watcherState(): { pid: number | undefined; groups: readonly number[] } {
  return { pid: hostWatcher.pid, groups: hostWatcher.watched }
}
