// The loop at its edges: cancel and close while something never settles (a tool, a policy
// listener, session-start), repeated call ids, failures mid-step, and the cancel paths that
// must leave nothing pending.
import { describe, expect, it } from 'vitest'
import toolTimeout from '../../plugins/tool-timeout'
import { testTool } from './loop-fixture'
import { useLoopFixture } from './loop-fixture-hooks'

const loop = useLoopFixture()
const setup = loop.setup
const fixture = loop.current

/** A promise and the function that resolves it. */
function signalled(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {}
  const promise = new Promise<void>((resolve) => (fire = resolve))
  return { promise, fire }
}

const never = <T>(): Promise<T> => new Promise<T>(() => {})

/** A tool that starts, tells `started`, and then neither settles nor looks at its signal. */
function stuckTool(started: () => void) {
  return testTool('stuck', { body: () => (started(), never<string>()) })
}

describe('cancel while a tool never settles and ignores its signal', () => {
  it('S21: the call is abandoned after the grace: it gets a CANCELLED result and the turn ends `cancelled`', async () => {
    const started = signalled()
    const f = await setup({
      toolsConfig: { abandonAfterCancelMs: 20 },
      script: [{ toolCalls: [{ name: 'stuck' }] }],
      setup: (_kernel, tools) => void tools.register(stuckTool(started.fire))
    })
    f.agent.send('go')
    await started.promise
    await f.agent.cancel()
    const [result] = f.ofType('tool/result')
    expect(result).toMatchObject({ callId: 'call_0_0', name: 'stuck', isError: true, code: 'CANCELLED' })
    expect(result.content).toMatch(/did not stop .* cancel/)
    expect(f.types().slice(-2)).toEqual(['tool/result', 'turn/end'])
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'cancelled', steps: 1 })
    expect(f.agent.state.running).toBe(false)
  })

  it('S13/S21: with the tool-timeout plugin the cancel does not wait for the deadline', async () => {
    const started = signalled()
    const f = await setup({
      toolsConfig: { abandonAfterCancelMs: 20 },
      script: [{ toolCalls: [{ name: 'stuck' }] }],
      setup: (kernel, tools) => {
        kernel.plugin(toolTimeout, { defaultTimeoutMs: 600_000, graceMs: 600_000 })
        tools.register(stuckTool(started.fire))
      }
    })
    f.agent.send('go')
    await started.promise
    await f.agent.cancel()
    expect(f.ofType('tool/result')[0]).toMatchObject({ name: 'stuck', code: 'CANCELLED' })
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'cancelled' })
  })

  it('close() still completes: agent/session-end fires once and the turn is closed by turn/end', async () => {
    const started = signalled()
    const ends: string[] = []
    const f = await setup({
      toolsConfig: { abandonAfterCancelMs: 20 },
      script: [{ toolCalls: [{ name: 'stuck' }] }],
      setup: (kernel, tools) => {
        kernel.context.on('agent/session-end', (_agent, reason) => void ends.push(reason))
        tools.register(stuckTool(started.fire))
      }
    })
    f.agent.send('go')
    await started.promise
    await Promise.all([f.agent.close('shutdown'), f.agent.close('shutdown')])
    expect(ends).toEqual(['shutdown'])
    expect(f.types().at(-1)).toBe('turn/end')
    expect(f.ofType('turn/end')).toHaveLength(1)
    expect(f.ofType('turn/end')[0].reason).toBe('cancelled')
  })

  it('a tool that stops within the grace keeps its own result', async () => {
    const started = signalled()
    const f = await setup({
      toolsConfig: { abandonAfterCancelMs: 60_000 },
      script: [{ toolCalls: [{ name: 'polite' }] }],
      setup: (_kernel, tools) =>
        void tools.register(
          testTool('polite', {
            body: (_args, exec) => (started.fire(), new Promise<string>((resolve) => exec.signal.addEventListener('abort', () => resolve('stopped, partial output'))))
          })
        )
    })
    f.agent.send('go')
    await started.promise
    await f.agent.cancel()
    expect(f.ofType('tool/result')[0]).toMatchObject({ content: 'stopped, partial output', isError: false })
    expect(f.ofType('turn/end')[0].reason).toBe('cancelled')
  })
})

describe('close while agent/session-start never settles', () => {
  it('S4: close() completes: the queued message is dropped with a notice, agent/session-end fires once, no turn opens', async () => {
    const entered = signalled()
    const ends: string[] = []
    const f = await setup({
      script: [{ text: 'never asked' }],
      setup: (kernel) => {
        kernel.context.on('agent/session-start', () => (entered.fire(), never()))
        kernel.context.on('agent/session-end', (_agent, reason) => void ends.push(reason))
      }
    })
    f.agent.send('go')
    await entered.promise
    await f.agent.close('shutdown')
    expect(ends).toEqual(['shutdown'])
    expect(f.types()).toEqual(['session/header', 'notice'])
    expect(f.agent.state.running).toBe(false)
    expect(f.model.calls).toBe(0)
  })
})

describe('cancel while agent/session-start never settles', () => {
  it('S4/S21: cancel() stops waiting; the queued prompt opens a turn that ends cancelled and is kept as prompt/blocked', async () => {
    const entered = signalled()
    const f = await setup({
      script: [{ text: 'later' }],
      setup: (kernel) => void kernel.context.on('agent/session-start', () => (entered.fire(), never()))
    })
    f.agent.send('go')
    await entered.promise
    await f.agent.cancel()
    expect(f.types()).toEqual(['session/header', 'turn/start', 'prompt/blocked', 'turn/end'])
    expect(f.ofType('prompt/blocked')[0]).toMatchObject({ prompt: 'go' })
    expect(f.ofType('turn/end')[0].reason).toBe('cancelled')
    expect(f.agent.state.running).toBe(false)
    expect(f.model.calls).toBe(0)
    // The agent stays usable: the next prompt runs a normal turn.
    f.agent.send('again')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end').map((e) => e.reason)).toEqual(['cancelled', 'completed'])
  })
})

describe('cancel while a policy listener never settles', () => {
  it('S5/S21: a hanging agent/prompt-submit: the turn ends `cancelled`, the prompt is kept as prompt/blocked', async () => {
    const entered = signalled()
    const f = await setup({
      script: [{ text: 'next turn' }],
      setup: (kernel) =>
        kernel.context.on('agent/prompt-submit', async (_agent, content) => {
          if (content === 'first') {
            entered.fire()
            return never()
          }
          return { action: 'allow' }
        })
    })
    f.agent.send('first')
    await entered.promise
    await f.agent.cancel()
    expect(f.ofType('prompt/blocked')).toEqual([expect.objectContaining({ turnId: 'turn-1', prompt: 'first', reason: expect.stringMatching(/cancelled/) })])
    expect(f.ofType('turn/end')[0]).toMatchObject({ turnId: 'turn-1', reason: 'cancelled', steps: 0 })
    // The agent stays usable.
    f.agent.send('second')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end')[1]).toMatchObject({ turnId: 'turn-2', reason: 'completed', steps: 1 })
  })

  it('steering: the message whose policy hangs is kept as prompt/blocked; the ones behind it open the next turn', async () => {
    const toolRunning = signalled()
    const policyEntered = signalled()
    let releaseTool: () => void = () => {}
    const f = await setup({
      script: [{ toolCalls: [{ name: 'gate' }] }, { text: 'never asked' }, { text: 'next turn' }],
      setup: (kernel, tools) => {
        tools.register(testTool('gate', { body: () => (toolRunning.fire(), new Promise<string>((resolve) => (releaseTool = () => resolve('open')))) }))
        kernel.context.on('agent/prompt-submit', async (_agent, content) => {
          if (content !== 'hangs') return { action: 'allow' }
          policyEntered.fire()
          return never()
        })
      }
    })
    f.agent.send('go')
    await toolRunning.promise
    expect(f.agent.send('hangs')).toEqual({ queued: 'steering' })
    expect(f.agent.send('behind it')).toEqual({ queued: 'steering' })
    releaseTool()
    await policyEntered.promise
    await f.agent.cancel()
    await f.agent.whenIdle()
    expect(f.ofType('prompt/blocked').map((e) => [e.turnId, e.prompt])).toEqual([['turn-1', 'hangs']])
    expect(f.ofType('turn/end').map((e) => [e.turnId, e.reason])).toEqual([
      ['turn-1', 'cancelled'],
      ['turn-2', 'completed']
    ])
    expect(f.ofType('user/message').map((m) => [m.turnId, m.content])).toEqual([
      ['turn-1', 'go'],
      ['turn-2', 'behind it']
    ])
  })

  it('S7/S21: a hanging agent/turn-continuation: the turn ends `cancelled`', async () => {
    const entered = signalled()
    const f = await setup({
      script: [{ text: 'done?' }],
      setup: (kernel) => kernel.context.on('agent/turn-continuation', () => (entered.fire(), never()))
    })
    f.agent.send('go')
    await entered.promise
    await f.agent.cancel()
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'cancelled', steps: 1 })
  })

  it('S21: a hanging agent/tool-batch: the turn ends `cancelled`, the step\'s result is logged', async () => {
    const entered = signalled()
    const f = await setup({
      script: [{ toolCalls: [{ name: 't' }] }],
      setup: (kernel, tools) => {
        tools.register(testTool('t'))
        kernel.context.on('agent/tool-batch', () => (entered.fire(), never()))
      }
    })
    f.agent.send('go')
    await entered.promise
    await f.agent.cancel()
    expect(f.ofType('tool/result')).toHaveLength(1)
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'cancelled', steps: 1 })
  })

  it('S10/S21: a hanging tools/pre-execute: the call is abandoned after the grace with a CANCELLED result', async () => {
    const entered = signalled()
    let ran = false
    const f = await setup({
      toolsConfig: { abandonAfterCancelMs: 20 },
      script: [{ toolCalls: [{ name: 't' }] }],
      setup: (kernel, tools) => {
        tools.register(testTool('t', { body: () => ((ran = true), 'ran') }))
        kernel.context.on('tools/pre-execute', () => (entered.fire(), never()))
      }
    })
    f.agent.send('go')
    await entered.promise
    await f.agent.cancel()
    expect(ran).toBe(false)
    expect(f.ofType('tool/result')[0]).toMatchObject({ code: 'CANCELLED', verdict: { outcome: 'denied', stage: 'pre-execute' } })
    expect(f.ofType('turn/end')[0].reason).toBe('cancelled')
  })
})

describe('cancel paths that already hold', () => {
  it('S11: cancel while an approval dialog is open: the ask resolves cancelled, the call gets a result, nothing stays pending', async () => {
    const asked = signalled()
    const settled: string[] = []
    const f = await setup({
      script: [{ toolCalls: [{ name: 't' }] }],
      setup: (kernel, tools) => {
        tools.register(testTool('t'))
        kernel.context.on('tools/pre-execute', async () => ({ action: 'ask', reason: 'needs a yes' }))
        kernel.context.on('approval/request', () => (asked.fire(), never()))
        kernel.context.on('approval/settled', (_id, answer) => void settled.push(answer.outcome))
      }
    })
    f.agent.send('go')
    await asked.promise
    await f.agent.cancel()
    expect(f.ofType('approval/decided')[0]).toMatchObject({ outcome: 'cancelled' })
    expect(f.ofType('tool/result')[0]).toMatchObject({ code: 'CANCELLED', verdict: { outcome: 'denied', stage: 'approval', approval: 'cancelled' } })
    expect(f.ofType('turn/end')[0].reason).toBe('cancelled')
    expect(settled).toEqual(['cancelled'])
    expect(f.kernel.getService('approval')?.pending()).toEqual([])
  })

  it('S19/S21: cancel after the stream ended but before the calls start: every call gets a CANCELLED result, none runs', async () => {
    let ran = 0
    const f = await setup({
      script: [{ toolCalls: [{ name: 't' }, { name: 't' }] }],
      setup: (_kernel, tools) => void tools.register(testTool('t', { body: () => (ran++, 'ran') }))
    })
    f.log.onAppend((event) => {
      if (event.type === 'assistant/message') void f.agent.cancel()
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(ran).toBe(0)
    expect(f.ofType('tool/result').map((r) => [r.callId, r.code])).toEqual([
      ['call_0_0', 'CANCELLED'],
      ['call_0_1', 'CANCELLED']
    ])
    expect(f.ofType('turn/end')[0].reason).toBe('cancelled')
  })

  it('two cancels and a send during the cancel: one turn/end `cancelled`, the message opens the next turn', async () => {
    const delta = signalled()
    const f = await setup({ script: [{ text: 'working', hang: true }, { text: 'second' }] })
    f.kernel.context.on('agent/delta', () => delta.fire())
    f.agent.send('go')
    await delta.promise
    const first = f.agent.cancel()
    expect(f.agent.send('during the cancel')).toEqual({ queued: 'steering' })
    await Promise.all([first, f.agent.cancel()])
    await f.agent.whenIdle()
    expect(f.ofType('turn/end').map((e) => [e.turnId, e.reason])).toEqual([
      ['turn-1', 'cancelled'],
      ['turn-2', 'completed']
    ])
    expect(f.ofType('user/message').map((m) => m.content)).toEqual(['go', 'during the cancel'])
  })

  it('a throwing agent/turn-end or onAppend listener does not break the loop', async () => {
    const f = await setup({
      script: [{ text: 'a' }, { text: 'b' }],
      setup: (kernel) =>
        kernel.context.on('agent/turn-end', () => {
          throw new Error('turn-end listener broke')
        })
    })
    f.log.onAppend(() => {
      throw new Error('append listener broke')
    })
    f.agent.send('one')
    await f.agent.whenIdle()
    f.agent.send('two')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end').map((e) => e.reason)).toEqual(['completed', 'completed'])
  })

  it('S7/S21: the step limit reached right after a continuation ends the turn `max_steps`; the reason dies with it', async () => {
    const f = await setup({
      settings: { maxSteps: 2 },
      script: () => ({ text: 'again' }),
      setup: (kernel) => kernel.context.on('agent/turn-continuation', async () => ({ action: 'continue', reason: 'more' }))
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'max_steps', steps: 2 })
    expect(f.agent.state).toMatchObject({ running: false, queued: 0, steering: 0 })
    expect(f.model.calls).toBe(2)
  })
})

describe('failures in the middle of a step', () => {
  it('S17/S19: a throwing call between two others: results in call order (the last finishes first), then every context', async () => {
    const f = await setup({
      script: [{ toolCalls: [{ name: 'slow' }, { name: 'boom' }, { name: 'fast' }] }, { text: 'ok' }],
      setup: (kernel, tools) => {
        let releaseSlow: () => void = () => {}
        tools.register(testTool('slow', { concurrent: true, body: () => new Promise<string>((resolve) => (releaseSlow = () => resolve('slow'))) }))
        tools.register(
          testTool('boom', {
            concurrent: true,
            body: () => {
              throw new Error('boom broke')
            }
          })
        )
        tools.register(testTool('fast', { concurrent: true, body: () => (setTimeout(() => releaseSlow(), 0), 'fast') }))
        kernel.context.on('tools/post-execute', async (call, _result, _verdict, next) => ({ ...(await next()), additionalContext: [`after ${call.name}`] }))
        kernel.context.on('tools/result', () => {
          throw new Error('an observer broke')
        })
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    const tail = f.log.events.filter((e) => e.type === 'tool/result' || e.type === 'context/message')
    expect(tail.map((e) => (e.type === 'tool/result' ? `result ${e.name} ${e.code ?? 'ok'}` : e.type === 'context/message' ? e.text : ''))).toEqual([
      'result slow ok',
      'result boom TOOL_THREW',
      'result fast ok',
      'after slow',
      'after boom',
      'after fast'
    ])
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 2 })
  })

  it('S12: a throwing guard denies the call (fail closed) and the turn goes on', async () => {
    let ran = false
    const f = await setup({
      script: [{ toolCalls: [{ name: 't' }] }, { text: 'ok' }],
      setup: (_kernel, tools) => {
        tools.register(testTool('t', { body: () => ((ran = true), 'ran') }))
        tools.guard(() => {
          throw new Error('guard broke')
        })
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(ran).toBe(false)
    expect(f.ofType('tool/result')[0]).toMatchObject({ code: 'DENIED', verdict: { outcome: 'denied', stage: 'guard' } })
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 2 })
  })
})

describe('a step whose calls repeat an id', () => {
  it('S19: each call gets its own id and its own result; the next request pairs every call with its own result', async () => {
    const f = await setup({
      script: [
        {
          toolCalls: [
            { name: 't', id: 'dup', args: { tag: 'a' } },
            { name: 't', id: 'dup', args: { tag: 'b' } },
            { name: 't', id: 'dup_2', args: { tag: 'c' } }
          ]
        },
        { text: 'done' }
      ],
      setup: (_kernel, tools) => void tools.register(testTool('t'))
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    const ids = f.ofType('assistant/message')[0].toolCalls.map((c) => c.id)
    expect(new Set(ids).size).toBe(3)
    expect(ids[0]).toBe('dup')
    expect(ids[2]).toBe('dup_2')
    expect(f.ofType('tool/result').map((r) => [r.callId, r.content])).toEqual([
      [ids[0], 'ok:t:a'],
      [ids[1], 'ok:t:b'],
      [ids[2], 'ok:t:c']
    ])
    const messages = f.model.requests[1].messages
    const calls = messages.find((m) => m.role === 'assistant')
    expect(calls?.role === 'assistant' && calls.toolCalls.map((c) => c.id)).toEqual(ids)
    expect(messages.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? [m.callId, m.content] : []))).toEqual([
      [ids[0], 'ok:t:a'],
      [ids[1], 'ok:t:b'],
      [ids[2], 'ok:t:c']
    ])
  })
})
