// Updates of the packaged desktop app through electron-updater, against the release feed
// electron-builder wrote into the package (app-update.yml, from `publish` at packaging time).
// Off by default: only when the `autoUpdate` setting is on, in a packaged build. electron-updater
// is loaded only then (it reads the package's files at load). Failures (no feed, offline, a bad
// signature) are logged; the app keeps running.
import type { AppUpdater } from 'electron-updater'

export interface UpdateOptions {
  /** The `autoUpdate` setting. */
  enabled: boolean
  /** app.isPackaged: a development run has no feed and nothing to replace. */
  packaged: boolean
  log(message: string, error?: unknown): void
  /** Loads electron-updater's autoUpdater (injected by tests). */
  load?(): Promise<Pick<AppUpdater, 'checkForUpdatesAndNotify' | 'on'>>
}

export type UpdateState = 'off' | 'development' | 'checking' | 'failed'

/** Starts a check when turned on (it downloads in the background and asks to restart when ready). */
export async function startUpdates(options: UpdateOptions): Promise<UpdateState> {
  if (!options.enabled) return 'off'
  if (!options.packaged) {
    options.log('updates: the autoUpdate setting is on, but a development build is not updated')
    return 'development'
  }
  try {
    const updater = options.load ? await options.load() : (await import('electron-updater')).autoUpdater
    updater.on('error', (error) => options.log('updates: the check failed', error))
    await updater.checkForUpdatesAndNotify()
    return 'checking'
  } catch (error) {
    options.log('updates: the check failed', error)
    return 'failed'
  }
}
