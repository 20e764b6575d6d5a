// What is running right now, from the events every open session appends: turns (turn/start
// without its turn/end) and background tasks (task/started without task/ended). Quitting asks
// first while anything runs (lifecycle.ts).
import type { SessionEvent } from '../../src-shared/session/events'

export interface Activity {
  turns: number
  tasks: number
}

export class ActivityTracker {
  private readonly turns = new Set<string>()
  private readonly tasks = new Set<string>()

  event(sessionId: string, event: SessionEvent): void {
    const record = event as { type: string; turnId?: string; taskId?: string }
    if (record.type === 'turn/start') this.turns.add(`${sessionId}/${record.turnId}`)
    else if (record.type === 'turn/end') this.turns.delete(`${sessionId}/${record.turnId}`)
    else if (record.type === 'task/started') this.tasks.add(`${sessionId}/${record.taskId}`)
    else if (record.type === 'task/ended') this.tasks.delete(`${sessionId}/${record.taskId}`)
  }

  get current(): Activity {
    return { turns: this.turns.size, tasks: this.tasks.size }
  }
}

/** "a turn and 2 background tasks are running", or null when nothing is. */
export function describeActivity(activity: Activity): string | null {
  const parts: string[] = []
  if (activity.turns > 0) parts.push(activity.turns === 1 ? 'a turn' : `${activity.turns} turns`)
  if (activity.tasks > 0) parts.push(activity.tasks === 1 ? 'a background task' : `${activity.tasks} background tasks`)
  if (parts.length === 0) return null
  const count = activity.turns + activity.tasks
  return `${parts.join(' and ')} ${count === 1 ? 'is' : 'are'} running`
}
