#!/usr/bin/env node
// A small MCP server for the fault tests: a real process speaking newline-delimited JSON-RPC on
// stdin/stdout, misbehaving on purpose. argv[2] is the behaviour:
//   silent          never answers initialize
//   crash           tool "boom" exits the process (code 3) mid-call, after a stderr line
//   malformed       tool "garble" answers with a line that is not JSON
//   bad-schema      tool "bad" has an invalid JSON Schema; tool "ok" is fine
//   huge            tool "huge" returns 50 MB of text
//   bad-names       tools whose names Seam must normalize, or cannot use
//   list-changed    tool "grow" adds tool "grown" and sends notifications/tools/list_changed;
//                   tool "fails" answers with isError: true
//   slow            tool "wait" never answers; its call is written to $CALL_LOG when it arrives,
//                   a notifications/cancelled to $CANCEL_LOG
//   exit            exits at once with code 7 after a stderr line
//   spawns          tool "spawn" starts a child (`sleep 300`), writes "<server pid> <child pid>\n"
//                   to $PID_FILE, and never answers
import { spawn } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const mode = process.argv[2] ?? 'ok'
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n')
const object = (properties = {}) => ({ type: 'object', properties })

if (mode === 'exit') {
  process.stderr.write('fatal: no configuration found\n')
  process.exit(7)
}

let tools = {
  crash: [{ name: 'boom', description: 'exits mid-call', inputSchema: object() }],
  malformed: [{ name: 'garble', description: 'answers garbage', inputSchema: object() }],
  'bad-schema': [
    { name: 'bad', description: 'invalid schema', inputSchema: { type: 'object', properties: { x: { type: 'no-such-type' } } } },
    { name: 'ok', description: 'fine', inputSchema: object({ x: { type: 'string' } }) }
  ],
  huge: [{ name: 'huge', description: '50 MB', inputSchema: object() }],
  'bad-names': [
    { name: 'has space', description: '', inputSchema: object() },
    { name: 'dots.and/slashes', description: '', inputSchema: object() },
    { name: 'a.b', description: '', inputSchema: object() },
    { name: 'a_b', description: '', inputSchema: object() },
    { name: 'x'.repeat(70), description: '', inputSchema: object() },
    { name: '', description: '', inputSchema: object() }
  ],
  'list-changed': [
    { name: 'grow', description: 'adds a tool', inputSchema: object() },
    { name: 'fails', description: 'answers with isError', inputSchema: object() }
  ],
  slow: [{ name: 'wait', description: 'never answers', inputSchema: object() }],
  spawns: [{ name: 'spawn', description: 'starts a child and never answers', inputSchema: object() }]
}[mode] ?? []

const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'initialize') {
    if (mode === 'silent') return
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: `scripted-${mode}`, version: '1.0.0' } } })
  } else if (message.method === 'tools/list') {
    send({ id: message.id, result: { tools } })
  } else if (message.method === 'notifications/cancelled') {
    if (process.env.CANCEL_LOG) appendFileSync(process.env.CANCEL_LOG, JSON.stringify(message.params) + '\n')
  } else if (message.method === 'tools/call') {
    const name = message.params.name
    if (name === 'boom') {
      process.stderr.write('boom: the server fell over\n')
      process.exit(3)
    } else if (name === 'garble') {
      process.stdout.write('this is not JSON-RPC\n')
    } else if (name === 'huge') {
      send({ id: message.id, result: { content: [{ type: 'text', text: 'x'.repeat(50 * 1024 * 1024) }] } })
    } else if (name === 'grow') {
      tools = [...tools, { name: 'grown', description: 'added at run time', inputSchema: object() }]
      send({ id: message.id, result: { content: [{ type: 'text', text: 'grew' }] } })
      send({ method: 'notifications/tools/list_changed' })
    } else if (name === 'fails') {
      send({ id: message.id, result: { content: [{ type: 'text', text: 'it broke' }], isError: true } })
    } else if (name === 'wait') {
      // never answers
      if (process.env.CALL_LOG) appendFileSync(process.env.CALL_LOG, JSON.stringify({ id: message.id }) + '\n')
    } else if (name === 'spawn') {
      const child = spawn('sleep', ['300'], { stdio: 'ignore' })
      writeFileSync(process.env.PID_FILE, `${process.pid} ${child.pid}\n`)
      // never answers
    } else {
      send({ id: message.id, result: { content: [{ type: 'text', text: `called ${name}` }] } })
    }
  } else if (message.id !== undefined) {
    send({ id: message.id, error: { code: -32601, message: `no method ${message.method}` } })
  }
})
