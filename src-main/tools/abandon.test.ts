// A cancelled call whose tool or policy listener never settles: after the grace the pipeline
// stops waiting, and the call still ends as a result that post-execute and tools/result see.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolCallRequest, ToolDefinition, ToolResult } from '../../src-shared/host/tools'
import { Kernel, PluginConfigError } from '../../src-shared/kernel'
import { toolsPlugin } from './index'

function setup(abandonAfterCancelMs = 10) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin, { abandonAfterCancelMs })
  return { kernel, ctx: kernel.context, tools: kernel.getService('tools')! }
}

function request(name: string, signal: AbortSignal): ToolCallRequest {
  return { name, args: {}, callId: 'call-1', sessionId: 'session-1', cwd: '/srv', signal }
}

const never = <T>(): Promise<T> => new Promise<T>(() => {})

/** A tool that aborts its caller once it runs, then never settles (it ignores its signal). */
function stuck(controller: AbortController): ToolDefinition<Record<string, never>> {
  return { name: 'Stuck', description: 'never settles', inputSchema: z.object({}), execute: () => (controller.abort(), never()) }
}

describe('abandoning a cancelled call (S13, S16)', () => {
  it('a tool that ignores its signal is abandoned after the grace; post-execute and tools/result still see the call', async () => {
    const { ctx, tools } = setup()
    const controller = new AbortController()
    ctx.tools.register(stuck(controller))
    const seen: ToolResult[] = []
    ctx.on('tools/post-execute', async (_call, result, _verdict, next) => (seen.push(result), next()))
    ctx.on('tools/result', (_call, result) => void seen.push(result))
    const out = await tools.execute(request('Stuck', controller.signal))
    expect(out.result).toEqual({ isError: true, code: 'CANCELLED', content: 'Tool "Stuck" did not stop within 10 ms of the cancel; it was abandoned and may still be running.' })
    expect(seen).toEqual([out.result, out.result])
  })

  it('S13: a tools/execute wrapper that never settles is abandoned the same way', async () => {
    const { ctx, tools } = setup()
    const controller = new AbortController()
    ctx.tools.register({ name: 'Quick', description: 'answers', inputSchema: z.object({}), execute: () => ({ content: 'quick' }) })
    ctx.on('tools/execute', () => (controller.abort(), never()))
    const out = await tools.execute(request('Quick', controller.signal))
    expect(out.result).toMatchObject({ isError: true, code: 'CANCELLED' })
  })

  it('S18/S10: an input-rewrite or pre-execute listener that never settles: the call is not run, CANCELLED', async () => {
    for (const seam of ['tools/input-rewrite', 'tools/pre-execute'] as const) {
      const { ctx, tools } = setup()
      const controller = new AbortController()
      let ran = false
      ctx.tools.register({ name: 'Quick', description: 'answers', inputSchema: z.object({}), execute: () => ((ran = true), { content: 'quick' }) })
      const hang = (): Promise<never> => (controller.abort(), never())
      if (seam === 'tools/input-rewrite') ctx.on(seam, hang)
      else ctx.on(seam, hang)
      const out = await tools.execute(request('Quick', controller.signal))
      expect(ran).toBe(false)
      expect(out.result).toMatchObject({ isError: true, code: 'CANCELLED' })
      expect(out.verdict).toMatchObject({ outcome: 'denied', stage: seam === 'tools/input-rewrite' ? 'rewrite' : 'pre-execute' })
    }
  })

  it('S14: a post-execute listener that never settles: the content is dropped (fail closed), CANCELLED', async () => {
    const { ctx, tools } = setup()
    const controller = new AbortController()
    ctx.tools.register({ name: 'Secret', description: 'answers', inputSchema: z.object({}), execute: () => ({ content: 'the secret' }) })
    ctx.on('tools/post-execute', () => (controller.abort(), never()))
    const out = await tools.execute(request('Secret', controller.signal))
    expect(out.result).toMatchObject({ isError: true, code: 'CANCELLED' })
    expect(out.result.content).not.toContain('the secret')
  })

  it('a tool or listener that settles within the grace keeps its own outcome', async () => {
    const { ctx, tools } = setup(60_000)
    const controller = new AbortController()
    ctx.tools.register({
      name: 'Polite',
      description: 'stops on abort',
      inputSchema: z.object({}),
      execute: (_args, exec) => {
        controller.abort()
        return new Promise((resolve) => setTimeout(() => resolve({ content: `stopped: ${exec.signal.aborted}` }), 5))
      }
    })
    ctx.on('tools/post-execute', async (_call, _result, _verdict, next) => next())
    const out = await tools.execute(request('Polite', controller.signal))
    expect(out.result).toEqual({ content: 'stopped: true', isError: false })
  })

  it('the grace is validated at load, naming the field', () => {
    const kernel = new Kernel()
    expect(() => kernel.plugin(toolsPlugin, { abandonAfterCancelMs: -1 })).toThrow(PluginConfigError)
    expect(() => new Kernel().plugin(toolsPlugin, { abandonAfterCancelMs: -1 })).toThrow(/abandonAfterCancelMs/)
  })
})
