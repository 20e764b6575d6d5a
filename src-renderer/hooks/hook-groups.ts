// Pairs hook/invoked with hook/result and groups them under what they ran for: the tool call
// (by toolCallToken), else the turn (its prompt), else the session (e.g. SessionStart).
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'

export interface HookInvocationView {
  invocationId: string
  invoked?: SessionEventOf<'hook/invoked'>
  result?: SessionEventOf<'hook/result'>
}

export interface HookGroup {
  key: string
  kind: 'session' | 'turn' | 'tool'
  title: string
  invocations: HookInvocationView[]
}

export function groupHookInvocations(events: readonly SessionEvent[]): HookGroup[] {
  const tools = new Map<string, string>()
  const prompts = new Map<string, string>()
  for (const event of events) {
    if (event.type === 'tool/call') tools.set(event.token, `${event.name}${summary(event.args)}`)
    else if (event.type === 'approval/asked' && !tools.has(event.token)) tools.set(event.token, `${event.tool}${summary(event.args)}`)
    else if (event.type === 'user/message' && !prompts.has(event.turnId)) prompts.set(event.turnId, event.content)
    else if (event.type === 'prompt/blocked' && !prompts.has(event.turnId)) prompts.set(event.turnId, `${event.prompt} (blocked)`)
  }

  const groups = new Map<string, HookGroup>()
  const byId = new Map<string, HookInvocationView>()
  let turn: string | null = null
  const groupFor = (token: string | undefined): HookGroup => {
    const key = token ? `tool:${token}` : turn ? `turn:${turn}` : 'session'
    let group = groups.get(key)
    if (!group) {
      group = token
        ? { key, kind: 'tool', title: `Tool call ${tools.get(token) ?? token}`, invocations: [] }
        : turn
          ? { key, kind: 'turn', title: `Prompt: ${clip(prompts.get(turn) ?? '(no prompt recorded)')}`, invocations: [] }
          : { key, kind: 'session', title: 'Session', invocations: [] }
      groups.set(key, group)
    }
    return group
  }

  for (const event of events) {
    if (event.type === 'turn/start') turn = event.turnId
    else if (event.type === 'turn/end') turn = null
    else if (event.type === 'hook/invoked') {
      const view = byId.get(event.invocationId) ?? { invocationId: event.invocationId }
      view.invoked = event
      if (!byId.has(event.invocationId)) {
        byId.set(event.invocationId, view)
        groupFor(event.toolCallToken).invocations.push(view)
      }
    } else if (event.type === 'hook/result') {
      const view = byId.get(event.invocationId)
      if (view) {
        view.result = event
        // A PreToolUse hook starts before its call is sealed: the result names the call.
        if (event.toolCallToken !== undefined && view.invoked?.toolCallToken === undefined) moveTo(view, groupFor(event.toolCallToken))
      } else {
        const orphan: HookInvocationView = { invocationId: event.invocationId, result: event }
        byId.set(event.invocationId, orphan)
        groupFor(undefined).invocations.push(orphan)
      }
    }
  }
  return [...groups.values()].filter((group) => group.invocations.length > 0)

  function moveTo(view: HookInvocationView, target: HookGroup): void {
    for (const group of groups.values()) {
      const index = group.invocations.indexOf(view)
      if (index >= 0) group.invocations.splice(index, 1)
    }
    target.invocations.push(view)
  }
}

function summary(args: Record<string, unknown>): string {
  const value = args.command ?? args.file_path ?? args.pattern
  return typeof value === 'string' ? `: ${clip(value)}` : ''
}

function clip(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
