// The prompt ↑ recalls in an empty message box: the last one the user typed in this session (as
// typed, before a slash command's expansion), steering messages included.
import type { SessionEvent } from '../../src-shared/session/events'

export function lastPrompt(events: readonly SessionEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type === 'user/message') return event.originalContent ?? event.content
  }
  return null
}
