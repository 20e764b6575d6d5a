import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Kernel, PluginConfigError, definePlugin, type Context, type LogRecord, type Next } from './index'

declare module './types' {
  interface Events {
    'test/notify': (value: number) => void
    'test/chain': (value: string, next: Next<string>) => string
    'test/async-chain': (value: number, next: Next<Promise<number>>) => Promise<number>
    'test/ask': (value: number) => Promise<string | undefined>
  }
  interface Services {
    'test/clock': { now(): number }
  }
  interface Guards {
    'test/gate': [action: string]
  }
}

function collectLogs(kernel: Kernel): LogRecord[] {
  const logs: LogRecord[] = []
  kernel.onLog((record) => logs.push(record))
  return logs
}

describe('kernel dispatch', () => {
  it('S25: emit reaches every typed listener; a throwing listener does not stop the others and is reported', () => {
    const kernel = new Kernel()
    const logs = collectLogs(kernel)
    const seen: string[] = []
    kernel.plugin({ name: 'a', apply: (ctx) => void ctx.on('test/notify', (v) => void seen.push(`a${v}`)) })
    kernel.plugin({
      name: 'thrower',
      apply: (ctx) =>
        void ctx.on('test/notify', () => {
          throw new Error('boom')
        })
    })
    kernel.plugin({ name: 'c', apply: (ctx) => void ctx.on('test/notify', (v) => void seen.push(`c${v}`)) })
    kernel.emit('test/notify', 1)
    expect(seen).toEqual(['a1', 'c1'])
    expect(logs.some((l) => l.level === 'error' && l.plugin === 'thrower' && l.message.includes('boom'))).toBe(true)
  })

  it('emit reports a rejected async listener instead of dropping it', async () => {
    const kernel = new Kernel()
    const logs = collectLogs(kernel)
    kernel.plugin({ name: 'async-thrower', apply: (ctx) => void ctx.on('test/notify', async () => Promise.reject(new Error('later'))) })
    kernel.emit('test/notify', 1)
    await new Promise((r) => setTimeout(r, 0))
    expect(logs.map((l) => l.message).join()).toContain('later')
  })

  it('S26: waterfall runs outer to inner, prepend jumps the queue, fallback ends the chain', () => {
    const kernel = new Kernel()
    const ctx = kernel.context
    ctx.on('test/chain', (v, next) => `a(${next()})`)
    ctx.on('test/chain', (v, next) => `b(${next()})`)
    ctx.on('test/chain', (v, next) => `p1(${next()})`, { prepend: true })
    ctx.on('test/chain', (v, next) => `p2(${next()})`, { prepend: true })
    expect(kernel.waterfall('test/chain', 'x', () => 'core')).toBe('p2(p1(a(b(core))))')
  })

  it('S26: not calling next short-circuits; calling next twice is an error', () => {
    const kernel = new Kernel()
    kernel.context.on('test/chain', () => 'stop')
    kernel.context.on('test/chain', () => 'never')
    expect(kernel.waterfall('test/chain', 'x', () => 'core')).toBe('stop')

    const twice = new Kernel()
    twice.plugin({ name: 'greedy', apply: (ctx) => void ctx.on('test/chain', (_v, next) => next() + next()) })
    expect(() => twice.waterfall('test/chain', 'x', () => 'core')).toThrow(/plugin "greedy" called next\(\) twice/)
  })

  it('S26: the listener list is snapshotted at dispatch', () => {
    const kernel = new Kernel()
    const ctx = kernel.context
    ctx.on('test/chain', (v, next) => {
      ctx.on('test/chain', () => 'added-late')
      return `a(${next()})`
    })
    expect(kernel.waterfall('test/chain', 'x', () => 'core')).toBe('a(core)')
  })

  it('async waterfall passes values through awaited next()', async () => {
    const kernel = new Kernel()
    kernel.context.on('test/async-chain', async (v, next) => (await next()) + 1)
    kernel.context.on('test/async-chain', async (v, next) => (await next()) * 10)
    expect(await kernel.waterfall('test/async-chain', 2, async () => 2)).toBe(21)
  })

  it('serial returns the first defined answer, in order', async () => {
    const kernel = new Kernel()
    kernel.context.on('test/ask', async () => undefined)
    kernel.context.on('test/ask', async (v) => `second:${v}`)
    kernel.context.on('test/ask', async () => 'third')
    expect(await kernel.serial('test/ask', 5)).toBe('second:5')
  })
})

describe('guards', () => {
  it('S1/S12: a deny cannot be turned into an allow by a later registration; a throwing guard denies', () => {
    const kernel = new Kernel()
    kernel.plugin({ name: 'deny-rm', apply: (ctx) => void ctx.guard('test/gate', (a) => (a.startsWith('rm') ? 'no rm' : undefined)) })
    // A later plugin that "allows" can only abstain: guards have no allow.
    kernel.plugin({ name: 'permissive', apply: (ctx) => void ctx.guard('test/gate', () => undefined) })
    expect(kernel.checkGuards('test/gate', 'rm -rf /')).toBe('no rm')
    expect(kernel.checkGuards('test/gate', 'ls')).toBeUndefined()
    kernel.plugin({
      name: 'broken',
      apply: (ctx) =>
        void ctx.guard('test/gate', () => {
          throw new Error('bad state')
        })
    })
    expect(kernel.checkGuards('test/gate', 'ls')).toMatch(/broken.*bad state/)
  })
})

describe('plugins and disposal', () => {
  it('S3/S24: disposing a plugin removes its listeners, guards, services, effects and children', () => {
    const kernel = new Kernel()
    const events: string[] = []
    const handle = kernel.plugin({
      name: 'full',
      apply(ctx: Context) {
        ctx.on('test/notify', () => void events.push('listener'))
        ctx.on('test/chain', (v, next) => `x${next()}`)
        ctx.guard('test/gate', () => 'denied')
        ctx.provide('test/clock', { now: () => 1 })
        ctx.effect(() => () => void events.push('effect disposed'))
        ctx.plugin({ name: 'child', apply: (c) => void c.on('test/notify', () => void events.push('child')) })
      }
    })
    kernel.emit('test/notify', 0)
    expect(events).toEqual(['listener', 'child'])
    handle.dispose()
    expect(events).toEqual(['listener', 'child', 'effect disposed'])
    events.length = 0
    kernel.emit('test/notify', 0)
    expect(events).toEqual([])
    expect(kernel.listenerCount('test/notify')).toBe(0)
    expect(kernel.listenerCount('test/chain')).toBe(0)
    expect(kernel.checkGuards('test/gate', 'x')).toBeUndefined()
    expect(kernel.hasService('test/clock')).toBe(false)
    expect(handle.state).toBe('disposed')
  })

  it('S24: a bad config is rejected with the plugin and the field named', () => {
    const kernel = new Kernel()
    const plugin = { name: 'sized', schema: z.object({ limits: z.object({ max: z.number() }) }), apply() {} }
    expect(() => kernel.plugin(plugin, { limits: { max: 'ten' } })).toThrow(PluginConfigError)
    expect(() => kernel.plugin(plugin, { limits: { max: 'ten' } })).toThrow(/plugin "sized" config: limits\.max: /)
    expect(kernel.plugin(plugin, { limits: { max: 10 } }).state).toBe('active')
  })

  it('S24: a plugin waits for a missing service, starts when it appears, restarts when replaced, waits when removed', () => {
    const kernel = new Kernel()
    const starts: number[] = []
    const consumer = kernel.plugin({
      name: 'consumer',
      inject: ['test/clock'],
      apply: (ctx) => void starts.push(ctx.get('test/clock').now())
    })
    expect(consumer.state).toBe('waiting')
    expect(consumer.missing).toEqual(['test/clock'])
    const first = kernel.plugin({ name: 'clock1', apply: (ctx) => void ctx.provide('test/clock', { now: () => 1 }) })
    expect(consumer.state).toBe('active')
    kernel.plugin({ name: 'clock2', apply: (ctx) => void ctx.provide('test/clock', { now: () => 2 }) })
    expect(starts).toEqual([1, 2])
    first.dispose() // clock1 no longer owns the service: nothing changes for the consumer
    expect(starts).toEqual([1, 2])
    kernel.dispose()
    expect(consumer.state).toBe('disposed')
  })

  it('a restarted plugin dispatches its listeners in the same place as before', () => {
    const kernel = new Kernel()
    const order: string[] = []
    kernel.plugin({ name: 'first', apply: (ctx) => void ctx.on('test/notify', () => void order.push('first')) })
    const middle = kernel.plugin({ name: 'middle', apply: (ctx) => void ctx.on('test/notify', () => void order.push('middle')) })
    kernel.plugin({ name: 'last', apply: (ctx) => void ctx.on('test/notify', () => void order.push('last')) })
    middle.restart()
    kernel.emit('test/notify', 0)
    expect(order).toEqual(['first', 'middle', 'last'])
  })

  it('a plugin whose apply throws is failed, reported, and leaves nothing registered', () => {
    const kernel = new Kernel()
    const logs = collectLogs(kernel)
    const handle = kernel.plugin({
      name: 'half',
      apply(ctx) {
        ctx.on('test/notify', () => {})
        throw new Error('cannot start')
      }
    })
    expect(handle.state).toBe('failed')
    expect(handle.error?.message).toBe('cannot start')
    expect(kernel.listenerCount('test/notify')).toBe(0)
    expect(logs.some((l) => l.plugin === 'half' && l.message.includes('cannot start'))).toBe(true)
  })

  it('update() validates the new config and restarts with it', () => {
    const kernel = new Kernel()
    const seen: number[] = []
    const handle = kernel.plugin(definePlugin({ name: 'cfg', schema: z.object({ n: z.number() }), apply: (_ctx, c) => void seen.push(c.n) }), { n: 1 })
    handle.update({ n: 2 })
    expect(() => handle.update({ n: 'x' })).toThrow(/cfg.*n:/)
    expect(seen).toEqual([1, 2])
    expect(handle.state).toBe('active')
  })
})
