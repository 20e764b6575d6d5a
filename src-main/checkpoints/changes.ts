// What the log says about changed files, without touching the disk: the files a turn changed (the
// state before its first change and after its last), the files a rewind to a message restores,
// and the latest state the log knows for a file.
import type { FileState } from '../../src-shared/session/checkpoint-events'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'

export interface TurnFileChange {
  path: string
  /** Before the turn's first change to it. */
  before: FileState
  /** As the turn's last change left it; undefined when that call never reported (abandoned). */
  after: FileState | undefined
  /** The tools that changed it, in order. */
  tools: string[]
}

/** The files `turnId` changed, in the order it first touched them. */
export function turnFileChanges(events: readonly SessionEvent[], turnId: string): TurnFileChange[] {
  const byPath = new Map<string, TurnFileChange>()
  for (const event of events) {
    if (event.type === 'file/checkpoint' && event.turnId === turnId) {
      const seen = byPath.get(event.path)
      if (seen === undefined) byPath.set(event.path, { path: event.path, before: event.before, after: undefined, tools: [event.tool] })
      else seen.tools.push(event.tool)
    } else if (event.type === 'file/changed' && event.turnId === turnId) {
      const seen = byPath.get(event.path)
      if (seen !== undefined) seen.after = event.after
    }
  }
  return [...byPath.values()]
}

/** Turns with at least one file change, in log order. */
export function turnsWithChanges(events: readonly SessionEvent[]): string[] {
  const turns = new Set<string>()
  for (const event of events) if (event.type === 'file/checkpoint' && event.turnId !== undefined) turns.add(event.turnId)
  return [...turns]
}

export interface RewindFile {
  path: string
  /** The file before the message: the earliest checkpoint logged after it. */
  before: FileState
}

/** The files changed after the event at `seq`, each with its state before the first of those changes. */
export function filesChangedAfter(events: readonly SessionEvent[], seq: number): RewindFile[] {
  const byPath = new Map<string, RewindFile>()
  for (const event of events) {
    if (event.seq <= seq || event.type !== 'file/checkpoint') continue
    if (!byPath.has(event.path)) byPath.set(event.path, { path: event.path, before: event.before })
  }
  return [...byPath.values()]
}

/** The latest state of `path` the log knows: from a checkpoint, a call's result, a revert or a rewind. */
export function lastKnownState(events: readonly SessionEvent[], path: string): FileState | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event.type === 'file/changed' && event.path === path) return event.after
    if (event.type === 'file/checkpoint' && event.path === path) return event.before
    if (event.type === 'revert' || event.type === 'rewind') {
      const restored = event.files.find((file) => file.path === path)
      if (restored !== undefined) return restored.to
    }
  }
  return undefined
}

/** The user message at `seq`, if there is one. */
export function userMessageAt(events: readonly SessionEvent[], seq: number): SessionEventOf<'user/message'> | undefined {
  const event = events[seq - 1]?.seq === seq ? events[seq - 1] : events.find((e) => e.seq === seq)
  return event?.type === 'user/message' ? event : undefined
}

/** Two states are the same content (an unsaved state is never known to be the same as anything). */
export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (a === undefined || b === undefined) return false
  if (a.kind === 'absent' || b.kind === 'absent') return a.kind === b.kind
  return a.kind === 'file' && b.kind === 'file' && a.sha256 === b.sha256
}
