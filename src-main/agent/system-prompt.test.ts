import { describe, expect, it } from 'vitest'
import { Kernel } from '../../src-shared/kernel'
import { PromptConfigSchema, promptPlugin, renderSystemPrompt, SystemPromptSections } from './system-prompt'

describe('the prompt service', () => {
  it('S3: sections a plugin contributes are in the prompt, in plugin order, and go when the plugin is disposed', () => {
    const kernel = new Kernel()
    kernel.plugin(promptPlugin)
    const first = kernel.plugin({ name: 'base', inject: ['prompt'], apply: (ctx) => void ctx.prompt.section('base', 'You are a careful agent.') })
    const second = kernel.plugin({ name: 'project', inject: ['prompt'], apply: (ctx) => void ctx.get('prompt').section(ctx, 'agents-md', 'Use pnpm.') })
    const service = kernel.getService('prompt')!
    expect(service.render({ workspace: '/w' })).toBe('You are a careful agent.\n\nUse pnpm.\n\nWorking directory: /w')
    expect(service.sections()).toEqual([
      { id: 'base', text: 'You are a careful agent.', owner: 'base' },
      { id: 'agents-md', text: 'Use pnpm.', owner: 'project' }
    ])
    // A restart keeps the plugin's place.
    first.restart()
    expect(service.sections().map((s) => s.id)).toEqual(['base', 'agents-md'])
    second.dispose()
    expect(service.render({ workspace: '/w' })).toBe('You are a careful agent.\n\nWorking directory: /w')
    first.dispose()
    expect(service.sections()).toEqual([])
  })

  it('refuses a duplicate id, naming the owner; an unowned section returns its disposer', () => {
    const service = new SystemPromptSections()
    const kernel = new Kernel()
    kernel.plugin({ name: 'owner', apply: (ctx) => void service.section(ctx, 'x', 'one') })
    expect(() => service.section('x', 'two')).toThrow(/"x" is already contributed by plugin "owner"/)
    const remove = service.section('y', 'later')
    expect(service.sections().map((s) => s.id)).toEqual(['x', 'y'])
    remove()
    expect(service.sections().map((s) => s.id)).toEqual(['x'])
  })

  it('ctx.prompt without the service says what is missing; config is validated', () => {
    const kernel = new Kernel()
    const runtime = kernel.plugin({ name: 'early', apply: (ctx) => void ctx.prompt.section('a', 'b') })
    expect(runtime.state).toBe('failed')
    expect(runtime.error?.message).toMatch(/prompt service is not available/)
    expect(PromptConfigSchema.parse(undefined)).toEqual({})
    expect(() => kernel.plugin(promptPlugin, { bse: 'typo' })).toThrow(/bse/)
    expect(renderSystemPrompt('Base.', [{ id: 'e', text: '  ' }], { workspace: '/p' })).toBe('Base.\n\nWorking directory: /p')
  })
})
