import { describe, expect, it } from 'vitest'
import type { TurnInfo } from '../../src-shared/host/agent'
import { ModelError, type ModelClient } from '../../src-shared/model'
import { Agent } from './agent'
import { sleep, testTool, type LoopFixture } from './loop-fixture'
import { useLoopFixture } from './loop-fixture-hooks'

const loop = useLoopFixture()
const setup = loop.setup
const fixture = loop.current

/** Resolves on the first live delta of the session (the stream has started). */
function firstDelta(f: LoopFixture, kind: 'text' | 'thinking' = 'text'): Promise<void> {
  return new Promise((resolve) => f.kernel.context.on('agent/delta', (_id, delta) => void (delta.kind === kind && resolve())))
}

describe('agent/turn-continuation (S7)', () => {
  it('S7: a continue reason is queued as steering and recorded in the same turn before the next step', async () => {
    const infos: TurnInfo[] = []
    const f = await setup({
      script: [{ text: 'I think I am done' }, { text: 'now really done' }],
      setup: (kernel) =>
        kernel.context.on('agent/turn-continuation', async (_agent, info) => {
          infos.push({ ...info })
          return info.continuations === 0 ? { action: 'continue', reason: 'run the tests first', by: 'stop-hook' } : { action: 'stop' }
        })
    })
    f.agent.send('fix it')
    await f.agent.whenIdle()
    expect(f.types()).toEqual([
      'session/header',
      'turn/start',
      'user/message',
      'model/context',
      'assistant/message',
      'steering/message',
      'assistant/message',
      'turn/end'
    ])
    expect(f.ofType('steering/message')[0]).toMatchObject({ turnId: 'turn-1', text: 'run the tests first', source: 'continuation', by: 'stop-hook' })
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 2 })
    expect(infos).toEqual([
      { turnId: 'turn-1', steps: 1, continuations: 0, lastAssistantText: 'I think I am done' },
      { turnId: 'turn-1', steps: 2, continuations: 1, lastAssistantText: 'now really done' }
    ])
    expect(JSON.stringify(f.model.requests[1].messages)).toContain('run the tests first')
  })

  it('S7: continuations are capped by maxContinuations; the cap ends the turn `completed` with a notice', async () => {
    const f = await setup({
      settings: { maxContinuations: 2 },
      script: () => ({ text: 'again' }),
      setup: (kernel) => kernel.context.on('agent/turn-continuation', async () => ({ action: 'continue', reason: 'keep going' }))
    })
    f.agent.send('loop')
    await f.agent.whenIdle()
    expect(f.model.calls).toBe(3)
    expect(f.ofType('steering/message')).toHaveLength(2)
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 3 })
    expect(f.ofType('notice')[0].text).toMatch(/maxContinuations/)
  })

  it('S20: a throwing continuation listener ends the turn `error`', async () => {
    const f = await setup({
      script: [{ text: 'hi' }],
      setup: (kernel) =>
        kernel.context.on('agent/turn-continuation', async () => {
          throw new Error('stop hook crashed')
        })
    })
    f.agent.send('x')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'error', error: 'stop hook crashed', steps: 1 })
  })
})

describe('agent/turn-stop (S8)', () => {
  it('S8: a stop is monotonic: a continuation decided after it does not un-stop the turn', async () => {
    const stops: Array<[string, string, string]> = []
    const f = await setup({
      script: [{ text: 'first' }, { text: 'never' }],
      setup: (kernel) => {
        kernel.context.on('agent/turn-stop', (_agent, turnId, reason, by) => void stops.push([turnId, reason, by]))
        // Outer listener stops the turn, then lets the inner one decide `continue`.
        kernel.context.on('agent/turn-continuation', async (agent, _info, next) => {
          agent.stop('budget exhausted', 'budget-plugin')
          agent.stop('a second stop is ignored', 'other')
          return next()
        })
        kernel.context.on('agent/turn-continuation', async () => ({ action: 'continue', reason: 'do more' }))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.model.calls).toBe(1)
    expect(stops).toEqual([['turn-1', 'budget exhausted', 'budget-plugin']])
    expect(f.ofType('steering/message')).toHaveLength(0)
    expect(f.ofType('notice').map((n) => n.text)).toEqual(['Turn stopped by budget-plugin: budget exhausted'])
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 1 })
  })

  it('S8: a stop during a step ends the turn after the step (its tool results are still logged)', async () => {
    const f = await setup({
      script: [{ toolCalls: [{ name: 'work' }] }, { text: 'never' }],
      setup: (kernel, tools) => {
        tools.register(testTool('work'))
        kernel.context.on('tools/result', () => fixture()!.agent.handle.stop('policy says enough', 'policy'))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.model.calls).toBe(1)
    expect(f.ofType('tool/result')).toHaveLength(1)
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 1 })
  })

  it('agent/tool-batch `stop` ends the turn `completed` with a notice; `continue` context is logged', async () => {
    let batches = 0
    const f = await setup({
      script: [{ toolCalls: [{ name: 'work' }] }, { toolCalls: [{ name: 'work' }] }, { text: 'never' }],
      setup: (kernel, tools) => {
        tools.register(testTool('work'))
        kernel.context.on('agent/tool-batch', async (_agent, results) => {
          expect(results).toHaveLength(1)
          return ++batches === 1 ? { action: 'continue', additionalContext: ['batch checked'] } : { action: 'stop', reason: 'two batches are enough', by: 'batch-limit' }
        })
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.model.calls).toBe(2)
    expect(f.ofType('context/message').map((c) => c.text)).toEqual(['batch checked'])
    expect(f.ofType('notice')[0]).toMatchObject({ text: 'Turn stopped by batch-limit: two batches are enough', source: 'batch-limit' })
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 2 })
  })
})

describe('failures and limits (S20, S21)', () => {
  it('S20: a model error ends the turn `error` with the message; what streamed is kept as a partial message; the next prompt works', async () => {
    const f = await setup({
      script: [{ text: 'half an ans', error: new ModelError('server', 'upstream 502', 502) }, { text: 'recovered' }]
    })
    f.agent.send('one')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'error', error: 'upstream 502', steps: 1 })
    expect(f.ofType('assistant/message')[0]).toMatchObject({ text: 'half an ans', partial: true, toolCalls: [] })
    f.agent.send('two')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end').map((e) => e.reason)).toEqual(['error', 'completed'])
    expect(f.model.requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
  })

  it('S21: the per-turn step limit ends the turn `max_steps`, every call answered', async () => {
    const f = await setup({
      settings: { maxSteps: 3 },
      script: () => ({ toolCalls: [{ name: 'work' }] }),
      setup: (_kernel, tools) => void tools.register(testTool('work'))
    })
    f.agent.send('forever')
    await f.agent.whenIdle()
    expect(f.model.calls).toBe(3)
    expect(f.ofType('tool/result')).toHaveLength(3)
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'max_steps', steps: 3 })
  })

  it('S21: cancel mid-stream ends the turn `cancelled` and logs the partial assistant message', async () => {
    const f = await setup({ script: [{ thinking: 'hmm', text: 'Let me', hang: true }] })
    const started = firstDelta(f)
    f.agent.send('go')
    await started
    await f.agent.cancel()
    expect(f.ofType('assistant/message')[0]).toMatchObject({ text: 'Let me', thinking: 'hmm', partial: true, toolCalls: [] })
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'cancelled', steps: 1 })
    expect(f.agent.state.running).toBe(false)
  })

  it('cancel works even with a model client that ignores the abort signal', async () => {
    const f = await setup({ script: [] })
    let requested: () => void = () => {}
    const asked = new Promise<void>((resolve) => (requested = resolve))
    const stuck: ModelClient = {
      provider: 'stuck',
      model: 'stuck',
      stream: () => ({
        [Symbol.asyncIterator]: () => ({
          next: () => {
            requested()
            return new Promise<never>(() => {})
          }
        })
      })
    }
    const agent = new Agent({ kernel: f.kernel, log: f.log, model: stuck, workspace: f.dir, source: 'startup' })
    agent.send('go')
    await asked
    await agent.cancel()
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'cancelled', steps: 1 })
    expect(f.ofType('assistant/message')).toHaveLength(0)
    await agent.close()
  })

  it('S21: cancel mid-tool: every started call gets its result, a call still waiting for a slot gets CANCELLED', async () => {
    let running = 0
    let resolveTwoRunning: () => void = () => {}
    const twoRunning = new Promise<void>((resolve) => (resolveTwoRunning = resolve))
    const f = await setup({
      settings: { maxParallelToolCalls: 2 },
      script: [{ toolCalls: [{ name: 'slow' }, { name: 'slow' }, { name: 'slow' }] }],
      setup: (_kernel, tools) =>
        void tools.register(
          testTool('slow', {
            concurrent: true,
            body: async (_args, exec) => {
              if (++running === 2) resolveTwoRunning()
              await sleep(10_000, exec.signal)
              return 'finished'
            }
          })
        )
    })
    f.agent.send('go')
    await twoRunning
    await f.agent.cancel()
    const results = f.ofType('tool/result')
    expect(results.map((r) => r.callId)).toEqual(['call_0_0', 'call_0_1', 'call_0_2'])
    expect(results.map((r) => r.code)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED'])
    expect(results[0].token).not.toBe('')
    expect(results[2].token).toBe('')
    expect(f.ofType('tool/call').map((c) => c.callId)).toEqual(['call_0_0', 'call_0_1'])
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'cancelled', steps: 1 })
  })
})

describe('steering', () => {
  it('a message sent while a turn runs steers it: drained at the top of the next step as steering/message', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let toolStarted: () => void = () => {}
    const started = new Promise<void>((resolve) => (toolStarted = resolve))
    const f = await setup({
      script: [{ toolCalls: [{ name: 'wait' }] }, { text: 'adjusted' }],
      setup: (_kernel, tools) =>
        void tools.register(
          testTool('wait', {
            body: async () => {
              toolStarted()
              await gate
              return 'waited'
            }
          })
        )
    })
    f.agent.send('start')
    await started
    expect(f.agent.send('use tabs, not spaces')).toEqual({ queued: 'steering' })
    expect(f.agent.state.steering).toBe(1)
    release()
    await f.agent.whenIdle()
    expect(f.ofType('turn/start')).toHaveLength(1)
    expect(f.ofType('steering/message')[0]).toMatchObject({ text: 'use tabs, not spaces', source: 'user', turnId: 'turn-1' })
    const types = f.types()
    expect(types.indexOf('steering/message')).toBeGreaterThan(types.indexOf('tool/result'))
    expect(JSON.stringify(f.model.requests[1].messages)).toContain('use tabs, not spaces')
  })

  it('steering passes prompt policy (source `steering`); a blocked one becomes prompt/blocked', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const sources: string[] = []
    const f = await setup({
      script: [{ toolCalls: [{ name: 'wait' }] }, { text: 'ok' }],
      setup: (kernel, tools) => {
        tools.register(testTool('wait', { body: async () => (await gate, 'waited') }))
        kernel.context.on('agent/prompt-submit', async (_a, content, source, next) => {
          sources.push(source)
          return content.includes('secret') ? { action: 'block', reason: 'secret' } : next()
        })
      }
    })
    f.agent.send('start')
    await f.model.waitForRequest(1)
    await sleep(5)
    expect(f.agent.send('the secret is 1234')).toEqual({ queued: 'steering' })
    release()
    await f.agent.whenIdle()
    expect(sources).toEqual(['user', 'steering'])
    expect(f.ofType('prompt/blocked')[0]).toMatchObject({ prompt: 'the secret is 1234', turnId: 'turn-1' })
    expect(f.ofType('steering/message')).toHaveLength(0)
    expect(JSON.stringify(f.model.requests[1].messages)).not.toContain('1234')
  })

  it('a message sent during the last step opens the next turn as a normal prompt', async () => {
    const f = await setup({ script: [{ text: 'slow answer', delayMs: 30 }, { text: 'second turn' }] })
    const started = firstDelta(f)
    f.agent.send('first')
    await f.model.waitForRequest(1)
    expect(f.agent.send('and then this')).toEqual({ queued: 'steering' })
    await started
    await f.agent.whenIdle()
    expect(f.ofType('turn/start')).toHaveLength(2)
    expect(f.ofType('steering/message')).toHaveLength(0)
    expect(f.ofType('user/message').map((m) => [m.turnId, m.content])).toEqual([
      ['turn-1', 'first'],
      ['turn-2', 'and then this']
    ])
    expect(f.ofType('turn/end').map((e) => e.reason)).toEqual(['completed', 'completed'])
  })
})
