// Last-resort handlers for errors nothing else caught, in the desktop main process and in web
// mode. Each one is logged with its stack and handed to `report` (the host log, which the UI
// shows; a dialog on the desktop). The process keeps running: every session event is already
// on disk (append-only logs), and quitting would end the user's running turns and open dialogs
// for an error that, by construction, no request was waiting on.

export type UncaughtKind = 'uncaughtException' | 'unhandledRejection'

export interface ProcessGuardOptions {
  /** Called after the error is logged; must not throw (a throw here is logged and dropped). */
  report?(kind: UncaughtKind, error: unknown): void
  log?(message: string): void
  target?: Pick<NodeJS.Process, 'on' | 'off'>
}

/** Installs both handlers; returns the function that removes them. */
export function installProcessGuards(options: ProcessGuardOptions = {}): () => void {
  const target = options.target ?? process
  const log = options.log ?? ((message: string) => console.error(message))
  const handle = (kind: UncaughtKind) => (error: unknown) => {
    log(`[seam] ${kind}: ${describeUncaught(error, true)}`)
    try {
      options.report?.(kind, error)
    } catch (reportError) {
      log(`[seam] could not report the ${kind}: ${describeUncaught(reportError, false)}`)
    }
  }
  const onException = handle('uncaughtException')
  const onRejection = handle('unhandledRejection')
  target.on('uncaughtException', onException)
  target.on('unhandledRejection', onRejection)
  return () => {
    target.off('uncaughtException', onException)
    target.off('unhandledRejection', onRejection)
  }
}

/** One line (or the stack) for any thrown value, including non-Errors and hostile objects. */
export function describeUncaught(error: unknown, withStack: boolean): string {
  if (error instanceof Error) return (withStack && error.stack) || `${error.name}: ${error.message}`
  try {
    return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error))
  } catch {
    return Object.prototype.toString.call(error)
  }
}
