// The model's history, derived from the session log alone ("Model-visible means logged").
// Visible: user/message, assistant/message, tool/result, context/message, steering/message.
// Everything else (headers, turns, approvals, grants, hooks, notices, blocked prompts) is not.
//
// Shape guarantees, whatever the log holds after a crash or a cancel:
// - every tool call in an assistant message has exactly one tool message after it, in call order;
//   a call without a result in the log is dropped from the assistant message (and noted), since
//   providers reject a call without an answer and nothing should be invented for it;
// - user-side messages logged while calls were still open (context from a post-tool hook, a
//   steering message) come after all of that step's results;
// - consecutive user-side messages are merged into one user message, joined by a blank line.
import type { ModelMessage, ModelToolCall } from '../../src-shared/model'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'

export interface DerivedHistory {
  messages: ModelMessage[]
  /** What was left out to keep the history well-formed (dangling calls, orphan results), by seq. */
  notes: string[]
}

export function deriveModelMessages(events: readonly SessionEvent[]): ModelMessage[] {
  return deriveModelHistory(events).messages
}

/** Context and continuation reasons reach the model wrapped like this. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`
}

interface OpenStep {
  assistant: SessionEventOf<'assistant/message'>
  results: Map<string, SessionEventOf<'tool/result'>>
  /** User-side text logged before all results were in. */
  deferred: string[]
}

export function deriveModelHistory(events: readonly SessionEvent[]): DerivedHistory {
  const messages: ModelMessage[] = []
  const notes: string[] = []
  let open: OpenStep | undefined

  const pushUser = (text: string): void => {
    const last = messages[messages.length - 1]
    if (last?.role === 'user') last.content = `${last.content}\n\n${text}`
    else messages.push({ role: 'user', content: text })
  }
  const userSide = (text: string): void => {
    if (open !== undefined) open.deferred.push(text)
    else pushUser(text)
  }
  const pushAssistant = (event: SessionEventOf<'assistant/message'>, calls: ModelToolCall[]): void => {
    if (event.text === '' && (event.thinking ?? '') === '' && calls.length === 0) {
      notes.push(`seq ${event.seq}: left out an assistant message with no text and no answered tool calls`)
      return
    }
    const message: ModelMessage = { role: 'assistant', text: event.text, toolCalls: calls }
    if (event.thinking !== undefined) message.thinking = event.thinking
    messages.push(message)
  }
  const closeStep = (): void => {
    if (open === undefined) return
    const { assistant, results, deferred } = open
    open = undefined
    const answered: ModelToolCall[] = []
    for (const call of assistant.toolCalls) {
      if (results.has(call.id)) answered.push(copyCall(call))
      else notes.push(`seq ${assistant.seq}: dropped tool call ${call.id} (${call.name}): the log has no tool/result for it`)
    }
    pushAssistant(assistant, answered)
    for (const call of answered) {
      const result = results.get(call.id)
      if (result !== undefined) messages.push({ role: 'tool', callId: result.callId, toolName: result.name, content: result.content, isError: result.isError })
    }
    for (const text of deferred) pushUser(text)
  }

  for (const event of events) {
    switch (event.type) {
      case 'user/message':
        userSide(event.content)
        break
      case 'context/message':
        userSide(systemReminder(event.text))
        break
      case 'steering/message':
        userSide(event.source === 'continuation' ? systemReminder(event.text) : event.text)
        break
      case 'assistant/message':
        closeStep()
        if (event.toolCalls.length === 0) pushAssistant(event, [])
        else open = { assistant: event, results: new Map(), deferred: [] }
        break
      case 'tool/result': {
        if (open === undefined || !open.assistant.toolCalls.some((call) => call.id === event.callId)) {
          notes.push(`seq ${event.seq}: left out tool/result ${event.callId} (${event.name}): no open assistant tool call has that id`)
        } else if (open.results.has(event.callId)) {
          notes.push(`seq ${event.seq}: left out a second tool/result for ${event.callId} (${event.name})`)
        } else {
          open.results.set(event.callId, event)
          if (open.results.size === open.assistant.toolCalls.length) closeStep()
        }
        break
      }
      case 'session/header':
      case 'session/renamed':
      case 'turn/start':
      case 'turn/end':
      case 'tool/call':
      case 'prompt/blocked':
      case 'approval/asked':
      case 'approval/decided':
      case 'grant/added':
      case 'grant/revoked':
      case 'notice':
      case 'model/context':
      case 'hook/invoked':
      case 'hook/result':
        break
      default: {
        const unhandled: never = event
        throw new Error(`deriveModelHistory: unhandled session event ${JSON.stringify((unhandled as { type?: unknown }).type)}`)
      }
    }
  }
  closeStep()
  return { messages, notes }
}

function copyCall(call: SessionEventOf<'assistant/message'>['toolCalls'][number]): ModelToolCall {
  const copy: ModelToolCall = { id: call.id, name: call.name, args: call.args }
  if (call.argsError !== undefined) copy.argsError = call.argsError
  return copy
}
