// The store's read-modify-writes against another Seam process changing the same files at the same
// time: a real process that takes the store's lock as Seam does, reads, waits, and writes.
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { anotherProcessHolding } from '../../test-support/lock-holder'
import { PluginStore, type InstalledRecord, type KnownMarketplace } from './store'

let home: string
let store: PluginStore

beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'seam-plugin-store-'))
  store = new PluginStore(home)
})

afterEach(() => rmSync(home, { recursive: true, force: true }))

function record(name: string): InstalledRecord {
  return { name, marketplace: 'm', version: '1.0.0', installPath: `/plugins/${name}`, contentHash: 'h', installedAt: 'now', lastUpdated: 'now', source: './p' }
}

/**
 * Another Seam process adding `key: value` to `file`'s `field` (or to the file itself): it holds
 * the store's lock while it reads, waits `holdMs`, and writes. Resolves once it has read.
 */
function otherProcessAdding(file: string, field: string | undefined, key: string, value: unknown, holdMs: number): Promise<ChildProcess> {
  return anotherProcessHolding(store.lockFile, {
    holdMs,
    args: [file, field ?? '', key, JSON.stringify(value)],
    onTake: "const [file, field] = args; const data = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : field ? { version: 1, [field]: {} } : {}",
    onRelease: "(field ? data[field] : data)[args[2]] = JSON.parse(args[3]); fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\\n')"
  })
}

describe('the Claude Code plugin store, changed by two processes at once', () => {
  it('an install written while another process writes its own keeps both', async () => {
    store.updateInstalled(() => ({ 'first@m': record('first') }))
    await otherProcessAdding(store.installedFile, 'plugins', 'theirs@m', record('theirs'), 300)
    store.updateInstalled((installed) => ({ ...installed, 'mine@m': record('mine') }))
    expect(Object.keys(store.installed()).sort()).toEqual(['first@m', 'mine@m', 'theirs@m'])
    expect(existsSync(store.lockFile)).toBe(false)
  })

  it('a marketplace added while another process adds one keeps both', async () => {
    const known = (name: string): KnownMarketplace => ({ source: { source: 'directory', path: `/m/${name}` }, installLocation: `/m/${name}`, lastUpdated: 'now' })
    await otherProcessAdding(store.marketplacesFile, undefined, 'theirs', known('theirs'), 300)
    store.updateMarketplaces((current) => ({ ...current, mine: known('mine') }))
    expect(Object.keys(store.marketplaces()).sort()).toEqual(['mine', 'theirs'])
  })

  it('a change that throws writes nothing and lets the lock go', () => {
    store.updateInstalled(() => ({ 'first@m': record('first') }))
    const before = readFileSync(store.installedFile, 'utf8')
    expect(() =>
      store.updateInstalled(() => {
        throw new Error('not installed')
      })
    ).toThrow('not installed')
    expect(readFileSync(store.installedFile, 'utf8')).toBe(before)
    expect(readdirSync(store.dir)).toEqual(['installed_plugins.json'])
  })
})
