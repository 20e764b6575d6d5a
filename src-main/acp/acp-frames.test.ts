// Issue 25: `seam acp` answers every malformed frame with the error JSON-RPC 2.0 gives for it, on
// the real process over its stdio: -32700 for what is not JSON, -32600 Invalid Request for what is
// not a request (with its "id" when that can be read, else null; a batch is one Invalid Request:
// ACP has no batches), -32601 for an unknown method, -32602 for params the method refuses. Each
// frame is sent alone and its answer awaited before the next, so each answer is known to be its.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { afterEach, expect, it } from 'vitest'
import { providerArgs, setup, useAcpFixture } from './acp-fixture'
import { SEAM_BIN } from './test-client'

useAcpFixture()

interface Answer {
  jsonrpc?: unknown
  id?: unknown
  error?: { code: number; message: string }
  result?: unknown
}

// [frame as sent, the answer's id, its error code]
const MALFORMED: Array<[string, string | number | null, number]> = [
  ['{"jsonrpc":"2.0","id":1,"method":"initialize",', null, -32700],
  ['not json at all', null, -32700],
  ['[]', null, -32600],
  ['[1,2,3]', null, -32600],
  ['[{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}]', null, -32600],
  ['[{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}]', null, -32600],
  ['42', null, -32600],
  ['"text"', null, -32600],
  ['null', null, -32600],
  ['true', null, -32600],
  ['{"id":3,"method":"session/list","params":{}}', 3, -32600],
  ['{"jsonrpc":"1.0","id":4,"method":"session/list","params":{}}', 4, -32600],
  ['{"jsonrpc":2,"id":5,"method":"session/list","params":{}}', 5, -32600],
  ['{"jsonrpc":"2.1","id":"req-6","method":"session/list","params":{}}', 'req-6', -32600],
  ['{"method":"session/cancel","params":{"sessionId":"s"}}', null, -32600],
  ['{"jsonrpc":"1.0","method":"session/cancel","params":{"sessionId":"s"}}', null, -32600],
  ['{"jsonrpc":"2.0","id":{"n":7},"method":"session/list","params":{}}', null, -32600],
  ['{"jsonrpc":"2.0","id":[8],"method":"session/list","params":{}}', null, -32600],
  ['{"jsonrpc":"2.0","id":true,"method":"session/list","params":{}}', null, -32600],
  ['{"jsonrpc":"2.0","id":9,"method":5}', 9, -32600],
  ['{"jsonrpc":"2.0","id":10}', 10, -32600],
  ['{}', null, -32600],
  ['{"id":11}', 11, -32600],
  ['{"jsonrpc":"2.0","id":12,"method":"session/list","params":5}', 12, -32600],
  ['{"jsonrpc":"2.0","id":13,"method":"session/list","params":"cwd"}', 13, -32600],
  ['{"jsonrpc":"2.0","id":14,"method":"no/such/method","params":{}}', 14, -32601],
  ['{"jsonrpc":"2.0","id":"req-15","method":"frobnicate"}', 'req-15', -32601],
  ['{"jsonrpc":"2.0","id":16,"method":"session/new","params":{"cwd":5,"mcpServers":[]}}', 16, -32602],
  ['{"jsonrpc":"2.0","id":17,"method":"session/list","params":[1]}', 17, -32602],
  ['{"jsonrpc":"2.0","id":18,"method":"session/prompt","params":{"sessionId":"s"}}', 18, -32602]
]

let child: ChildProcessWithoutNullStreams | undefined
afterEach(() => {
  child?.kill('SIGKILL')
  child = undefined
})

it('answers each of 30 malformed frames with the JSON-RPC 2.0 error for it, and a response to nothing Seam asked with nothing', async () => {
  const s = await setup([])
  const proc = spawn(process.execPath, [SEAM_BIN, 'acp', ...providerArgs(s)], { env: s.env, stdio: ['pipe', 'pipe', 'pipe'] })
  child = proc
  let buffered = ''
  const lines: string[] = []
  let waiting: (() => void) | undefined
  proc.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString()
    const parts = buffered.split('\n')
    buffered = parts.pop() ?? ''
    lines.push(...parts.filter(Boolean))
    waiting?.()
  })
  let stderr = ''
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  /** Sends one line and resolves with the next line Seam writes. */
  const exchange = async (frame: string): Promise<Answer> => {
    const before = lines.length
    proc.stdin.write(frame + '\n')
    const deadline = Date.now() + 15_000
    while (lines.length === before) {
      if (Date.now() > deadline) throw new Error(`no answer within 15 s to ${frame}\nstderr: ${stderr}`)
      await new Promise<void>((resolve) => {
        waiting = resolve
        setTimeout(resolve, 100)
      })
    }
    expect(lines.length, `more than one line answered ${frame}: ${lines.slice(before).join('\n')}`).toBe(before + 1)
    return JSON.parse(lines[before]) as Answer
  }

  expect(await exchange('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}')).toMatchObject({ id: 0, result: { protocolVersion: 1 } })
  for (const [frame, id, code] of MALFORMED) {
    const answer = await exchange(frame)
    expect({ frame, jsonrpc: answer.jsonrpc, id: answer.id, code: answer.error?.code }, answer.error?.message).toEqual({ frame, jsonrpc: '2.0', id, code })
  }
  // The messages name the problem.
  expect((await exchange('{"jsonrpc":"1.0","id":"named","method":"session/list","params":{}}')).error?.message).toMatch(/"jsonrpc" must be "2.0" \(got "1.0"\)/)
  expect((await exchange('{"jsonrpc":"2.0","id":{"n":1},"method":"session/list"}')).error?.message).toMatch(/"id" must be a string, a number or null \(got an object\)/)
  expect((await exchange('[]')).error?.message).toMatch(/batches are not supported/)

  // A response to a request Seam never sent is not answered (JSON-RPC never answers a response):
  // the next line is the answer to the request after it, and the connection still works.
  const next = await exchange('{"jsonrpc":"2.0","id":99,"result":{}}\n{"jsonrpc":"2.0","id":100,"method":"session/list","params":{}}')
  expect(next).toMatchObject({ id: 100, result: { sessions: [] } })
  // stdout carried protocol lines only: every line above parsed as JSON-RPC.
  expect(lines.every((line) => (JSON.parse(line) as Answer).jsonrpc === '2.0')).toBe(true)
}, 120_000)
