// runHttpHook against real HTTP servers on 127.0.0.1.
import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runHttpHook } from './http-runner'
import { parseClaudeHookOutput } from './parse-claude'

let server: Server
let base: string
const received: Array<{ path: string; body: string; headers: IncomingMessage['headers'] }> = []

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  received.push({ path: req.url ?? '', body, headers: req.headers })
  switch (req.url) {
    case '/deny':
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `saw ${JSON.parse(body).tool_name}` } }))
      return
    case '/error':
      res.writeHead(503)
      res.end('down')
      return
    case '/slow':
      setTimeout(() => res.end('{}'), 5_000).unref()
      return
    case '/big':
      res.writeHead(200)
      res.end('x'.repeat(100_000))
      return
    default:
      res.writeHead(204)
      res.end()
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => route(req, res, body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const EVENT = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })

describe('runHttpHook', () => {
  it('POSTs the event JSON and returns the body like stdout', async () => {
    const result = await runHttpHook({ url: `${base}/deny`, body: EVENT, headers: { authorization: 'Bearer t' } })
    expect(result).toMatchObject({ handlerType: 'http', status: 200, bodyTruncated: false })
    const last = received.at(-1)
    expect(last).toMatchObject({ path: '/deny', body: EVENT })
    expect(last?.headers['content-type']).toBe('application/json')
    expect(last?.headers.authorization).toBe('Bearer t')
    expect(parseClaudeHookOutput('PreToolUse', result)).toMatchObject({ kind: 'block', decision: 'deny', reason: 'saw Bash' })
  })

  it('a non-2xx status is a non-blocking error', async () => {
    const result = await runHttpHook({ url: `${base}/error`, body: EVENT })
    expect(result).toMatchObject({ status: 503, body: 'down' })
    expect(result.failure).toBeUndefined()
    expect(parseClaudeHookOutput('PreToolUse', result)).toMatchObject({ kind: 'error', failureKind: 'http_status' })
  })

  it('an empty 204 is success with nothing to do', async () => {
    const result = await runHttpHook({ url: `${base}/none`, body: EVENT })
    expect(parseClaudeHookOutput('PreToolUse', result)).toEqual({ kind: 'ok' })
  })

  it('times out', async () => {
    const result = await runHttpHook({ url: `${base}/slow`, body: EVENT, timeoutMs: 300 })
    expect(result).toMatchObject({ failure: 'timeout', status: null })
    expect(parseClaudeHookOutput('PreToolUse', result)).toMatchObject({ kind: 'error', failureKind: 'timeout' })
  })

  it('aborts', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const result = await runHttpHook({ url: `${base}/slow`, body: EVENT, signal: controller.signal })
    expect(result.failure).toBe('aborted')
  })

  it('a refused connection is a network_error', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const result = await runHttpHook({ url: `http://127.0.0.1:${port}/`, body: EVENT })
    expect(result.failure).toBe('network_error')
    expect(result.errorMessage).toMatch(/ECONNREFUSED/)
  })

  it('cuts a large body at maxOutputBytes', async () => {
    const result = await runHttpHook({ url: `${base}/big`, body: EVENT, maxOutputBytes: 1000 })
    expect(result).toMatchObject({ status: 200, bodyTruncated: true })
    expect(result.body).toHaveLength(1000)
  })

  it('rejects a non-http URL, naming the field', async () => {
    await expect(runHttpHook({ url: 'file:///etc/passwd', body: '{}' })).rejects.toThrow(/url/)
  })
})
