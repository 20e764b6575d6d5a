// What `seam acp` does to the SDK's stdio stream, both ways:
// - In: every frame the SDK's parser hands on (a JSON object) is checked against JSON-RPC 2.0's
//   Request and Notification shapes first. One that is neither (a missing or wrong "jsonrpc", a
//   "method" that is not a string, an "id" of the wrong type, "params" that are not structured,
//   no "method" and no result or error) is answered with -32600 Invalid Request, with its "id" when
//   that can be read, else null, as the specification says; the SDK would drop some and answer
//   others with a null id. Response-shaped frames (a result or an error) go on: the SDK matches
//   them to Seam's requests, and JSON-RPC never answers a response. Unparsable lines (-32700),
//   arrays (batches: ACP has none, so the whole array is one Invalid Request, id null) and bare
//   values (-32600) are answered by the SDK's parser before they get here.
// - Out: the SDK answers params that fail its schema with "Invalid params" and zod's error tree as
//   `data`; the message gets the fields and their problems, so an editor's log says what was
//   wrong without decoding `data`.
import * as acp from '@agentclientprotocol/sdk'

export function protocolStream(stream: acp.Stream): acp.Stream {
  const writer = stream.writable.getWriter()
  const write = (message: acp.AnyMessage): Promise<void> => writer.write(explain(message))
  const reader = stream.readable.getReader()
  const readable = new ReadableStream<acp.AnyMessage>({
    async pull(controller) {
      for (;;) {
        const next = await reader.read()
        if (next.done) return controller.close()
        const refusal = frameProblem(next.value)
        if (refusal === undefined) return controller.enqueue(next.value)
        await write({ jsonrpc: '2.0', id: refusal.id, error: acp.RequestError.invalidRequest(undefined, refusal.problem).toErrorResponse() } as acp.AnyMessage).catch(() => undefined)
      }
    },
    cancel: (reason) => reader.cancel(reason)
  })
  const writable = new WritableStream<acp.AnyMessage>({
    write,
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason)
  })
  return { readable, writable }
}

type JsonRpcId = string | number | null

/** Why `frame` is not a JSON-RPC 2.0 request, notification or response, and the id to answer with; undefined when it is one. */
export function frameProblem(frame: unknown): { id: JsonRpcId; problem: string } | undefined {
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return { id: null, problem: 'a JSON-RPC message must be an object' }
  const message = frame as Record<string, unknown>
  const hasId = Object.hasOwn(message, 'id')
  const idValid = !hasId || isId(message.id)
  const id: JsonRpcId = hasId && idValid ? (message.id as JsonRpcId) : null
  const isResponse = !Object.hasOwn(message, 'method') && (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'))
  // Responses are Seam's to match to its requests (the SDK does), never to answer.
  if (isResponse) return undefined
  if (message.jsonrpc !== '2.0') {
    return { id, problem: Object.hasOwn(message, 'jsonrpc') ? `"jsonrpc" must be "2.0" (got ${shown(message.jsonrpc)})` : '"jsonrpc" is missing; it must be "2.0"' }
  }
  if (!idValid) return { id: null, problem: `"id" must be a string, a number or null (got ${kindOf(message.id)})` }
  if (!Object.hasOwn(message, 'method')) return { id, problem: '"method" is missing (a request or notification needs one; a response needs "result" or "error")' }
  if (typeof message.method !== 'string') return { id, problem: `"method" must be a string (got ${kindOf(message.method)})` }
  if (Object.hasOwn(message, 'params') && (typeof message.params !== 'object' || message.params === null)) {
    return { id, problem: `"params" must be an object or an array when given (got ${kindOf(message.params)})` }
  }
  return undefined
}

function isId(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** A short, safe rendering of a wrong "jsonrpc" value (frames may carry secrets elsewhere; this field does not). */
function shown(value: unknown): string {
  return typeof value === 'string' && value.length <= 20 ? JSON.stringify(value) : kindOf(value)
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
