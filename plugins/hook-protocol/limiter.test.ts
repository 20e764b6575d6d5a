// HookLimiter: a cap on hooks running at once; excess runs wait in FIFO order and never fail.
import { describe, it, expect } from 'vitest'
import { HookLimiter, sharedHookLimiter } from './limiter'
import { runCommandHook } from './runner'

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('HookLimiter', () => {
  it('never exceeds max with real hook processes, and runs them all', async () => {
    const limiter = new HookLimiter(3)
    let observedMax = 0
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        limiter.run(async () => {
          observedMax = Math.max(observedMax, limiter.active)
          return runCommandHook({ command: `sleep 0.05; echo ${i}`, stdin: '{}' })
        })
      )
    )
    // Each run's whole result on failure: one run differed once at load 13, and its stdout alone did not say how.
    expect(results.map((r) => r.stdout.trim()), JSON.stringify(results.map(({ stdout, stderr, exitCode, signal, failure, errorMessage, durationMs }) => ({ stdout, stderr, exitCode, signal, failure, errorMessage, durationMs })))).toEqual(Array.from({ length: 10 }, (_, i) => String(i)))
    expect(observedMax).toBeLessThanOrEqual(3)
    expect(limiter.peak).toBe(3)
    expect(limiter.active).toBe(0)
    expect(limiter.waiting).toBe(0)
  })

  it('starts waiters in FIFO order', async () => {
    const limiter = new HookLimiter(1)
    const gate = deferred()
    const started: number[] = []
    const first = limiter.run(() => gate.promise)
    const rest = [1, 2, 3].map((n) => limiter.run(async () => void started.push(n)))
    expect(limiter.waiting).toBe(3)
    gate.resolve()
    await Promise.all([first, ...rest])
    expect(started).toEqual([1, 2, 3])
  })

  it('a failing run releases its slot and the error reaches only its caller', async () => {
    const limiter = new HookLimiter(1)
    const failing = limiter.run(() => {
      throw new Error('boom')
    })
    const next = limiter.run(async () => 'ok')
    await expect(failing).rejects.toThrow('boom')
    await expect(next).resolves.toBe('ok')
    expect(limiter.active).toBe(0)
  })

  it('setMax raises the cap for waiting runs at once and never interrupts running ones', async () => {
    const limiter = new HookLimiter(1)
    const gates = [deferred(), deferred(), deferred()]
    const runs = gates.map((gate) => limiter.run(() => gate.promise))
    expect([limiter.active, limiter.waiting]).toEqual([1, 2])
    limiter.setMax(3)
    expect([limiter.active, limiter.waiting]).toEqual([3, 0])
    limiter.setMax(1)
    expect(limiter.active).toBe(3)
    const late = limiter.run(async () => 'late')
    expect(limiter.waiting).toBe(1)
    gates.forEach((gate) => gate.resolve())
    await Promise.all(runs)
    await expect(late).resolves.toBe('late')
    expect(limiter.peak).toBe(3)
  })

  it('rejects a max below 1 or not an integer', () => {
    expect(() => new HookLimiter(0)).toThrow(RangeError)
    expect(() => new HookLimiter(1.5)).toThrow(/max must be an integer/)
    expect(() => new HookLimiter(2).setMax(-1)).toThrow(RangeError)
  })
})

describe('sharedHookLimiter', () => {
  it('gives every bridge of one host the same limiter, so the cap counts all their hooks together', async () => {
    const host = {}
    const claude = sharedHookLimiter(host, 2)
    const codex = sharedHookLimiter(host, 2)
    expect(codex).toBe(claude)
    expect(sharedHookLimiter({}, 2)).not.toBe(claude)
    const release: Array<() => void> = []
    const hold = () => new Promise<void>((resolve) => release.push(resolve))
    const runs = [claude.run(hold), codex.run(hold), claude.run(hold)]
    await new Promise((r) => setTimeout(r, 10))
    expect(claude.active).toBe(2)
    expect(claude.waiting).toBe(1)
    while (release.length) release.shift()!()
    await new Promise((r) => setTimeout(r, 10))
    while (release.length) release.shift()!()
    await Promise.all(runs)
    expect(claude.peak).toBe(2)
    expect(sharedHookLimiter(host, 5).limit).toBe(5)
  })
})
