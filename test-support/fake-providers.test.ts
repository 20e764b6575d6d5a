// The fake provider servers themselves, spoken to with plain fetch: SSE framing, script
// consumption, protocol rejections, and the standalone CLI.

import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from './fake-anthropic.mjs'
import { startFakeOpenAI } from './fake-openai.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn()
  cleanup = []
})

async function post(url: string, body: unknown): Promise<{ status: number; text: string; contentType: string | null }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') }
}

/** Splits an SSE body into frames of { event, data }. */
function sseFrames(text: string): Array<{ event?: string; data: string }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n')
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7)
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')
      return event === undefined ? { data } : { event, data }
    })
}

const userHi = [{ role: 'user', content: 'hi' }]

describe('fake OpenAI server', () => {
  it('streams chat.completion.chunk frames ending with a finish chunk, a usage chunk and [DONE]', async () => {
    const fake = await startFakeOpenAI([{ text: 'Hello', thinking: 'hm', chunkSize: 2 }])
    cleanup.push(fake.close)
    const res = await post(`${fake.url}/chat/completions`, { model: 'm', messages: userHi, stream: true, stream_options: { include_usage: true } })
    expect(res.contentType).toMatch(/^text\/event-stream/)
    const frames = sseFrames(res.text)
    expect(frames.at(-1)).toEqual({ data: '[DONE]' })
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data))
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true)
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello')
    expect(chunks.map((c) => c.choices[0]?.delta?.reasoning_content ?? '').join('')).toBe('hm')
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop')
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } })
  })

  it('answers a non-streaming request with one chat.completion', async () => {
    const fake = await startFakeOpenAI([{ text: 'Hi', toolCalls: [{ name: 'x', args: { a: 1 }, id: 'call_x' }] }])
    cleanup.push(fake.close)
    const res = await post(`${fake.url}/chat/completions`, { model: 'm', messages: userHi })
    expect(JSON.parse(res.text)).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'Hi', tool_calls: [{ id: 'call_x', function: { name: 'x', arguments: '{"a":1}' } }] }, finish_reason: 'tool_calls' }]
    })
  })

  it('passes the request body and turn index to a script function', async () => {
    const seen: Array<{ index: number; last: unknown }> = []
    const step = (body: { messages: Array<{ content?: unknown }> }, ctx: { index: number }) => {
      seen.push({ index: ctx.index, last: body.messages.at(-1)?.content })
      return { text: `turn ${ctx.index}` }
    }
    const fake = await startFakeOpenAI([step, step])
    cleanup.push(fake.close)
    await post(`${fake.url}/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'one' }] })
    await post(`${fake.url}/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'two' }] })
    expect(seen).toEqual([
      { index: 0, last: 'one' },
      { index: 1, last: 'two' }
    ])
  })

  it('answers 500 naming the exhausted script', async () => {
    const fake = await startFakeOpenAI([{ text: 'only' }])
    cleanup.push(fake.close)
    await post(`${fake.url}/chat/completions`, { model: 'm', messages: userHi })
    const res = await post(`${fake.url}/chat/completions`, { model: 'm', messages: userHi })
    expect(res.status).toBe(500)
    expect(JSON.parse(res.text).error.message).toBe('fake-openai: script exhausted: model request #2 arrived but the script has only 1 turn(s)')
  })

  it.each([
    [{ model: 'm', messages: [] }, "'messages'"],
    [{ model: 'm', messages: [...userHi, { role: 'tool', tool_call_id: 'nope', content: 'x' }] }, "role 'tool' must be a response"],
    [
      { model: 'm', messages: [...userHi, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }] },
      'did not have response messages: c1'
    ],
    [{ model: 'm', messages: userHi, tools: [] }, "'tools': empty array"]
  ])('rejects a request the real API would reject (%#) with 400, without using a turn', async (body, message) => {
    const fake = await startFakeOpenAI([{ text: 'kept' }])
    cleanup.push(fake.close)
    const res = await post(`${fake.url}/chat/completions`, body)
    expect(res.status).toBe(400)
    expect(JSON.parse(res.text).error.message).toContain(message)
    const ok = await post(`${fake.url}/chat/completions`, { model: 'm', messages: userHi })
    expect(JSON.parse(ok.text).choices[0].message.content).toBe('kept')
  })

  it('answers 404 for other routes and serves a model list', async () => {
    const fake = await startFakeOpenAI([])
    cleanup.push(fake.close)
    expect((await post(`${fake.url}/completions`, {})).status).toBe(404)
    const models = await (await fetch(`${fake.url}/models`)).json()
    expect(models).toMatchObject({ object: 'list', data: [{ id: 'fake-model' }] })
  })

  it('close() ends a hanging stream', async () => {
    const fake = await startFakeOpenAI([{ text: 'abcdefgh', hangAfterChars: 2 }])
    const res = await fetch(`${fake.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: userHi, stream: true }) })
    const reader = res.body!.getReader()
    await reader.read()
    await fake.close()
    await expect(fake.requests[0].closed).resolves.toBe('aborted')
    await expect(
      (async () => {
        while (!(await reader.read()).done);
      })()
    ).rejects.toThrow()
  })
})

describe('fake Anthropic server', () => {
  it('streams the documented event sequence with thinking, text and tool_use blocks', async () => {
    const fake = await startFakeAnthropic([{ thinking: 'hm', text: 'Hi', toolCalls: [{ name: 'f', args: { a: 1 } }] }])
    cleanup.push(fake.close)
    const res = await post(`${fake.url}/v1/messages`, { model: 'c', max_tokens: 10, messages: userHi, stream: true })
    const frames = sseFrames(res.text)
    for (const frame of frames) expect(JSON.parse(frame.data).type).toBe(frame.event)
    expect(frames.map((f) => f.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop'
    ])
    const deltas = frames.filter((f) => f.event === 'content_block_delta').map((f) => JSON.parse(f.data).delta)
    expect(deltas.map((d) => d.type)).toEqual(['thinking_delta', 'signature_delta', 'text_delta', 'input_json_delta', 'input_json_delta'])
    expect(JSON.parse(frames[13].data).delta.stop_reason).toBe('tool_use')
  })

  it.each([
    [{ model: 'c', messages: userHi }, 'max_tokens'],
    [{ model: 'c', max_tokens: 5, messages: [{ role: 'system', content: 'x' }] }, "'user' or 'assistant'"],
    [{ model: 'c', max_tokens: 5, messages: [...userHi, { role: 'user', content: 'again' }] }, 'roles must alternate'],
    [
      { model: 'c', max_tokens: 5, messages: [...userHi, { role: 'assistant', content: 'x' }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'zz', content: 'r' }] }] },
      'unexpected `tool_use_id`'
    ],
    [{ model: 'c', max_tokens: 5, messages: userHi, tools: [{ name: 't', input_schema: { type: 'array' } }] }, "input_schema.type: Input should be 'object'"]
  ])('rejects a request the real API would reject (%#) with an invalid_request_error', async (body, message) => {
    const fake = await startFakeAnthropic([])
    cleanup.push(fake.close)
    const res = await post(`${fake.url}/v1/messages`, body)
    expect(res.status).toBe(400)
    const parsed = JSON.parse(res.text)
    expect(parsed).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
    expect(parsed.error.message).toContain(message)
  })

  it('answers a scripted error with the status, headers and body given', async () => {
    const fake = await startFakeAnthropic([{ error: { status: 529, headers: { 'retry-after': '3' } } }])
    cleanup.push(fake.close)
    const res = await fetch(`${fake.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'c', max_tokens: 5, messages: userHi }) })
    expect(res.status).toBe(529)
    expect(res.headers.get('retry-after')).toBe('3')
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'fake-anthropic: scripted error 529' } })
  })
})

describe('fake-provider-cli.mjs', () => {
  it('starts a server from a script module and prints READY <url>', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seam-fake-cli-'))
    cleanup.push(() => rm(dir, { recursive: true, force: true }))
    const scriptPath = path.join(dir, 'script.mjs')
    await writeFile(scriptPath, "export default [(body) => ({ text: 'echo ' + body.messages.at(-1).content[0].text })]\n")

    const child = spawn(process.execPath, [path.join(here, 'fake-provider-cli.mjs'), 'anthropic', '0', scriptPath], { stdio: ['ignore', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    cleanup.push(async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    })
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      let err = ''
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const match = /^READY (\S+)$/m.exec(out)
        if (match) resolve(match[1])
      })
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
      child.once('exit', (code) => reject(new Error(`fake-provider-cli exited with ${code} before READY: ${err}`)))
    })
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    const res = await post(`${url}/v1/messages`, { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] })
    expect(JSON.parse(res.text).content).toEqual([{ type: 'text', text: 'echo hello' }])

    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('exits with a usage message for an unknown provider', async () => {
    const child = spawn(process.execPath, [path.join(here, 'fake-provider-cli.mjs'), 'gemini', '0', 'x.json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(err).toContain('unknown provider "gemini"')
  })
})
