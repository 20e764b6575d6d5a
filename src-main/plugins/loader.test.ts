import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { definePlugin, Kernel, type Plugin } from '../../src-shared/kernel'
import { ProfileLoader } from './loader'
import type { CatalogEntry, PluginCatalog, ProfileEntry } from './profile'

declare module '../../src-shared/kernel/types' {
  interface Services {
    'loader-test/clock': { now(): number }
  }
}

interface Counts {
  applies: number
  disposes: number
  configs: unknown[]
}

/** A catalog of plugins that count their applies and disposals, and record the order they ran in. */
function countingCatalog(names: string[]) {
  const counts = new Map<string, Counts>()
  const order: string[] = []
  const entries = new Map<string, CatalogEntry>()
  for (const name of names) {
    const count: Counts = { applies: 0, disposes: 0, configs: [] }
    counts.set(name, count)
    const plugin = definePlugin({
      name,
      schema: z.object({ level: z.number() }).optional(),
      apply: (ctx, config) => {
        count.applies++
        count.configs.push(config)
        order.push(name)
        ctx.onDispose(() => void count.disposes++)
      }
    })
    entries.set(`builtin:${name}`, { plugin: plugin as Plugin, source: 'builtin' })
  }
  return { catalog: entries as PluginCatalog, counts, order, get: (name: string) => counts.get(name)! }
}

const entry = (id: string, plugin = id, extra: Partial<ProfileEntry> = {}): ProfileEntry => ({ id, plugin: `builtin:${plugin}`, ...extra })

function appliesOf(counts: Map<string, Counts>): Record<string, [number, number]> {
  return Object.fromEntries([...counts].map(([name, c]) => [name, [c.applies, c.disposes]]))
}

describe('ProfileLoader', () => {
  it('applies enabled entries in profile order and reports their states', () => {
    const { catalog, order } = countingCatalog(['a', 'b', 'c'])
    const loader = new ProfileLoader(new Kernel(), catalog, [entry('c'), entry('a', 'a', { disabled: true }), entry('b', 'b', { config: { level: 1 } })])
    expect(order).toEqual(['c', 'b'])
    expect(loader.states()).toEqual([
      { id: 'c', plugin: 'builtin:c', state: 'active', missing: [] },
      { id: 'a', plugin: 'builtin:a', state: 'disabled', missing: [] },
      { id: 'b', plugin: 'builtin:b', state: 'active', missing: [] }
    ])
  })

  it('reports waiting (with the missing service) and failed (with the error) entries', () => {
    const kernel = new Kernel()
    kernel.onLog(() => {})
    const needy = definePlugin({ name: 'needy', inject: ['loader-test/clock'], apply: () => {} })
    const broken = definePlugin({
      name: 'broken',
      apply: () => {
        throw new Error('cannot start')
      }
    })
    const picky = definePlugin({ name: 'picky', schema: z.object({ n: z.number() }), apply: () => {} })
    const catalog: PluginCatalog = new Map<string, CatalogEntry>([
      ['builtin:needy', { plugin: needy as Plugin, source: 'builtin' }],
      ['builtin:broken', { plugin: broken as Plugin, source: 'builtin' }],
      ['builtin:picky', { plugin: picky as Plugin, source: 'builtin' }]
    ])
    const loader = new ProfileLoader(kernel, catalog, [entry('needy'), entry('broken'), entry('picky', 'picky', { config: { n: 'x' } }), entry('ghost')])
    const states = loader.states()
    expect(states[0]).toEqual({ id: 'needy', plugin: 'builtin:needy', state: 'waiting', missing: ['loader-test/clock'] })
    expect(states[1]).toMatchObject({ id: 'broken', state: 'failed', error: 'cannot start' })
    expect(states[2]).toMatchObject({ id: 'picky', state: 'failed', error: expect.stringMatching(/config: n:/) })
    expect(states[3]).toMatchObject({ id: 'ghost', state: 'failed', error: 'plugin "builtin:ghost" is not in the catalog' })
    kernel.plugin({ name: 'clock', apply: (ctx) => void ctx.provide('loader-test/clock', { now: () => 1 }) })
    expect(loader.states()[0]).toEqual({ id: 'needy', plugin: 'builtin:needy', state: 'active', missing: [] })
  })

  it('a reload with the same tree touches nothing', () => {
    const { catalog, counts } = countingCatalog(['a', 'b'])
    const profile = [entry('a', 'a', { config: { level: 1 } }), entry('b')]
    const loader = new ProfileLoader(new Kernel(), catalog, profile)
    const summary = loader.reload(structuredClone(profile))
    expect(summary).toEqual({ applied: [], updated: [], disposed: [], unchanged: ['a', 'b'] })
    expect(appliesOf(counts)).toEqual({ a: [1, 0], b: [1, 0] })
  })

  it('a config change restarts only that entry, in place, with the new config', () => {
    const { catalog, counts, get } = countingCatalog(['a', 'b', 'c'])
    const loader = new ProfileLoader(new Kernel(), catalog, [entry('a'), entry('b', 'b', { config: { level: 1 } }), entry('c')])
    const handle = loader.handle('b')
    const summary = loader.reload([entry('a'), entry('b', 'b', { config: { level: 2 } }), entry('c')])
    expect(summary.updated).toEqual(['b'])
    expect(appliesOf(counts)).toEqual({ a: [1, 0], b: [2, 1], c: [1, 0] })
    expect(get('b').configs).toEqual([{ level: 1 }, { level: 2 }])
    expect(loader.handle('b')).toBe(handle)
  })

  it('disable, enable, remove and insert touch only the entries concerned', () => {
    const { catalog, counts } = countingCatalog(['a', 'b', 'c', 'd'])
    const loader = new ProfileLoader(new Kernel(), catalog, [entry('a'), entry('b'), entry('c')])

    loader.reload([entry('a'), entry('b', 'b', { disabled: true }), entry('c')])
    expect(appliesOf(counts)).toEqual({ a: [1, 0], b: [1, 1], c: [1, 0], d: [0, 0] })
    expect(loader.states().map((s) => s.state)).toEqual(['active', 'disabled', 'active'])

    loader.reload([entry('a'), entry('b'), entry('c')])
    expect(appliesOf(counts)).toEqual({ a: [1, 0], b: [2, 1], c: [1, 0], d: [0, 0] })

    loader.reload([entry('a'), entry('b'), entry('d'), entry('c')])
    expect(appliesOf(counts)).toEqual({ a: [1, 0], b: [2, 1], c: [1, 0], d: [1, 0] })

    const summary = loader.reload([entry('b'), entry('d'), entry('c')])
    expect(summary).toEqual({ applied: [], updated: [], disposed: ['a'], unchanged: ['b', 'd', 'c'] })
    expect(appliesOf(counts)).toEqual({ a: [1, 1], b: [2, 1], c: [1, 0], d: [1, 0] })
  })

  it('a moved entry and a swapped plugin are re-applied; the rest stay', () => {
    const { catalog, counts } = countingCatalog(['a', 'b', 'c', 'x'])
    const loader = new ProfileLoader(new Kernel(), catalog, [entry('a'), entry('b'), entry('c')])
    const moved = loader.reload([entry('b'), entry('c'), entry('a')])
    expect(moved).toMatchObject({ applied: ['a'], disposed: ['a'], unchanged: ['b', 'c'] })
    const swapped = loader.reload([entry('b'), entry('c', 'x'), entry('a')])
    expect(swapped).toMatchObject({ applied: ['c'], disposed: ['c'], unchanged: ['b', 'a'] })
    expect(appliesOf(counts)).toEqual({ a: [2, 1], b: [1, 0], c: [1, 1], x: [1, 0] })
  })

  it('picks up a new catalog: an entry whose plugin was missing starts once it appears', () => {
    const first = countingCatalog(['a'])
    const loader = new ProfileLoader(new Kernel(), first.catalog, [entry('a'), entry('late')])
    expect(loader.states()[1].state).toBe('failed')
    const later = countingCatalog(['late'])
    const catalog = new Map([...first.catalog, ...later.catalog])
    loader.reload([entry('a'), entry('late')], catalog)
    expect(loader.states().map((s) => s.state)).toEqual(['active', 'active'])
    expect(appliesOf(first.counts)).toEqual({ a: [1, 0] })
    expect(appliesOf(later.counts)).toEqual({ late: [1, 0] })
  })

  it('dispose removes every applied entry', () => {
    const { catalog, counts } = countingCatalog(['a', 'b'])
    const loader = new ProfileLoader(new Kernel(), catalog, [entry('a'), entry('b')])
    loader.dispose()
    expect(appliesOf(counts)).toEqual({ a: [1, 1], b: [1, 1] })
    expect(loader.states().map((s) => s.state)).toEqual(['disabled', 'disabled'])
  })
})
