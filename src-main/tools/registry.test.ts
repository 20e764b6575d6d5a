// Registration, the model's view of the tools, and disposal of what a plugin registered (S3).
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolCallRequest, ToolDefinition } from '../../src-shared/host/tools'
import { Kernel } from '../../src-shared/kernel'
import { ToolRegistryImpl, toolsPlugin } from './index'

const echo: ToolDefinition<{ text: string; times?: number }> = {
  name: 'Echo',
  description: 'Echoes its text.',
  inputSchema: z.object({ text: z.string().describe('What to echo'), times: z.number().int().default(1) }),
  execute: (args) => ({ content: args.text.repeat(args.times ?? 1) })
}

function request(name: string, args: unknown): ToolCallRequest {
  return { name, args, callId: 'c', sessionId: 's', cwd: '/' }
}

describe('tool registry', () => {
  it('specs() gives the model each tool with the JSON Schema of its input (zod 4 toJSONSchema, input side)', () => {
    const registry = new ToolRegistryImpl(new Kernel())
    registry.register(echo)
    const [spec] = registry.specs()
    expect(spec.name).toBe('Echo')
    expect(spec.description).toBe('Echoes its text.')
    expect(spec.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo' }, times: { type: 'integer', default: 1 } },
      required: ['text']
    })
    expect(spec.inputSchema.$schema).toBeUndefined()
  })

  it('registering a name that is taken throws, naming both plugins; a bad definition fails at load naming the field', () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    kernel.plugin({ name: 'first', apply: (ctx) => void ctx.tools.register(echo) })
    const second = kernel.plugin({ name: 'second', apply: (ctx) => void ctx.tools.register(echo) })
    expect(second.state).toBe('failed')
    expect(second.error?.message).toBe('plugin "second" cannot register tool "Echo": that name is already registered by plugin "first"')
    const tools = kernel.getService('tools')!
    expect(() => tools.register({ ...echo, name: 'has space' })).toThrow(/name: expected 1-64 characters/)
    expect(() => tools.register({ ...echo, name: 'T', timeoutMs: -1 })).toThrow(/"T": timeoutMs: expected a positive number/)
    expect(() => tools.register({ ...echo, name: 'S', inputSchema: z.string() as never })).toThrow(/"S": inputSchema must describe an object/)
  })

  it('an alias (a tool\'s old name: Task for Agent) runs the tool under the name called, is not on the model\'s list, and goes with the tool; a taken alias fails at load', async () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    const tools = kernel.getService('tools')!
    const dispose = tools.register({ ...echo, name: 'Agent', aliases: ['Task'] })
    expect(tools.specs().map((spec) => spec.name)).toEqual(['Agent'])
    const viaAlias = await tools.execute(request('Task', { text: 'hi' }))
    expect(viaAlias.call.name).toBe('Task')
    expect(viaAlias.result).toMatchObject({ content: 'hi', isError: false })
    expect(() => tools.register({ ...echo, name: 'Other', aliases: ['Task'] })).toThrow('its alias "Task" is already registered')
    expect(() => tools.register({ ...echo, name: 'Bad', aliases: ['Bad'] })).toThrow(/aliases: expected tool names other than its own/)
    dispose()
    expect((await tools.execute(request('Task', { text: 'hi' }))).result.code).toBe('UNKNOWN_TOOL')
  })

  it('S3: tools and guards registered through ctx.tools go away when their plugin is disposed', async () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    const tools = kernel.getService('tools')!
    const plugin = kernel.plugin({
      name: 'contributor',
      inject: ['tools'],
      apply(ctx) {
        ctx.tools.register(echo)
        ctx.tools.guard((call) => (call.args.text === 'forbidden' ? 'contributor says no' : undefined))
      }
    })
    expect(tools.get('Echo')).toBeDefined()
    expect((await tools.execute(request('Echo', { text: 'forbidden' }))).result.code).toBe('DENIED')
    plugin.dispose()
    expect(tools.get('Echo')).toBeUndefined()
    expect(tools.specs()).toEqual([])
    expect(kernel.guards.count('tools')).toBe(0)
    expect((await tools.execute(request('Echo', { text: 'forbidden' }))).result.code).toBe('UNKNOWN_TOOL')
    // The name is free again.
    kernel.plugin({ name: 'again', apply: (ctx) => void ctx.tools.register(echo) })
    expect((await tools.execute(request('Echo', { text: 'forbidden', times: 2 }))).result.content).toBe('forbiddenforbidden')
  })

  it('S3: the disposer returned by ctx.tools.register removes the tool at once, and disposal later does not trip over it', () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    let remove = (): void => {}
    const plugin = kernel.plugin({ name: 'p', apply: (ctx) => void (remove = ctx.tools.register(echo)) })
    remove()
    expect(kernel.getService('tools')!.get('Echo')).toBeUndefined()
    expect(() => plugin.dispose()).not.toThrow()
  })

  it('ctx.tools names the missing service when no tools plugin runs', () => {
    const kernel = new Kernel()
    expect(() => kernel.context.tools).toThrow(/ctx.tools is not available.*inject: \['tools'\]/)
  })

  it('disposing the tools plugin removes both services and settles pending approvals', async () => {
    const kernel = new Kernel()
    const runtime = kernel.plugin(toolsPlugin)
    const approval = kernel.getService('approval')!
    kernel.context.on('approval/request', () => new Promise(() => {}))
    const pending = approval.request({ sessionId: 's', tool: 'Echo', args: {}, token: 't', reason: 'r', signal: new AbortController().signal })
    await new Promise((resolve) => setTimeout(resolve, 0))
    runtime.dispose()
    expect(kernel.getService('tools')).toBeUndefined()
    expect(kernel.getService('approval')).toBeUndefined()
    expect((await pending).outcome).toBe('unavailable')
  })
})
