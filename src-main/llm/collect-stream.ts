// Drains a model stream into one summary: the joined text and thinking, the tool calls, the done
// event, and the ModelError that ended it, if any. Used by tests and by one-shot requests.

import { ModelError, type ModelStreamEvent, type ModelToolCall } from '../../src-shared/model'
import { toModelError } from './errors'

export interface CollectedStream {
  events: ModelStreamEvent[]
  text: string
  thinking: string
  toolCalls: ModelToolCall[]
  done?: Extract<ModelStreamEvent, { type: 'done' }>
  error?: ModelError
}

/** Never throws: a failure ends up in `error`, with everything that arrived before it kept. */
export async function collectStream(
  stream: AsyncIterable<ModelStreamEvent>,
  onEvent?: (event: ModelStreamEvent) => void
): Promise<CollectedStream> {
  const out: CollectedStream = { events: [], text: '', thinking: '', toolCalls: [] }
  try {
    for await (const event of stream) {
      out.events.push(event)
      if (event.type === 'text-delta') out.text += event.text
      else if (event.type === 'thinking-delta') out.thinking += event.text
      else if (event.type === 'tool-call') out.toolCalls.push(event.call)
      else out.done = event
      onEvent?.(event)
    }
  } catch (err) {
    out.error = toModelError(err)
  }
  return out
}
