// No process outlives what started it: a synchronous hook (or a Bash call) that is still running
// when its turn is cancelled, its session closes or the bridge is disposed is killed with its
// whole process group at once, instead of living on until its timeout (600 s by default).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isAlive, waitFor, waitUntilDead } from '@seam/sdk/testing'
import { bashThenDone, createHarness, hooksOf, type Harness } from './test-harness'

let h: Harness | undefined
const started: number[] = []
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone, as it should be
    }
  }
  await h?.cleanup()
  h = undefined
})

/** A command that records its pid and a background child's, then waits forever. */
const LINGER = (name: string) => `echo $$ > ${name}.pid; sleep 300 & echo $! > ${name}-child.pid; wait`

async function pidsOf(harness: Harness, name: string): Promise<number[]> {
  const files = [`${name}.pid`, `${name}-child.pid`].map((file) => join(harness.workspace, file))
  await waitFor(() => files.every((file) => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')), 10_000, `${name}'s pid files`)
  const pids = files.map((file) => Number(readFileSync(file, 'utf8')))
  started.push(...pids)
  for (const pid of pids) expect(isAlive(pid)).toBe(true)
  return pids
}

async function expectAllDead(pids: number[]): Promise<void> {
  for (const pid of pids) expect(await waitUntilDead(pid, 3_000), `pid ${pid} is still running`).toBe(true)
}

describe('disposal and cancel with hooks and tools running (no process left)', () => {
  it('disposing the bridge kills a running synchronous PreToolUse hook and its children', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', LINGER('hook')]) }, script: bashThenDone() })
    const running = h.run('go')
    const pids = await pidsOf(h, 'hook')
    h.bridge.dispose()
    await expectAllDead(pids)
    await h.agent.cancel()
    await running
  })

  it('cancelling the turn kills a running synchronous PreToolUse hook and its children', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['PreToolUse', 'Bash', LINGER('hook')]) }, script: bashThenDone() })
    const running = h.run('go')
    const pids = await pidsOf(h, 'hook')
    await h.agent.cancel()
    await running
    await expectAllDead(pids)
    expect(h.events('turn/end').at(-1)?.reason).toBe('cancelled')
  })

  it('cancelling the turn kills a running UserPromptSubmit hook', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['UserPromptSubmit', undefined, LINGER('prompt')]) }, script: [{ text: 'never' }] })
    const running = h.run('go')
    const pids = await pidsOf(h, 'prompt')
    await h.agent.cancel()
    await running
    await expectAllDead(pids)
  })

  it('closing the session kills a running Bash call and its children', async () => {
    h = await createHarness({ script: bashThenDone(LINGER('tool')) })
    const running = h.run('go')
    const pids = await pidsOf(h, 'tool')
    await h.agent.close('closed')
    await running
    await expectAllDead(pids)
  })
})
