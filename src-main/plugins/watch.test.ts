import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { definePlugin, Kernel, type Plugin } from '../../src-shared/kernel'
import { composeProfile } from './compose'
import { loadLayers, type LayerSources } from './layers'
import { ProfileLoader, type ReloadSummary } from './loader'
import type { CatalogEntry, ComposedEntry, PluginCatalog, ProfileEntry } from './profile'
import { watchPatchFiles, watchProfile } from './watch'

let tmp: string
const stops: (() => void)[] = []

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'seam-watch-'))
})
afterEach(async () => {
  for (const stop of stops.splice(0)) stop()
  await rm(tmp, { recursive: true, force: true })
})

/** Polls until `check` passes; the failure names what was being waited for. */
async function waitFor(what: string, check: () => boolean, limitMs = 8000): Promise<void> {
  const start = Date.now()
  while (!check()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('watchPatchFiles', () => {
  it('reports writes, atomic replaces (editor style), deletions, and a file whose folder appears later', async () => {
    const home = path.join(tmp, 'home')
    await mkdir(home)
    const file = path.join(home, 'cordis.patch.yml')
    const late = path.join(tmp, 'ws', '.seam', 'cordis.patch.yml')
    let changes = 0
    const stop = watchPatchFiles([file, late], () => changes++, { debounceMs: 30 })
    stops.push(stop)
    await stop.ready

    await writeFile(file, 'a')
    await waitFor('a change after writing the file', () => changes >= 1)

    let seen = changes
    await writeFile(path.join(home, '.cordis.patch.yml.swp'), 'x')
    await writeFile(path.join(home, 'cordis.patch.yml.tmp'), 'b')
    await rename(path.join(home, 'cordis.patch.yml.tmp'), file)
    await waitFor('a change after replacing the file by rename', () => changes > seen)

    seen = changes
    await rm(file)
    await waitFor('a change after deleting the file', () => changes > seen)

    seen = changes
    await mkdir(path.dirname(late), { recursive: true })
    // Creating the folder is itself reported, after the watch has moved down into it.
    await waitFor('a change after creating the folder', () => changes > seen)
    seen = changes
    await writeFile(late, 'c')
    await waitFor('a change in a folder created after the watch started', () => changes > seen)
  })
})

/** Saves the way many editors do (write beside, then rename over), so no half-written file is ever seen. */
async function save(file: string, text: string): Promise<void> {
  const temp = `${file}.${Math.random().toString(36).slice(2)}.tmp`
  await writeFile(temp, text)
  await rename(temp, file)
}

describe('watchProfile', () => {
  it('recomposes and reloads on edit, keeps the last good tree on a bad edit, and recovers', async () => {
    const seamHome = path.join(tmp, 'home')
    await mkdir(seamHome)
    const patchFile = path.join(seamHome, 'cordis.patch.yml')
    const applies: Record<string, number> = { a: 0, b: 0 }
    const make = (name: string) => definePlugin({ name, apply: () => void applies[name]++ })
    const catalog: PluginCatalog = new Map<string, CatalogEntry>([
      ['builtin:a', { plugin: make('a') as Plugin, source: 'builtin' }],
      ['builtin:b', { plugin: make('b') as Plugin, source: 'builtin' }]
    ])
    const base: ProfileEntry[] = [
      { id: 'a', plugin: 'builtin:a' },
      { id: 'b', plugin: 'builtin:b' }
    ]
    const sources: LayerSources = { seamHome, trusted: false }
    const layers = await loadLayers(sources)
    const loader = new ProfileLoader(new Kernel(), catalog, composeProfile(base, layers, catalog))
    const reloads: { entries: ComposedEntry[]; summary: ReloadSummary }[] = []
    const errors: Error[] = []
    const stop = watchProfile({
        sources,
        base,
        catalog: () => catalog,
        loader,
        layers,
        debounceMs: 30,
        onReload: (entries, summary) => reloads.push({ entries, summary }),
        onError: (error) => errors.push(error)
      })
    stops.push(stop)
    await stop.ready

    await save(patchFile, '- id: b\n  disabled: true\n')
    await waitFor('the reload that disables b', () => reloads.length === 1)
    expect(reloads[0].summary).toMatchObject({ disposed: ['b'], unchanged: ['a'] })
    expect(loader.states().map((s) => s.state)).toEqual(['active', 'disabled'])

    await save(patchFile, '- id: b\n  disabled: true\n- id: nope\n  remove: true\n')
    await waitFor('the error from the bad edit', () => errors.length === 1)
    expect(errors[0].message).toBe(`${patchFile}:3: row 2: unknown id "nope" (known ids: a, b)`)
    expect(reloads.length).toBe(1)
    expect(loader.states().map((s) => s.state)).toEqual(['active', 'disabled'])

    await save(patchFile, '- id: b\n  disabled: [oops\n')
    await waitFor('the error from malformed YAML', () => errors.length === 2)
    expect(errors[1].message).toMatch(/cordis\.patch\.yml:\d+: invalid YAML/)

    await rm(patchFile)
    await waitFor('the reload after the patch file is deleted', () => reloads.length === 2)
    expect(loader.states().map((s) => s.state)).toEqual(['active', 'active'])
    expect(applies).toEqual({ a: 1, b: 2 })
  })
})
