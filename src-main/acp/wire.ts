// The SDK answers params that fail its schema with "Invalid params" and zod's error tree as
// `data`. On the way out, the message gets the fields and their problems, so an editor's log
// says what was wrong without decoding `data`.
import type * as acp from '@agentclientprotocol/sdk'

export function explainInvalidParams(stream: acp.Stream): acp.Stream {
  const writer = stream.writable.getWriter()
  const writable = new WritableStream<acp.AnyMessage>({
    write: (message) => writer.write(explain(message)),
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason)
  })
  return { readable: stream.readable, writable }
}

function explain(message: acp.AnyMessage): acp.AnyMessage {
  if (!('error' in message) || !message.error || message.error.code !== -32602 || message.error.message !== 'Invalid params') return message
  const problems = fieldProblems(message.error.data)
  if (problems.length === 0) return message
  return { ...message, error: { ...message.error, message: `Invalid params: ${problems.slice(0, 5).join('; ')}` } }
}

/** `["cwd: Invalid input: expected string, received undefined", ...]` from zod's `format()` tree. */
export function fieldProblems(tree: unknown, path: string[] = []): string[] {
  if (!tree || typeof tree !== 'object') return []
  const node = tree as Record<string, unknown>
  const here = Array.isArray(node._errors) ? node._errors.filter((e): e is string => typeof e === 'string').map((e) => `${path.join('.') || 'params'}: ${e}`) : []
  const below = Object.entries(node)
    .filter(([key]) => key !== '_errors')
    .flatMap(([key, child]) => fieldProblems(child, [...path, key]))
  return [...here, ...below]
}
