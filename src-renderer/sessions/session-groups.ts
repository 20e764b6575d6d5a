// The sidebar groups sessions by the workspace they belong to (a session always runs with its own
// workspace's hooks, trust and grants, whatever the window shows): the window's workspace first,
// then the others by their latest activity. Sessions keep the order they came in within a group.
import type { SessionSummary } from './sessions-store'

export interface SessionGroup {
  workspace: string
  /** The folder's last path segment; the full path goes in the title. */
  label: string
  current: boolean
  sessions: SessionSummary[]
}

export function groupByWorkspace(list: readonly SessionSummary[], current: string | null): SessionGroup[] {
  const groups = new Map<string, SessionGroup>()
  for (const session of list) {
    let group = groups.get(session.workspace)
    if (!group) {
      group = { workspace: session.workspace, label: folderName(session.workspace), current: session.workspace === current, sessions: [] }
      groups.set(session.workspace, group)
    }
    group.sessions.push(session)
  }
  const latest = (group: SessionGroup) => Math.max(...group.sessions.map((s) => s.lastActivity))
  return [...groups.values()].sort((a, b) => Number(b.current) - Number(a.current) || latest(b) - latest(a))
}

function folderName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean)
  return parts.at(-1) ?? path
}
