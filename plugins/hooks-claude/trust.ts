// Seam's trust gate on the workspace's hook files: what the trust dialog lists (every command
// declared there), and what a session is told when those hooks did not run.
import type { TrustItem } from '@seam/sdk'
import type { SessionEntry } from './sessions'
import { handlerTrustItem, loadWorkspace, type HooksSnapshot } from './sources'

export { TRUST_SOURCE } from './sources'
const NOTICE_SOURCE = 'hooks-claude'
const LISTED = 10

/** Every handler declared in `root`'s `.claude/settings.json` and `.claude/settings.local.json`. */
export function workspaceTrustItems(root: string): TrustItem[] {
  return loadWorkspace(root).flatMap((source) => source.handlers.map(handlerTrustItem))
}

/** The notice for a session in an untrusted workspace whose files declare hooks; `undefined` when none were skipped. */
export function untrustedNotice(snapshot: HooksSnapshot): string | undefined {
  const skipped = snapshot.untrusted
  if (skipped.length === 0) return undefined
  const listed = skipped.slice(0, LISTED).map((handler) => `${handler.event} [${handler.label}] (${handler.file})`)
  const more = skipped.length > LISTED ? `; and ${skipped.length - LISTED} more` : ''
  return `Claude Code hooks: this workspace is not trusted, so ${skipped.length} hook(s) declared in its .claude settings did not run: ${listed.join('; ')}${more}. Trust the workspace to run them.`
}

/** Once per session: skipped files (naming the field), dropped groups, unsupported handlers, untrusted hooks. */
export function showLoadNotices(entry: SessionEntry, snapshot: HooksSnapshot): void {
  if (entry.loadNoticeShown) return
  entry.loadNoticeShown = true
  const notify = (level: 'info' | 'warn', text: string): void => {
    try {
      entry.agent.notify(level, text, NOTICE_SOURCE)
    } catch {
      // The session closed: nobody to tell.
    }
  }
  for (const warning of snapshot.warnings) notify('warn', warning)
  if (snapshot.disabledBy !== undefined) notify('info', `Claude Code hooks are off: disableAllHooks is true in ${snapshot.disabledBy}`)
  const untrusted = untrustedNotice(snapshot)
  if (untrusted !== undefined) notify('warn', untrusted)
  if (snapshot.unmapped.length > 0) {
    notify('info', `Claude Code hooks: hooks on ${snapshot.unmapped.join(', ')} are loaded but Seam does not fire these events yet, so they never run`)
  }
}

/** After a live reload: tell every open session about problems it has not been told about. */
export function showReloadNotices(sessions: Iterable<SessionEntry>, snapshot: HooksSnapshot, previous: HooksSnapshot): void {
  const known = new Set(previous.warnings)
  const fresh = snapshot.warnings.filter((warning) => !known.has(warning))
  if (fresh.length === 0) return
  for (const entry of sessions) {
    for (const warning of fresh) {
      try {
        entry.agent.notify('warn', warning, NOTICE_SOURCE)
      } catch {
        // closed
      }
    }
  }
}
