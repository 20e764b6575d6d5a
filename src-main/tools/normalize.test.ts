// JSON materialization at the normalization boundary (S16): lossless or a failure naming the path.
import { describe, expect, it } from 'vitest'
import { materializeJson } from './normalize'

class Point {
  constructor(
    readonly x: number,
    readonly y: number
  ) {}
}

describe('materializeJson', () => {
  it('S16: copies plain JSON deeply and freezes the copy', () => {
    const input = { a: [1, { b: 'c' }], d: null, e: true }
    const out = materializeJson(input)
    expect(out).toEqual({ ok: true, value: input })
    if (!out.ok) return
    expect(out.value).not.toBe(input)
    expect(Object.isFrozen((out.value as { a: object[] }).a[1])).toBe(true)
  })

  it.each([
    ['NaN', { n: NaN }, 'n', 'not a JSON number'],
    ['Infinity', [Infinity], '[0]', 'not a JSON number'],
    ['a hole', { list: [1, , 3] }, 'list[1]', 'hole'],
    ['a class instance', { p: new Point(1, 2) }, 'p', 'a Point is not a plain JSON object'],
    ['a Map', { m: new Map() }, 'm', 'a Map'],
    ['a getter that throws', { get bad() { throw new Error('no peeking') } }, 'bad', 'no peeking'],
    ['a deep nest', JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`), '', 'nested deeper']
  ])('S16: %s is refused, naming the path', (_label, value, path, problem) => {
    const out = materializeJson(value)
    expect(out.ok).toBe(false)
    if (out.ok) return
    if (path) expect(out.path).toBe(path)
    expect(out.problem).toContain(problem)
  })

  it('keeps "__proto__" as an ordinary key instead of setting the prototype', () => {
    const out = materializeJson(JSON.parse('{"__proto__":{"polluted":true}}'))
    expect(out.ok).toBe(true)
    if (!out.ok) return
    expect(Object.getPrototypeOf(out.value)).toBe(Object.prototype)
    expect(Object.keys(out.value as object)).toEqual(['__proto__'])
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
  })

  it('shared (acyclic) references are fine; only a cycle fails', () => {
    const shared = { x: 1 }
    expect(materializeJson({ a: shared, b: [shared, shared] })).toEqual({ ok: true, value: { a: { x: 1 }, b: [{ x: 1 }, { x: 1 }] } })
  })
})
