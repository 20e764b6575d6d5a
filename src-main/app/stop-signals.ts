// The signals that ask a Seam process to stop: Ctrl-C (SIGINT), `kill` (SIGTERM), a closed
// terminal (SIGHUP). Each front end (`seam run`, `seam acp`, web mode) answers the first one by
// ending its turns (cancelled) and closing its host, which stops every hook, tool and MCP server
// process and flushes the session logs, then exits with the conventional status, 128 + the
// signal's number (130, 143, 129). A second signal while that runs exits at once.
import { constants } from 'node:os'

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
export type StopSignal = (typeof STOP_SIGNALS)[number]

/** 128 + the signal's number: what a shell reports for a process the signal ended. */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal]
}

export interface StopSignalWatch {
  /** The first stop signal received, if one was. */
  readonly received: StopSignal | undefined
  /** `signalExitCode(received)`, once a signal was received. */
  readonly exitCode: number | undefined
  /** Removes the handlers (the process's default reaction comes back). */
  dispose(): void
}

export interface StopSignalOptions {
  /** Where "stopping" and "exiting now" are said (stderr). */
  log(message: string): void
  target?: Pick<NodeJS.Process, 'on' | 'off' | 'exit'>
}

/** Calls `stop` once, on the first stop signal; a second one exits at once with its status. */
export function onStopSignal(stop: (signal: StopSignal) => void, options: StopSignalOptions): StopSignalWatch {
  const target = options.target ?? process
  let received: StopSignal | undefined
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = (): void => {
      if (received !== undefined) {
        options.log(`${signal} again: exiting now, without waiting for the clean stop`)
        target.exit(signalExitCode(signal))
        return
      }
      received = signal
      options.log(`${signal}: cancelling the turn, stopping hooks, tools and MCP servers, flushing the session log`)
      stop(signal)
    }
    target.on(signal, handler)
    return [signal, handler] as const
  })
  return {
    get received() {
      return received
    },
    get exitCode() {
      return received === undefined ? undefined : signalExitCode(received)
    },
    dispose() {
      for (const [signal, handler] of handlers) target.off(signal, handler)
    }
  }
}
