// The fsync policy (issues 11 and 26, README "Durability"), watched from outside with strace on the
// real `seam run`: a Bash command (a tool with side effects) starts only after its tool/call is
// written and synced, turn/end is synced before the process exits, and those are the only two
// fdatasyncs of the session file in a turn with one Bash call (turn/start rides the Bash's sync).
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { hasStrace, parseTrace, type Syscall } from '../../test-support/strace'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'

const run = promisify(execFile)

let home: string
let workspace: string
useCliScratch('durable', (dirs) => ({ home, workspace } = dirs))

it.skipIf(!hasStrace)('a Bash command starts only after its tool/call is written and synced, turn/end is synced, and nothing else is', async () => {
  const server = await startFakeOpenAI([{ toolCalls: [{ name: 'Bash', args: { command: 'touch synced-first' } }] }, { text: 'made it' }])
  const tracePath = join(home, 'trace.txt')
  try {
    await run(
      'strace',
      ['-f', '-s', '65536', '-e', 'trace=write,pwrite64,writev,fdatasync,execve', '-o', tracePath, process.execPath, SEAM_BIN, 'run', '--json', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', 'make the file'],
      { cwd: workspace, env: { ...process.env, SEAM_HOME: home }, timeout: 60_000 }
    )
  } finally {
    await server.close()
  }
  expect(existsSync(join(workspace, 'synced-first'))).toBe(true)
  const calls = parseTrace(await readFile(tracePath, 'utf8'))
  // Lines written to the session file (not to stdout or stderr).
  const fileWrite = (type: string): Syscall => {
    const found = calls.find((c) => c.name.startsWith('write') && !/^\d+\s+write\([12],/.test(c.text) && c.text.includes(`\\"type\\":\\"${type}\\"`))
    if (!found) throw new Error(`no write of ${type} to the session file in the trace`)
    return found
  }
  const fd = (call: Syscall): string => /\w+\((\d+),/.exec(call.text)![1]
  const syncAfter = (write: Syscall): Syscall | undefined => calls.find((c) => c.name === 'fdatasync' && c.at > write.doneAt && c.text.includes(`fdatasync(${fd(write)}`))

  for (const type of ['turn/start', 'turn/end', 'tool/call']) expect(syncAfter(fileWrite(type)), `an fdatasync of the session file after ${type} is written`).toBeDefined()
  const toolCallSync = syncAfter(fileWrite('tool/call'))!
  const touch = calls.find((c) => c.name === 'execve' && c.text.includes('"touch", "synced-first"'))
  expect(touch, 'the Bash command ran').toBeDefined()
  expect(toolCallSync.doneAt).toBeLessThan(touch!.at)
  // Group commit: one sync for the Bash call (covering turn/start, the prompt and the call), one after turn/end.
  const sessionFd = fd(fileWrite('turn/end'))
  expect(calls.filter((c) => c.name === 'fdatasync' && c.text.includes(`fdatasync(${sessionFd}`))).toHaveLength(2)
}, 90_000)
