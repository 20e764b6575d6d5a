// Issue 25: `seam` writes all its output before it exits. A reader slower than Seam used to get
// what fit in the pipe (64 KiB), the last line cut: process.exit dropped the rest. Each case pipes
// real output, larger than a pipe holds, into a reader that waits (for seam to exit, at most a few
// seconds) before it reads.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'

let home: string
let workspace: string
useCliScratch('cli-drain', (dirs) => ({ home, workspace } = dirs))

/**
 * Runs `seam ARGS | reader` in a shell, where the reader starts reading only once seam has exited,
 * or after `patienceSeconds` (a seam that waits for its reader must not wait forever). Resolves
 * with what the reader got and seam's exit status.
 */
async function seamIntoSlowReader(args: string[], patienceSeconds = 6): Promise<{ status: number; out: string; err: string }> {
  const dir = await mkdtemp(join(home, 'reader-'))
  const quoted = [process.execPath, SEAM_BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  const reader = `i=0; while [ ! -e '${dir}/done' ] && [ $i -lt ${patienceSeconds * 10} ]; do sleep 0.1; i=$((i+1)); done; cat > '${dir}/out'`
  const script = `(${quoted}; echo $? > '${dir}/status'; touch '${dir}/done') | (${reader})`
  const child = spawn('sh', ['-c', script], { cwd: workspace, env: { ...process.env, SEAM_HOME: home, HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] })
  let err = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  await new Promise((resolve) => child.on('exit', resolve))
  return { status: Number(await readFile(join(dir, 'status'), 'utf8')), out: await readFile(join(dir, 'out'), 'utf8'), err }
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  expect(text.endsWith('\n'), `the output ends mid-line: …${text.slice(-80)}`).toBe(true)
  return text
    .trimEnd()
    .split('\n')
    .map((line, index) => {
      try {
        return JSON.parse(line) as Record<string, unknown>
      } catch {
        throw new Error(`line ${index + 1} of the output is not JSON (${line.length} characters): ${line.slice(0, 120)}…`)
      }
    })
}

it('seam run --json into a reader that waits before reading: every event arrives, each a whole JSON line, turn/end last', async () => {
  // An answer of 300 KB: the assistant/message line alone is several pipe buffers.
  const long = 'lorem ipsum '.repeat(25_000)
  const server = await startFakeOpenAI([{ text: long, chunkSize: 4096 }])
  try {
    const run = await seamIntoSlowReader(['run', '--json', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', 'say a lot'])
    expect(run.status, run.err).toBe(0)
    const events = jsonLines(run.out)
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['user/message', 'turn/start', 'assistant/message', 'turn/end']))
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'completed' })
    const message = events.find((e) => e.type === 'assistant/message') as { text?: string } | undefined
    // (Lengths, not the texts: a failure message of 300 KB helps nobody.)
    expect(message?.text?.length).toBe(long.length)
    expect(message?.text === long, 'the assistant/message text differs from what the model sent').toBe(true)
    // The session file holds the same events, in the same order.
    expect(events[0]).toMatchObject({ type: 'session/header' })
    const file = await readFile(join(home, 'sessions', `${String(events[0].sessionId)}.jsonl`), 'utf8')
    expect(jsonLines(file).map((e) => e.seq)).toEqual(events.map((e) => e.seq))
  } finally {
    await server.close()
  }
}, 60_000)

it('seam revert --json into a reader that waits before reading: one whole JSON document, however large', async () => {
  const big = join(workspace, 'big.txt')
  await writeFile(big, `before\n${'b'.repeat(150_000)}\n`)
  const server = await startFakeOpenAI([{ toolCalls: [{ name: 'Write', args: { file_path: big, content: `after\n${'a'.repeat(150_000)}\n` } }] }, { text: 'wrote it' }])
  let id: string
  try {
    const run = await seamIntoSlowReader(['run', '--json', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', 'rewrite big.txt'], 0)
    expect(run.status, run.err).toBe(0)
    id = String(jsonLines(run.out)[0].sessionId)
  } finally {
    await server.close()
  }
  const revert = await seamIntoSlowReader(['revert', id, '--json'])
  expect(revert.status, revert.err).toBe(0)
  const [outcome] = jsonLines(revert.out) as Array<{ status: string; files: Array<{ path: string; to: unknown }> }>
  expect(revert.out.length).toBeGreaterThan(256 * 1024)
  expect(outcome).toMatchObject({ status: 'done', files: [{ path: big }] })
  expect(await readFile(big, 'utf8')).toBe(`before\n${'b'.repeat(150_000)}\n`)
}, 60_000)
