// The permission policy (S10): approval modes, allow/deny rules, and never weakening the chain.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { PreToolDecision, ToolCallRequest } from '@seam/sdk'
import { Kernel, PluginConfigError } from '@seam/sdk'
import { toolsPlugin } from '@seam/sdk/testing'
import permissionPolicy from './index'

function setup(config: unknown) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  const tools = kernel.getService('tools')!
  tools.register({ name: 'Bash', description: 'b', inputSchema: z.object({ command: z.string() }), sideEffects: true, execute: (a) => ({ content: `ran ${a.command}` }) })
  tools.register({ name: 'Read', description: 'r', inputSchema: z.object({ file_path: z.string() }), execute: (a) => ({ content: `read ${a.file_path}` }) })
  kernel.plugin(permissionPolicy, config)
  // Record what the policy decided: an answerer that denies and remembers it was asked.
  const asked: string[] = []
  kernel.context.on('approval/request', async (req) => (asked.push(`${req.tool}: ${req.reason}`), { outcome: 'denied' }))
  const run = async (name: string, args: Record<string, string>) => {
    const out = await tools.execute({ name, args, callId: 'c', sessionId: 's', turnId: 't', cwd: '/srv' } satisfies ToolCallRequest)
    return out.verdict.stage === 'approval' ? 'ask' : out.verdict.outcome === 'allowed' ? 'allow' : 'deny'
  }
  return { kernel, run, asked }
}

describe('permission-policy', () => {
  it.each([
    ['ask-side-effects', 'Bash', 'ask'],
    ['ask-side-effects', 'Read', 'allow'],
    ['ask-all', 'Read', 'ask'],
    ['ask-all', 'Bash', 'ask'],
    ['never-ask', 'Bash', 'allow']
  ] as const)('S10: mode %s: %s -> %s', async (mode, tool, expected) => {
    const { run } = setup({ mode })
    expect(await run(tool, tool === 'Bash' ? { command: 'ls' } : { file_path: '/srv/a' })).toBe(expected)
  })

  it('S10: the default mode asks before side effects, and says why', async () => {
    const { run, asked } = setup(undefined)
    expect(await run('Bash', { command: 'ls' })).toBe('ask')
    expect(asked).toEqual(['Bash: Bash can change files or run programs'])
  })

  it('S10: deny rules beat allow rules; allow rules skip the ask; other calls follow the mode', async () => {
    const { run } = setup({ mode: 'ask-all', allow: ['Bash(git status*)', 'Read'], deny: ['Bash(git status --ignored)', 'Read(./secrets/**)'] })
    expect(await run('Bash', { command: 'git status' })).toBe('allow')
    expect(await run('Bash', { command: 'git status --short' })).toBe('allow')
    expect(await run('Bash', { command: 'git status --ignored' })).toBe('deny')
    expect(await run('Bash', { command: 'git push' })).toBe('ask')
    expect(await run('Read', { file_path: '/srv/src/a.ts' })).toBe('allow')
    expect(await run('Read', { file_path: '/srv/secrets/key.pem' })).toBe('deny')
  })

  it('S1, S10: it never weakens what the inner chain decided (deny > ask > allow)', async () => {
    const { kernel, run } = setup({ mode: 'never-ask', allow: ['Bash'] })
    let inner: PreToolDecision = { action: 'deny', reason: 'inner says no' }
    kernel.plugin({ name: 'inner-policy', apply: (ctx) => void ctx.on('tools/pre-execute', async () => inner) })
    expect(await run('Bash', { command: 'ls' })).toBe('deny')
    inner = { action: 'ask', reason: 'inner wants to ask' }
    expect(await run('Bash', { command: 'ls' })).toBe('ask')
    inner = { action: 'allow' }
    expect(await run('Bash', { command: 'ls' })).toBe('allow')
  })

  it('S10: its deny reaches the model with the matching rule', async () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    kernel.getService('tools')!.register({ name: 'Bash', description: 'b', inputSchema: z.object({ command: z.string() }), execute: () => ({ content: 'ran' }) })
    kernel.plugin(permissionPolicy, { deny: ['Bash(rm *)'] })
    const out = await kernel.getService('tools')!.execute({ name: 'Bash', args: { command: 'rm -rf build' }, callId: 'c', sessionId: 's', cwd: '/w' })
    expect(out.result).toEqual({ content: 'Permission denied: the permission policy denies calls matching "Bash(rm *)"', isError: true, code: 'DENIED' })
    expect(out.verdict.by).toBe('permission-policy')
  })

  it('misconfiguration fails at load, naming the field', () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    expect(() => kernel.plugin(permissionPolicy, { mode: 'sometimes' })).toThrow(PluginConfigError)
    expect(() => kernel.plugin(permissionPolicy, { deny: ['Bash(unclosed'] })).toThrow(/deny\[0\]: invalid permission rule/)
  })
})
