// A command in the ACP client's terminal, handed to the background-tasks service as a running
// command (a Bash call with `run_in_background`, or a foreground one that reached its timeout).
// The terminal stays the client's: its output is fetched with `terminal/output` whenever the task
// is read (TaskOutput, BashOutput, the tasks panel) and once more at its end, its end comes from
// `terminal/wait_for_exit`, TaskStop and a closing session reach it with `terminal/kill`, and it
// is released (`terminal/release`) once it has ended and its last output is in the task's file.
import type { TerminalHandle } from '@agentclientprotocol/sdk'
import type { RunningCommand } from '../../src-shared/host/background-tasks'

/** What Seam uses of a client terminal (the ACP SDK's TerminalHandle). */
export type EditorTerminal = Pick<TerminalHandle, 'id' | 'currentOutput' | 'waitForExit' | 'kill' | 'release'>

/** The marker put before output when the client's terminal had already dropped some of it (its `outputByteLimit`). */
export const DROPPED_BY_CLIENT = "[earlier output was dropped by the client's terminal before Seam read it]\n"

export function terminalCommand(terminal: EditorTerminal, outputSoFar: string): RunningCommand {
  let seen = outputSoFar
  let sink: Parameters<RunningCommand['attach']>[0] | undefined
  /** The command has exited: its last fetch is queued, and a refresh waits for that one instead of asking again. */
  let exited = false
  let ended = false
  let released = false
  let pulling: Promise<void> = Promise.resolve()
  /**
   * One `terminal/output` at a time, so each new part is appended once and in order. The release
   * joins the same queue, so no fetch reaches the client after its terminal was released.
   */
  const enqueue = (step: () => Promise<unknown>): Promise<void> => {
    pulling = pulling.catch(() => undefined).then(async () => {
      await step()
    })
    return pulling
  }
  const pull = (): Promise<void> =>
    enqueue(async () => {
      if (!sink || released) return
      const { output } = await terminal.currentOutput()
      const fresh = newPart(seen, output)
      seen = output
      if (fresh !== '') sink.output(fresh)
    })
  return {
    signalGroup() {
      if (ended) return false
      // ACP's terminal/kill names no signal: the client ends the command its own way.
      void terminal.kill().catch(() => undefined)
      return true
    },
    refresh: () => (exited ? pulling.catch(() => undefined) : pull()),
    attach(taker) {
      sink = taker
      void terminal
        .waitForExit()
        .then(exitCodeOf, () => 1)
        .then(async (exitCode) => {
          exited = true
          await pull().catch(() => undefined)
          ended = true
          // Released before the end is reported: whoever waits for the end (TaskStop, a closing
          // session) answers its client only once the client has its terminal back.
          await enqueue(() => {
            released = true
            return terminal.release()
          }).catch(() => undefined)
          taker.exit(exitCode)
        })
    }
  }
}

/** Claude Code's exit code for an ended command: its own, or 128 + the signal that ended it. */
export function exitCodeOf(status: { exitCode?: number | null; signal?: string | null } | null | undefined): number {
  if (typeof status?.exitCode === 'number') return status.exitCode
  return status?.signal ? 128 + signalNumber(status.signal) : 1
}

export function signalNumber(name: string): number {
  const numbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 }
  return numbers[name] ?? 0
}

/**
 * What `now` (the terminal's whole output as the client keeps it) adds to `seen` (what was read
 * before). The client keeps the output's end when it passes its byte limit, so `now` may no longer
 * start with `seen`: the new part then starts after the first place `seen`'s end appears in `now`
 * (in repetitive output that may repeat a few lines, never lose any); when it does not appear at
 * all, everything `now` holds is new and the gap is marked.
 */
export function newPart(seen: string, now: string): string {
  if (now.startsWith(seen)) return now.slice(seen.length)
  const probe = seen.slice(-256)
  const at = now.indexOf(probe)
  if (probe !== '' && at !== -1) return now.slice(at + probe.length)
  return DROPPED_BY_CLIENT + now
}
