// A subagent's own log: a session log of its own beside its parent's,
// `<sessions>/<parentId>.agents/<agentId>.jsonl` (folder 0700, file 0600), with a header like any
// session's. Its events (messages, tool calls and results, usage) are what the child's requests
// are built from; the parent's log ties it to the Agent call (`subagent/start`, `subagent/end`).
import { linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { checkSessionEvent } from './event-check'
import { assertSessionId } from './ids'
import { readSessionFile } from './load'
import { SessionLog } from './log'
import type { SessionEvent } from '../../src-shared/session/events'

/** The folder a session's subagent logs live in. */
export function childLogFolderOf(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '') + '.agents'
}

/** The child log's path for `agentId` of the session whose log is at `parentPath`. */
export function childLogPathOf(parentPath: string, agentId: string): string {
  assertSessionId(agentId)
  return join(childLogFolderOf(parentPath), `${agentId}.jsonl`)
}

/** The child log's file name as the parent's `subagent/start` records it (relative to the parent log's folder). */
export function childLogFileName(parentPath: string, agentId: string): string {
  return join(basename(childLogFolderOf(parentPath)), `${agentId}.jsonl`)
}

/** Creates the child's log, header on disk first (whole or not at all, as SessionStore.create does). */
export function createChildLog(parent: SessionLog, agentId: string, workspace: string, title: string): SessionLog {
  const path = childLogPathOf(parent.path, agentId)
  const now = Date.now()
  const check = checkSessionEvent({ type: 'session/header', seq: 1, ts: now, sessionId: agentId, version: 1, workspace, createdAt: now, title })
  if (!check.ok) throw new Error(`subagent log header: ${check.field}: ${check.message}`)
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const line = `${JSON.stringify(check.event)}\n`
  const temp = join(dirname(path), `.${agentId}.creating`)
  writeFileSync(temp, line, { flag: 'wx', mode: 0o600 })
  try {
    linkSync(temp, path)
  } finally {
    rmSync(temp, { force: true })
  }
  const header = JSON.parse(line) as SessionEvent
  return new SessionLog({ id: agentId, path, events: [header], created: true, redactLine: parent.lineRedaction })
}

/** A child log's events, read back (the transcript's nested view, a resumed session's subagents). */
export async function readChildLog(parentPath: string, agentId: string): Promise<SessionEvent[]> {
  const parsed = await readSessionFile(childLogPathOf(parentPath, agentId), agentId)
  return parsed.events
}
