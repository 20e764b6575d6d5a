// The Monitor tool on the real loop (createTestHost): a real command through the Bash tool (real
// process group, real output file), a real WebSocket server on loopback (ws), the scripted model as
// the only double. Each step waits on the condition it needs (a file's content, a connection), never
// on a fixed sleep.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket } from 'ws'
import type { ModelMessage } from '@seam/sdk'
import { createTestHost, isAlive, scaledTestMs, waitFor, waitUntilDead, type ScriptStep, type TestHost } from '@seam/sdk/testing'
import backgroundTasks from './index'

let host: TestHost | undefined
let server: WebSocketServer | undefined

afterEach(async () => {
  await host?.cleanup()
  host = undefined
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

const results = (t: TestHost) => t.events('tool/result').map((e) => ({ name: e.name, content: e.content, isError: e.isError, structured: e.structured as Record<string, unknown> | undefined }))
const userTexts = (messages: readonly ModelMessage[]) => JSON.stringify(messages.filter((m) => m.role === 'user'))
const event = (taskId: string, description: string, line: string) =>
  `<monitor-event>\\n<task-id>${taskId}</task-id>\\n<description>${description}</description>\\n<event>${line}</event>\\n</monitor-event>`

function fileHas(file: () => string | undefined, text: string): () => boolean {
  return () => {
    const at = file()
    return at !== undefined && existsSync(at) && readFileSync(at, 'utf8').includes(text)
  }
}

describe('Monitor', { timeout: 30_000 }, () => {
  it('a command: answers {taskId, timeoutMs} at once, each stdout line reaches the model as an event on its next step, TaskStop ends its process group', async () => {
    const outputOf = () => host?.events('task/started')[0]?.outputPath
    host = await createTestHost({
      // Delivered only by the step (the idle delivery has its own test): the ticks start before the step after Monitor is asked for.
      plugins: [[backgroundTasks, { monitorCoalesceMs: 600_000 }]],
      script: [
        { toolCalls: [{ name: 'Monitor', args: { command: 'echo $$ > m.pid; for i in 1 2 3; do echo tick$i; done; while true; do sleep 0.05; done', description: 'ticks' } }] },
        async () => {
          await waitFor(fileHas(outputOf, 'tick3\n'), scaledTestMs(5_000), 'three ticks')
          return { toolCalls: [{ name: 'Glob', args: { pattern: 'nothing-here' } }] }
        },
        (request) => {
          const id = /<task-id>(b[0-9a-z]{8})<\/task-id>/.exec(userTexts(request.messages))?.[1] ?? 'none'
          return { toolCalls: [{ name: 'TaskStop', args: { task_id: id } }] }
        },
        { text: 'done' }
      ] as ScriptStep[]
    })
    await host.run('watch it')
    const [monitor, , stop] = results(host)
    const taskId = monitor!.structured!.taskId as string
    expect(monitor!.isError).toBe(false)
    expect(monitor!.structured).toEqual({ taskId, timeoutMs: 300_000 })
    expect(monitor!.content).toBe(`Monitor started with task ID: ${taskId} (it stops after 300000 ms). Each new line reaches you as an event; all of it is written to: ${outputOf()!}`)
    // Each line, one event, in order, on the step after they were printed (and not again after).
    const seen = userTexts(host.model.requests[2]!.messages)
    const at = ['tick1', 'tick2', 'tick3'].map((line) => seen.indexOf(event(taskId, 'ticks', line)))
    expect(at.every((index) => index > 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
    expect(userTexts(host.model.requests[3]!.messages).split('<event>tick1</event>')).toHaveLength(2)
    expect(stop).toMatchObject({ name: 'TaskStop', isError: false })
    expect(await waitUntilDead(Number(readFileSync(path.join(host.workspace, 'm.pid'), 'utf8')), scaledTestMs(2_000))).toBe(true)
  })

  it('lines that come while the session is idle open a turn by themselves (no user message), a burst coalesced into one delivery', async () => {
    host = await createTestHost({
      plugins: [[backgroundTasks, { monitorCoalesceMs: scaledTestMs(300) }]],
      script: [
        { toolCalls: [{ name: 'Monitor', args: { command: 'until [ -f gate ]; do sleep 0.05; done; echo one; echo two; echo three; while true; do sleep 0.05; done', description: 'gate watch' } }] },
        { text: 'watching' },
        { text: 'saw three lines' }
      ] as ScriptStep[]
    })
    await host.run('watch the gate')
    const taskId = results(host)[0]!.structured!.taskId as string
    expect(host.events('turn/end')).toHaveLength(1)

    writeFileSync(path.join(host.workspace, 'gate'), '')
    await waitFor(() => host!.events('turn/end').length === 2, scaledTestMs(10_000), 'the turn the monitor opens')
    await host.agent.whenIdle()
    const second = host.events('turn/start')[1]!.turnId
    expect(host.events('user/message').filter((e) => e.turnId === second)).toHaveLength(0)
    const delivered = host.events('context/message').filter((e) => e.turnId === second)
    expect(delivered).toHaveLength(1)
    expect(delivered[0]!.source).toBe('monitor')
    expect(delivered[0]!.text).toBe(['one', 'two', 'three'].map((line) => event(taskId, 'gate watch', line).replace(/\\n/g, '\n')).join('\n'))
    // The model answered it: three requests in all, the last carrying the three events once each.
    expect(host.model.requests).toHaveLength(3)
    expect(userTexts(host.model.requests[2]!.messages).split('<event>two</event>')).toHaveLength(2)
  })

  it('ws: each frame of a real WebSocket server reaches the model as an event; the server closing ends the task (exit code 0) and the model is told', async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    const connected = new Promise<WebSocket>((resolve) => server!.once('connection', resolve))
    await new Promise((resolve) => server!.once('listening', resolve))
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/feed`
    const outputOf = () => host?.events('task/started')[0]?.outputPath
    host = await createTestHost({
      plugins: [[backgroundTasks, { monitorCoalesceMs: 600_000 }]],
      script: [
        { toolCalls: [{ name: 'Monitor', args: { ws: url, description: 'feed', timeout_ms: 60_000 } }] },
        async () => {
          const socket = await connected
          socket.send('first frame')
          socket.send('two\nlines')
          socket.send(Buffer.from([1, 2, 3]), { binary: true })
          await waitFor(fileHas(outputOf, '[binary frame, 3 bytes]\n'), scaledTestMs(5_000), 'three frames')
          socket.close(1000)
          await waitFor(() => host!.events('task/ended').length === 1, scaledTestMs(5_000), 'the socket to close')
          return { toolCalls: [{ name: 'Glob', args: { pattern: 'nothing-here' } }] }
        },
        { text: 'done' }
      ] as ScriptStep[]
    })
    await host.run('listen')
    const [monitor] = results(host)
    const taskId = monitor!.structured!.taskId as string
    expect(monitor!.structured).toEqual({ taskId, timeoutMs: 60_000 })
    expect(readFileSync(outputOf()!, 'utf8')).toBe('first frame\ntwo\\nlines\n[binary frame, 3 bytes]\n')
    const seen = userTexts(host.model.requests[2]!.messages)
    expect(seen).toContain(event(taskId, 'feed', 'first frame'))
    expect(seen).toContain(event(taskId, 'feed', 'two\\\\nlines'))
    expect(seen).toContain(event(taskId, 'feed', '[binary frame, 3 bytes]'))
    expect(seen).toContain(`Background command \\"feed\\" completed (exit code 0)`)
    expect(host.events('task/started')[0]).toMatchObject({ taskId, command: `ws ${url}`, description: 'feed' })
  })

  it('stops by itself after timeout_ms (not persistent): its process is gone and the log says killed', async () => {
    host = await createTestHost({
      plugins: [backgroundTasks],
      script: [
        // Long enough for the shell to have written its pid however loaded the machine is.
        { toolCalls: [{ name: 'Monitor', args: { command: 'echo $$ > t.pid; while true; do sleep 0.05; done', description: 'short', timeout_ms: scaledTestMs(300) } }] },
        async () => {
          await waitFor(() => host!.events('task/ended').length === 1, scaledTestMs(10_000), 'the monitor to time out')
          return { text: 'done' }
        }
      ] as ScriptStep[]
    })
    await host.run('go')
    expect(host.events('task/ended')[0]).toMatchObject({ status: 'killed', endReason: 'stopped' })
    const pid = Number(readFileSync(path.join(host.workspace, 't.pid'), 'utf8'))
    expect(await waitUntilDead(pid, scaledTestMs(2_000))).toBe(true)
    expect(isAlive(pid)).toBe(false)
  })

  it('bad input is a clear error naming the field: both command and ws, neither, a URL that is not ws://, a server that is not there', async () => {
    host = await createTestHost({
      plugins: [backgroundTasks],
      script: [
        {
          toolCalls: [
            { name: 'Monitor', args: { command: 'true', ws: 'ws://127.0.0.1:1/', description: 'both' } },
            { name: 'Monitor', args: { description: 'neither' } },
            { name: 'Monitor', args: { ws: 'http://127.0.0.1:1/', description: 'http' } },
            { name: 'Monitor', args: { ws: 'ws://127.0.0.1:1/', description: 'closed port' } }
          ]
        },
        { text: 'done' }
      ]
    })
    await host.run('go')
    const [both, neither, http, closed] = results(host)
    expect(both).toMatchObject({ isError: true, content: expect.stringContaining('command, ws: give exactly one of them') })
    expect(neither).toMatchObject({ isError: true, content: expect.stringContaining('command, ws: give exactly one of them') })
    expect(http).toMatchObject({ isError: true, content: expect.stringContaining('ws: must be a ws:// or wss:// URL') })
    expect(closed).toMatchObject({ isError: true, content: expect.stringMatching(/^Monitor: ws: could not connect to ws:\/\/127\.0\.0\.1:1\/: .*ECONNREFUSED/) })
    expect(host.events('task/started')).toHaveLength(0)
  })
})
