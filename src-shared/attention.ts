// When Seam needs the user: the moments a desktop notification is for, and the gate that shows
// each moment at most once and never while Seam's window has the focus. Shared by the desktop
// app's main process (Electron's Notification) and web mode's page (the browser's Notification
// API); no DOM or Node imports.
import type { SessionEvent } from './session/events'
import { subagentLabel } from './subagent-label'

export type AttentionKind = 'approval' | 'turn-finished' | 'turn-failed'

export interface AttentionNotice {
  /** One moment: an approval request, or one turn's end. A key is shown at most once. */
  key: string
  kind: AttentionKind
  sessionId: string
  title: string
  body: string
}

const MAX_BODY = 180

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > MAX_BODY ? `${line.slice(0, MAX_BODY - 1)}…` : line
}

/**
 * The notice a session event calls for, if any: an approval waiting (`approval/asked`), a turn
 * that finished (`completed`, or stopped at the step limit) or failed (`error`). A turn the user
 * cancelled or a prompt a policy blocked needs nothing from them.
 */
export function attentionFor(sessionId: string, event: SessionEvent): AttentionNotice | undefined {
  switch (event.type) {
    case 'approval/asked':
      return {
        key: `approval:${event.requestId}`,
        kind: 'approval',
        sessionId,
        title: `Seam needs your approval: ${event.tool}${event.agent ? ` (from ${subagentLabel(event.agent)})` : ''}`,
        body: clip(`${event.agent ? `Asked by ${subagentLabel(event.agent)}: ` : ''}${event.reason || `${event.tool} is waiting for your answer.`}`)
      }
    case 'turn/end':
      if (event.reason === 'completed' || event.reason === 'max_steps') {
        return {
          key: `turn:${sessionId}:${event.turnId}`,
          kind: 'turn-finished',
          sessionId,
          title: 'Seam finished',
          body: event.reason === 'max_steps' ? 'The turn stopped at the step limit.' : 'The turn is done: your reply is waiting.'
        }
      }
      if (event.reason === 'error') {
        return { key: `turn:${sessionId}:${event.turnId}`, kind: 'turn-failed', sessionId, title: 'Seam: the turn failed', body: clip(event.error ?? 'The turn ended with an error.') }
      }
      return undefined
    default:
      return undefined
  }
}

export interface AttentionGateOptions {
  /** The user's setting (and, in a browser, the permission). */
  enabled(): boolean
  /** Seam's window (or page) has the focus: the user sees it already. */
  focused(): boolean
  show(notice: AttentionNotice): void
  /** The session's name as the user knows it (its title, and a worktree session's branch), so a notice says which session asks. */
  sessionName?(sessionId: string): string | undefined
}

/** How a notice names a session: its title (or its id), and the branch of a worktree session. */
export function sessionLabel(sessionId: string, title: string | undefined, branch?: string): string {
  const name = title && title.trim() !== '' ? `"${clip(title)}"` : `session ${sessionId}`
  return branch ? `${name} on ${branch}` : name
}

/** Shows each moment once, only when enabled and not focused. */
export class AttentionGate {
  private readonly seen = new Set<string>()

  constructor(private readonly options: AttentionGateOptions) {}

  /** Returns whether the notice was shown. */
  offer(notice: AttentionNotice | undefined): boolean {
    if (!notice || this.seen.has(notice.key)) return false
    // Seen even when not shown: focusing away later does not replay an old moment.
    this.seen.add(notice.key)
    if (this.seen.size > 1000) this.seen.delete(this.seen.values().next().value as string)
    if (!this.options.enabled() || this.options.focused()) return false
    this.options.show(notice)
    return true
  }

  /** For an event a subagent of the session recorded: only its approvals call for the user (its turn's end is its parent's business). */
  subagentEvent(sessionId: string, event: SessionEvent): boolean {
    return event.type === 'approval/asked' ? this.event(sessionId, event) : false
  }

  /** `attentionFor` and `offer` in one: for a session's appended event. */
  event(sessionId: string, event: SessionEvent): boolean {
    const notice = attentionFor(sessionId, event)
    const name = notice && this.options.sessionName?.(sessionId)
    return this.offer(notice && name ? { ...notice, body: clip(`${name}: ${notice.body}`) } : notice)
  }
}
