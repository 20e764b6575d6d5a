// "Model-visible means logged": every request the model got can be rebuilt from the session log
// as reloaded from disk (plus the prompt sections and the tool specs, which are plugin state).
import { afterEach, describe, expect, it } from 'vitest'
import { deriveModelMessages } from '../session/history'
import { createLoopFixture, testTool, type LoopFixture } from './loop-fixture'
import { buildModelRequest } from './step'

let fixture: LoopFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

describe('model-visible means logged', () => {
  it('reloads the session from disk and derives exactly the requests the model received', async () => {
    let gateOpen: () => void = () => {}
    const gate = new Promise<void>((resolve) => (gateOpen = resolve))
    let continued = false
    const f = (fixture = await createLoopFixture({
      script: [
        { thinking: 'plan', text: 'Looking.', toolCalls: [{ name: 'read', args: { tag: 'a' } }, { name: 'read', args: { tag: 'b' } }] },
        { toolCalls: [{ name: 'wait' }] },
        { text: 'Done, I think.' },
        { text: 'Tests pass now.' },
        { text: 'Second turn answer.' }
      ],
      setup: (kernel, tools) => {
        tools.register(testTool('read', { concurrent: true }))
        tools.register(testTool('wait', { body: async () => (await gate, 'waited') }))
        kernel.plugin({
          name: 'context-plugin',
          inject: ['prompt'],
          apply(ctx) {
            ctx.prompt.section('rules', 'Always answer in English.')
            ctx.on('agent/session-start', (agent) => agent.inject('repo uses pnpm', 'context-plugin'))
            ctx.on('agent/prompt-submit', async (_agent, content) => ({ action: 'allow', content: `${content}!`, additionalContext: ['prompt checked'] }))
            ctx.on('tools/post-execute', async (call) => ({ action: 'accept', additionalContext: [`read ${String(call.args.tag ?? call.name)}`] }))
            ctx.on('agent/turn-continuation', async () => {
              if (continued) return { action: 'stop' }
              continued = true
              return { action: 'continue', reason: 'run the tests', by: 'stop-hook' }
            })
          }
        })
      }
    }))
    f.agent.send('fix the bug')
    await f.model.waitForRequest(2)
    expect(f.agent.send('also update the changelog')).toEqual({ queued: 'steering' })
    gateOpen()
    await f.agent.whenIdle()
    f.agent.send('thanks')
    await f.agent.whenIdle()
    expect(f.model.calls).toBe(5)
    expect(f.types()).toContain('steering/message')

    const system = f.kernel.getService('prompt')!.render({ workspace: f.dir })
    await f.agent.close()
    await f.log.close()
    const reloaded = await f.store.open(f.log.id)
    expect(reloaded).not.toBe(f.log)
    expect(reloaded.events).toEqual(f.log.events)

    // Request i was built from everything logged before the i-th assistant message.
    const assistantAt = reloaded.events.flatMap((e, i) => (e.type === 'assistant/message' ? [i] : []))
    expect(assistantAt).toHaveLength(5)
    f.model.requests.forEach((request, i) => {
      expect(deriveModelMessages(reloaded.events.slice(0, assistantAt[i]))).toEqual(request.messages)
      expect(request.system).toBe(system)
    })
    const last = f.model.requests[4]
    const rebuilt = buildModelRequest(reloaded.events.slice(0, assistantAt[4]))
    expect(rebuilt).toEqual({ system: last.system, messages: last.messages, tools: last.tools })
    // Every request, system prompt and tools included, is rebuilt from the reloaded log alone.
    f.model.requests.forEach((request, i) => {
      const fromLog = buildModelRequest(reloaded.events.slice(0, assistantAt[i]))
      expect({ system: fromLog.system, messages: fromLog.messages, tools: fromLog.tools }).toEqual({ system: request.system, messages: request.messages, tools: request.tools })
    })
    expect(system).toContain('Always answer in English.')
    const everything = JSON.stringify(last.messages)
    for (const text of ['repo uses pnpm', 'fix the bug!', 'prompt checked', 'read a', 'read b', 'also update the changelog!', 'run the tests', 'thanks!']) {
      expect(everything).toContain(text)
    }
    await reloaded.close()
  })
})
