// No process outlives what started it: a Codex hook still running when its turn is cancelled or
// the bridge is disposed is killed with its whole process group at once, not at its timeout.
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isAlive, waitFor, waitUntilDead, writtenPid } from '@seam/sdk/testing'
import { createCodexFixture, oneHook, type CodexFixture } from './test-fixture'

let fixture: CodexFixture | undefined
const started: number[] = []
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone, as it should be
    }
  }
  await fixture?.cleanup()
  fixture = undefined
})

const LINGER = 'echo $$ > hook.pid; sleep 300 & echo $! > hook-child.pid; wait'

async function runningHookPids(f: CodexFixture): Promise<number[]> {
  const files = ['hook.pid', 'hook-child.pid'].map((file) => path.join(f.workspace, file))
  await waitFor(() => files.every((file) => writtenPid(file) !== undefined), 10_000, 'the hook pid files')
  const pids = files.map((file) => writtenPid(file)!)
  started.push(...pids)
  for (const pid of pids) expect(isAlive(pid)).toBe(true)
  return pids
}

describe('disposal and cancel with Codex hooks running (no process left)', () => {
  it('cancelling the turn kills a running UserPromptSubmit hook and its children', async () => {
    const f = (fixture = await createCodexFixture({ project: { '.codex/hooks.json': oneHook('UserPromptSubmit', LINGER) }, script: [{ text: 'never' }] }))
    const running = f.run('hello')
    const pids = await runningHookPids(f)
    await f.agent.cancel()
    await running
    for (const pid of pids) expect(await waitUntilDead(pid, 3_000), `pid ${pid} is still running`).toBe(true)
  })

  it('disposing the bridge kills a running PreToolUse hook and its children', async () => {
    const f = (fixture = await createCodexFixture({
      project: { '.codex/hooks.json': oneHook('PreToolUse', LINGER, 'Bash') },
      script: [{ toolCalls: [{ name: 'Bash', args: { command: 'echo ran' } }] }, { text: 'done' }]
    }))
    const running = f.run('hello')
    const pids = await runningHookPids(f)
    f.setTrusted(true) // re-providing the workspace restarts (disposes) the bridge, as a trust change does in the host
    for (const pid of pids) expect(await waitUntilDead(pid, 3_000), `pid ${pid} is still running`).toBe(true)
    await f.agent.cancel()
    await running
  })
})
