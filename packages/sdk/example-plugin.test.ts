// The README's example plugin on a real kernel with the real tool pipeline (S10, S11).
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Kernel, defineTool } from '@seam/sdk'
import { toolsPlugin } from '@seam/sdk/testing'
import example from './example-plugin'

function setup() {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  kernel.plugin(example)
  const tools = kernel.getService('tools')!
  tools.register(defineTool({ name: 'Bash', description: 'runs nothing', inputSchema: z.object({ command: z.string() }), execute: ({ command }) => ({ content: `ran ${command}` }) }))
  return tools
}

const call = (name: string, args: unknown) => ({ name, args, callId: 'c1', sessionId: 's1', cwd: '/' })

describe('the SDK example plugin', () => {
  it('registers a tool whose arguments defineTool typed from its schema, validated by the registry', async () => {
    const tools = setup()
    expect((await tools.execute(call('Shout', { text: 'hi' }))).result).toMatchObject({ content: 'HI', isError: false })
    expect((await tools.execute(call('Shout', { text: 1 }))).result).toMatchObject({ isError: true })
  })

  it('S10/S11: its pre-execute policy asks before git push; with no one to answer, the call is denied and does not run', async () => {
    const tools = setup()
    const pushed = await tools.execute(call('Bash', { command: 'git push origin main' }))
    expect(pushed.result.isError).toBe(true)
    expect(pushed.result.content).not.toContain('ran git push')
    expect((await tools.execute(call('Bash', { command: 'git status' }))).result).toMatchObject({ content: 'ran git status', isError: false })
  })
})
