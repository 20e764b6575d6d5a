// Which events the loop syncs, and when (session README "Durability"): a turn is written as it
// goes and synced once at its end, off the loop's path; a tool that declares side effects runs
// only after a sync that covers its call; a tool that does not say runs after its call is written;
// a denied call and a read-only tool sync nothing. `log.syncs` counts the fdatasyncs issued.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src-shared/session/events'
import type { LoopFixture } from './loop-fixture'
import { testTool } from './loop-fixture'
import { useLoopFixture } from './loop-fixture-hooks'

const loop = useLoopFixture()
const setup = loop.setup

/** The event types the session file holds right now. */
function typesOnDisk(f: LoopFixture): string[] {
  return readFileSync(f.log.path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as SessionEvent).type)
}

describe('durability of the loop', () => {
  it('a turn without tools issues one fdatasync, after turn/end is written, and close waits for it', async () => {
    let syncsAtRequest = -1
    const f = await setup({
      script: () => {
        syncsAtRequest = loop.current()!.log.syncs
        return { text: 'hello' }
      }
    })
    f.agent.send('hi')
    await f.agent.whenIdle()
    expect(syncsAtRequest).toBe(0) // turn/start and the prompt were not synced on the way to the model
    expect(f.log.syncs).toBe(1)
    expect(typesOnDisk(f).at(-1)).toBe('turn/end')
    await f.log.close()
  })

  it('a side-effect tool runs after a sync that covers its tool/call; one that does not say, after its tool/call is written', async () => {
    const seen: Record<string, { syncs: number; onDisk: string[] }> = {}
    const watch = (name: string, sideEffects: boolean | undefined) =>
      testTool(name, {
        sideEffects,
        body: () => {
          const f = loop.current()!
          seen[name] = { syncs: f.log.syncs, onDisk: typesOnDisk(f) }
          return 'ok'
        }
      })
    const f = await setup({
      script: [{ toolCalls: [{ name: 'Change' }] }, { toolCalls: [{ name: 'Unsaid' }] }, { toolCalls: [{ name: 'Look' }] }, { text: 'done' }],
      setup: (_kernel, tools) => {
        tools.register(watch('Change', true))
        tools.register(watch('Unsaid', undefined))
        tools.register(watch('Look', false))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(seen.Change.syncs).toBe(1)
    expect(seen.Change.onDisk.at(-1)).toBe('tool/call')
    expect(seen.Unsaid.syncs).toBe(1) // written, not synced
    expect(seen.Unsaid.onDisk.at(-1)).toBe('tool/call')
    expect(seen.Look.syncs).toBe(1)
    expect(f.log.syncs).toBe(2) // the side-effect call's and the turn end's
  })

  it('a side-effect call that policy denies syncs nothing', async () => {
    const f = await setup({
      script: [{ toolCalls: [{ name: 'Change' }] }, { text: 'done' }],
      setup: (kernel, tools) => {
        tools.register(testTool('Change', { sideEffects: true }))
        kernel.context.on('tools/pre-execute', async () => ({ action: 'deny', reason: 'not now' }))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.ofType('tool/result')[0]).toMatchObject({ isError: true, code: 'DENIED' })
    expect(f.log.syncs).toBe(1) // only the turn end's
  })
})
