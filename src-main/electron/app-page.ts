// Which page the shell trusts: the app's own origin (seam://app, where the built renderer is
// served from) or, in development only, electron-vite's dev server origin.
import type { AppPage } from './security'

export interface AppPageOptions {
  /** electron-vite's dev server (see devServerUrlFor: development only, loopback only). */
  devServerUrl?: string
}

export function appPageFor(options: AppPageOptions): AppPage {
  return options.devServerUrl ? { kind: 'server', origin: options.devServerUrl } : { kind: 'app' }
}
