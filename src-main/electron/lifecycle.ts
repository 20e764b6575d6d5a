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
}

export interface Lifecycle {
  readonly quitting: boolean
  /** Closes the Host once (later calls get the same promise); never rejects. */
  shutdown(): Promise<void>
  /** Per-window events that end the app: Windows' session-end. */
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

  app.on('before-quit', () => {
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
        void shutdown().then(() => app.quit())
      })
    }
  }
}
