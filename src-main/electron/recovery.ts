// Keeps the one window showing the app: a failed page load and a renderer that is gone are
// logged, shown to the user and recovered from (reload), instead of leaving a hidden or blank
// window. A renderer that keeps crashing is not reloaded in a loop: the user decides. A renderer
// that hangs (Electron's 'unresponsive') is offered a reload; the user may wait instead.
import type { BrowserWindow, RenderProcessGoneDetails } from 'electron'

export type RecoveryChoice = 'retry' | 'quit'
export type HungChoice = 'reload' | 'wait'

export interface RecoveryOptions {
  window: BrowserWindow
  /** Loads the app page (loadAppPage); rejects with Electron's load error. */
  load(): Promise<void>
  log(message: string, error?: unknown): void
  /** A modal question with "Retry" and "Quit" (dialog.showMessageBox in the shell). */
  ask(title: string, message: string): Promise<RecoveryChoice>
  quit(): void
  /** Asked when the page stopped responding: "Reload" or "Wait" (dialog.showMessageBox in the shell). */
  askHung(): Promise<HungChoice>
  /** Crashes within `crashWindowMs` reloaded without asking. Default 2 within 60 s. */
  silentReloads?: number
  crashWindowMs?: number
  now?(): number
}

export interface WindowRecovery {
  /** Loads the page; on failure logs, asks, and retries or quits. Resolves once settled. */
  loadNow(): Promise<void>
}

export function keepWindowAlive(options: RecoveryOptions): WindowRecovery {
  const { window, log } = options
  const contents = window.webContents
  const silentReloads = options.silentReloads ?? 2
  const crashWindowMs = options.crashWindowMs ?? 60_000
  const now = options.now ?? Date.now
  let crashes: number[] = []

  const usable = () => !window.isDestroyed() && !contents.isDestroyed()

  async function settle(title: string, message: string): Promise<void> {
    if (!usable()) return
    // A window that never loaded was never shown ('ready-to-show'): show it behind the question.
    if (!window.isVisible()) window.show()
    const choice = await options.ask(title, message)
    if (choice === 'retry') return loadNow()
    options.quit()
  }

  async function loadNow(): Promise<void> {
    if (!usable()) return
    try {
      await options.load()
    } catch (error) {
      // A newer navigation (a reload while loading) aborted this one: not a failure.
      if (errorCode(error) === 'ERR_ABORTED') return
      log('the app page did not load', error)
      return settle('Seam could not load its window', `${describe(error)}\n\nRebuilding (npm run build) usually fixes a missing or damaged page.`)
    }
  }

  // Set between the user choosing Reload for a hung page and that renderer being gone.
  let endingHung = false
  let hung = false
  contents.on('unresponsive', () => {
    if (hung || !usable()) return
    hung = true
    log('the window stopped responding')
    options.askHung().then(
      (choice) => {
        // It may have recovered while the question was up: then there is nothing to reload.
        if (choice === 'reload' && hung && usable()) {
          log('reloading the window that stopped responding')
          endingHung = true
          // A hung renderer does not run a reload; ending it first does (the 'gone' handler reloads).
          contents.forcefullyCrashRenderer()
        }
        hung = false
      },
      (error: unknown) => {
        hung = false
        log('the question about the hung window failed', error)
      }
    )
  })
  contents.on('responsive', () => {
    if (hung) log('the window responds again')
    hung = false
  })

  contents.on('render-process-gone', (_event: unknown, details: RenderProcessGoneDetails) => {
    if (details.reason === 'clean-exit' || !usable()) return
    if (endingHung) {
      endingHung = false
      void loadNow()
      return
    }
    log(`the window's renderer is gone (${details.reason}, exit code ${details.exitCode})`)
    const time = now()
    crashes = crashes.filter((at) => time - at < crashWindowMs)
    crashes.push(time)
    if (crashes.length <= silentReloads) {
      void loadNow()
      return
    }
    crashes = []
    void settle('The Seam window keeps crashing', `Its renderer stopped again (${details.reason}). Your sessions are saved; reload the window to continue.`)
  })

  contents.on('preload-error', (_event: unknown, preloadPath: string, error: Error) => {
    log(`the preload script ${preloadPath} failed`, error)
  })

  return { loadNow }
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  return typeof code === 'string' ? code : undefined
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
