// The tool-timeout wrapper (S13) on a real kernel with the real tools plugin.
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import type { ToolCallRequest, ToolDefinition } from '@seam/sdk'
import { Kernel, PluginConfigError } from '@seam/sdk'
import { toolsPlugin } from '@seam/sdk/testing'
import toolTimeout from './index'

function setup(config: unknown) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  kernel.plugin(toolTimeout, config)
  return { kernel, tools: kernel.getService('tools')! }
}

function request(name: string, args: unknown, signal?: AbortSignal): ToolCallRequest {
  return { name, args, callId: 'c', sessionId: 's', cwd: '/', signal }
}

function tool(name: string, execute: ToolDefinition<{ timeout?: number }>['execute'], timeoutMs?: number): ToolDefinition<{ timeout?: number }> {
  return { name, description: name, inputSchema: z.object({ timeout: z.number().optional() }), execute, timeoutMs }
}

describe('tool-timeout', () => {
  it('a cancelled call leaves no deadline timer behind, even when its tool never settles', async () => {
    // Fake timers count only the timers this test's code sets: the process's own count also holds
    // whatever else the worker runs meanwhile (a run once saw it go from 1 to 81 in these 20 ms).
    vi.useFakeTimers()
    try {
      const kernel = new Kernel()
      kernel.plugin(toolsPlugin, { abandonAfterCancelMs: 10 })
      kernel.plugin(toolTimeout, { defaultTimeoutMs: 600_000 })
      const tools = kernel.getService('tools')!
      tools.register(tool('Stuck', () => new Promise(() => {})))
      const timersBefore = vi.getTimerCount()
      const controller = new AbortController()
      const pending = tools.execute(request('Stuck', {}, controller.signal))
      await vi.advanceTimersByTimeAsync(10)
      expect(vi.getTimerCount()).toBeGreaterThan(timersBefore) // the deadline is set while the call runs
      controller.abort()
      await vi.advanceTimersByTimeAsync(10)
      expect((await pending).result.code).toBe('CANCELLED')
      expect(vi.getTimerCount()).toBe(timersBefore)
    } finally {
      vi.useRealTimers()
    }
  })

  it('S13: a tool that ignores its signal is abandoned at the deadline with a TIMEOUT result', async () => {
    const { tools } = setup({ defaultTimeoutMs: 40, graceMs: 0 })
    let signal: AbortSignal | undefined
    tools.register(tool('Stuck', (_args, exec) => ((signal = exec.signal), new Promise(() => {}))))
    const started = Date.now()
    const out = await tools.execute(request('Stuck', {}))
    expect(out.result).toEqual({ isError: true, code: 'TIMEOUT', content: 'Tool Stuck timed out after 40 ms' })
    expect(signal?.aborted).toBe(true)
    expect((signal?.reason as DOMException).name).toBe('TimeoutError')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('S13: a tool that stops on the signal within the grace keeps what it returned, marked TIMEOUT', async () => {
    const { tools } = setup({ defaultTimeoutMs: 30, graceMs: 5_000 })
    tools.register(
      tool('Polite', (_args, exec) => new Promise((resolve) => exec.signal.addEventListener('abort', () => resolve({ content: 'partial output', structured: { lines: 3 } }))))
    )
    const out = await tools.execute(request('Polite', {}))
    expect(out.result).toEqual({ isError: true, code: 'TIMEOUT', content: 'Tool Polite timed out after 30 ms. What it returned when stopped:\npartial output', structured: { lines: 3 } })
  })

  it("S13: the deadline is the call's timeout arg (capped by maxTimeoutMs), else the tool's timeoutMs, else the default", async () => {
    const { tools } = setup({ defaultTimeoutMs: 10_000, maxTimeoutMs: 25, graceMs: 0 })
    tools.register(tool('Own', () => new Promise(() => {}), 20))
    tools.register(tool('Fast', async () => ({ content: 'done' }), 20))
    expect((await tools.execute(request('Own', {}))).result.content).toBe('Tool Own timed out after 20 ms')
    expect((await tools.execute(request('Own', { timeout: 60_000 }))).result.content).toBe('Tool Own timed out after 25 ms')
    expect((await tools.execute(request('Own', { timeout: 5 }))).result.content).toBe('Tool Own timed out after 5 ms')
    expect((await tools.execute(request('Fast', {}))).result).toEqual({ content: 'done', isError: false })
  })

  it('S13: the tool sees one signal combining the caller\'s abort and the deadline', async () => {
    const { tools } = setup({ defaultTimeoutMs: 60_000 })
    const controller = new AbortController()
    tools.register(
      tool('Cancellable', (_args, exec) => {
        setTimeout(() => controller.abort(), 5)
        return new Promise((resolve) => exec.signal.addEventListener('abort', () => resolve({ content: 'stopped by caller', isError: true })))
      })
    )
    const out = await tools.execute(request('Cancellable', {}, controller.signal))
    expect(out.result).toEqual({ content: 'stopped by caller', isError: true })
  })

  it('S13: a tool that ends its own run at its deadline (endsAtOwnDeadline, Bash) is not raced: the wrapper backstops it ownDeadlineSlackMs later', async () => {
    const { tools } = setup({ defaultTimeoutMs: 10_000, graceMs: 0, ownDeadlineSlackMs: 200 })
    tools.register({
      ...tool('SelfTimed', (args, exec) => new Promise((resolve) => setTimeout(() => resolve({ content: exec.signal.aborted ? 'aborted' : 'moved on at my own deadline' }), args.timeout))),
      endsAtOwnDeadline: true
    })
    tools.register({ ...tool('Stuck', () => new Promise(() => {})), endsAtOwnDeadline: true })
    expect((await tools.execute(request('SelfTimed', { timeout: 30 }))).result).toEqual({ content: 'moved on at my own deadline', isError: false })
    expect((await tools.execute(request('Stuck', { timeout: 30 }))).result.content).toBe('Tool Stuck timed out after 230 ms')
  })

  it('misconfiguration fails at load, naming the field', () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    expect(() => kernel.plugin(toolTimeout, { defaultTimeoutMs: -5 })).toThrow(PluginConfigError)
    expect(() => kernel.plugin(toolTimeout, { defaultTimeoutMs: -5 })).toThrow(/defaultTimeoutMs/)
  })
})
