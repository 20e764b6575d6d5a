// The desktop app's life: when to open, focus and quit, and closing the Host exactly once on
// the way out, whichever way out it is (last window closed, Cmd+Q, will-quit, a Windows
// shutdown or log-off, SIGINT/SIGTERM), within a time limit so a hung close cannot keep a
// windowless process holding the single-instance lock.
import type { App, BrowserWindow } from 'electron'

export interface LifecycleOptions {
  app: Pick<App, 'on' | 'quit'>
  platform: NodeJS.Platform
  /** Open windows (BrowserWindow.getAllWindows). */
  windows(): BrowserWindow[]
  openWindow(): void
  /** Brings the existing window forward (restores it when minimized), or opens one. */
  showWindow(): void
  /** Releases the transports and closes the Host. */
  close(): Promise<void>
  log(message: string, error?: unknown): void
  /** How long close() may take before the app quits anyway. Default 10 s. */
  closeTimeoutMs?: number
  /** What runs now ("a turn is running"), or null: quitting then asks first (confirmQuit). */
  running?(): string | null
  /** Asks whether to quit although `what` is running; true to quit. */
  confirmQuit?(what: string): Promise<boolean>
}

export interface Lifecycle {
  readonly quitting: boolean
  /** Closes the Host once (later calls get the same promise); never rejects. */
  shutdown(): Promise<void>
  /** Per-window events: Windows' session-end ends the app; closing the last window asks first while something runs. */
  watchWindow(window: BrowserWindow): void
}

export function installLifecycle(options: LifecycleOptions): Lifecycle {
  const { app, log } = options
  const timeoutMs = options.closeTimeoutMs ?? 10_000
  let quitting = false
  let closed = false
  let closing: Promise<void> | undefined

  function shutdown(): Promise<void> {
    quitting = true
    closing ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs)
      })
      try {
        const outcome = await Promise.race([options.close().then(() => 'closed' as const), timedOut])
        if (outcome === 'timeout') log(`the host did not close within ${timeoutMs / 1000} s; quitting anyway`)
      } catch (error) {
        log('the host did not close cleanly', error)
      } finally {
        clearTimeout(timer)
        closed = true
      }
    })()
    return closing
  }

  // Quitting while a turn or a background task runs stops it: ask first (once; a second quit while
  // the question is up waits for its answer). The OS ending the session does not ask.
  let confirmed = false
  let asking = false
  /** True when the quit may go on now; otherwise the question is (or already was) put, and a yes quits. */
  function mayQuit(): boolean {
    if (confirmed || quitting || !options.running || !options.confirmQuit) return true
    const what = options.running()
    if (what === null) return true
    if (!asking) {
      asking = true
      options.confirmQuit(what).then(
        (yes) => {
          asking = false
          if (!yes) return log(`quit cancelled: ${what}`)
          confirmed = true
          log(`quitting although ${what}`)
          app.quit()
        },
        (error: unknown) => {
          asking = false
          log('the quit question failed', error)
        }
      )
    }
    return false
  }

  app.on('before-quit', (event) => {
    if (!mayQuit()) return event.preventDefault()
    quitting = true
  })
  // On macOS an app stays running without windows; the dock icon ('activate') opens a new one.
  app.on('window-all-closed', () => {
    if (options.platform !== 'darwin') app.quit()
  })
  app.on('activate', () => {
    if (!quitting && options.windows().length === 0) options.openWindow()
  })
  // A second launch while this one is quitting must not open a window on a closing Host.
  app.on('second-instance', () => {
    if (!quitting) options.showWindow()
  })
  app.on('will-quit', (event) => {
    if (closed) return
    event.preventDefault()
    void shutdown().then(() => app.quit())
  })

  return {
    get quitting() {
      return quitting
    },
    shutdown,
    watchWindow(window) {
      // Windows does not emit will-quit on shutdown or log-off; this is the last word we get.
      window.on('session-end', () => {
        confirmed = true
        void shutdown().then(() => app.quit())
      })
      // On Linux and Windows closing the last window quits: ask before the window is gone.
      window.on('close', (event) => {
        if (options.platform === 'darwin' || options.windows().length > 1) return
        if (!mayQuit()) event.preventDefault()
      })
    }
  }
}
