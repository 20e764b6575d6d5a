// After a compaction the history restarts from a summary, so the skills loaded before it would be
// lost. Claude Code re-attaches the most recent invocation of each skill: its first 5,000 tokens,
// within 25,000 tokens for all of them, the most recently used first. Loads are read from the log:
// `skill/loaded` events (the Skill tool, earlier re-attachments) and the user messages of skills
// typed as `/name` (they begin with the skill's `<command-name>` header).
import { join } from 'node:path'
import type { SessionEvent } from '@seam/sdk'

export interface SkillLoad {
  skill: string
  file: string
  args: string
  text: string
}

export interface ReattachBudget {
  /** Characters kept of each skill (5,000 tokens at four characters a token). */
  perSkillChars: number
  /** Characters for all of them (25,000 tokens). */
  totalChars: number
}

/** What to re-attach after the compaction at `events[compactionIndex]`, oldest first. */
export function loadsToReattach(events: readonly SessionEvent[], compactionIndex: number, budget: ReattachBudget): SkillLoad[] {
  let start = 0
  for (let i = compactionIndex - 1; i >= 0; i--) {
    if (events[i].type === 'compaction') {
      start = i + 1
      break
    }
  }
  const latest = new Map<string, SkillLoad>()
  for (let i = compactionIndex - 1; i >= start; i--) {
    const load = loadOf(events[i])
    if (load && !latest.has(load.skill)) latest.set(load.skill, load)
  }
  const kept: SkillLoad[] = []
  let left = budget.totalChars
  // `latest` is in most-recent-first order: the newest loads get the budget first.
  for (const load of latest.values()) {
    if (left <= 0) break
    const room = Math.min(budget.perSkillChars, left)
    const text = load.text.length <= room ? load.text : `${load.text.slice(0, room)}\n\n[The rest of this skill was cut when the conversation was compacted: read ${load.file} for all of it.]`
    kept.push({ ...load, text })
    left -= Math.min(load.text.length, room)
  }
  return kept.reverse()
}

function loadOf(event: SessionEvent): SkillLoad | undefined {
  if (event.type === 'skill/loaded') return { skill: event.skill, file: event.file, args: event.args, text: event.text }
  if (event.type !== 'user/message' || !event.command) return undefined
  if (!event.content.startsWith(`<command-name>/${event.command.name}</command-name>`)) return undefined
  const dir = /^Base directory for this skill: (.+)$/m.exec(event.content)?.[1]
  if (dir === undefined) return undefined
  return { skill: event.command.name, file: join(dir, 'SKILL.md'), args: event.command.args, text: event.content }
}

/** Whether the skill was loaded with these arguments since the last compaction (an identical re-invocation only gets a note). */
export function loadedSinceCompaction(events: readonly SessionEvent[], skill: string, args: string): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event.type === 'compaction') return false
    const load = loadOf(event)
    if (load && load.skill === skill && load.args.trim() === args.trim()) return true
  }
  return false
}
