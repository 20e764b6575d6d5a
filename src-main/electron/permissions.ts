// Which web permissions the app page gets. Chromium asks Electron twice: a synchronous check
// (`navigator.permissions.query`, and the first step of most APIs) and an asynchronous request.
// Seam's own page, in its top-level frame, gets exactly what its UI uses; everything else, and
// every other origin, is refused and logged. No electron runtime import: the decisions are plain
// functions typed with Electron's own permission names.
import type { Session } from 'electron'
import { appOriginOf } from './app-origin'
import { isAppUrl, type AppPage } from './security'

type RequestHandler = NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>
type CheckHandler = NonNullable<Parameters<Session['setPermissionCheckHandler']>[0]>
/** Every permission name Electron 45 can send (its declarations list them). */
export type PermissionName = Parameters<RequestHandler>[1] & Parameters<CheckHandler>[1]

/**
 * What the UI uses: `navigator.clipboard.writeText` (a code block's Copy button) is
 * `clipboard-sanitized-write`; `notifications` for web notifications from bundles' client code
 * running in the page. Paste goes through the paste event and the context menu (no permission);
 * reading the clipboard, media, location, fullscreen and the rest are never granted.
 */
export const APP_PERMISSIONS: ReadonlySet<PermissionName> = new Set<PermissionName>(['clipboard-sanitized-write', 'notifications'])

export interface PermissionAsk {
  permission: PermissionName
  /** The URL (request) or origin (check) of the frame that asks; absent for a service worker's check. */
  requester: string | undefined
  isMainFrame: boolean
}

export type PermissionLog = (message: string) => void

/** Granted only for a permission the UI uses, asked by the app page's own top-level frame. */
export function permissionAllowed(ask: PermissionAsk, page: AppPage): boolean {
  if (!APP_PERMISSIONS.has(ask.permission) || !ask.isMainFrame || !ask.requester) return false
  // A check names an origin (`seam://app`), a request the frame's URL: both compare by origin.
  return appOriginOf(ask.requester) !== null && isAppUrl(ask.requester, page)
}

/** The two handlers, to be installed on the window's session (hardenSession does). */
export function permissionHandlers(page: AppPage, log: PermissionLog): { request: RequestHandler; check: CheckHandler } {
  // A page that asks in a loop would flood the log: each refusal is logged once per origin.
  const logged = new Set<string>()
  const refuse = (kind: string, ask: PermissionAsk) => {
    const key = `${kind}:${ask.permission}:${ask.requester ?? ''}:${ask.isMainFrame}`
    if (logged.has(key)) return false
    logged.add(key)
    const where = ask.requester ? `${appOriginOf(ask.requester) ?? ask.requester}${ask.isMainFrame ? '' : ' (a subframe)'}` : 'an unknown frame'
    log(`permission ${kind} refused: ${ask.permission} for ${where}`)
    return false
  }
  return {
    request(_webContents, permission, callback, details) {
      const ask = { permission, requester: details.requestingUrl, isMainFrame: details.isMainFrame }
      callback(permissionAllowed(ask, page) || refuse('request', ask))
    },
    check(_webContents, permission, requestingOrigin, details) {
      const ask = { permission, requester: requestingOrigin || details.requestingUrl, isMainFrame: details.isMainFrame }
      return permissionAllowed(ask, page) || refuse('check', ask)
    }
  }
}
