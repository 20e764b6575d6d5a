// The store's read-modify-writes against another Seam process changing the same files at the same
// time: a real process that takes the store's lock as Seam does, reads, waits, and writes.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PluginStore, type InstalledRecord, type KnownMarketplace } from './store'

let home: string
let store: PluginStore
const others: ChildProcess[] = []

beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'seam-plugin-store-'))
  store = new PluginStore(home)
})

afterEach(() => {
  for (const other of others.splice(0)) other.kill('SIGKILL')
  rmSync(home, { recursive: true, force: true })
})

function record(name: string): InstalledRecord {
  return { name, marketplace: 'm', version: '1.0.0', installPath: `/plugins/${name}`, contentHash: 'h', installedAt: 'now', lastUpdated: 'now', source: './p' }
}

/**
 * Another Seam process adding `key: value` to `file`'s `field` (or to the file itself): it holds
 * the store's lock while it reads, waits `holdMs`, and writes. Resolves once it has read.
 */
async function otherProcessAdding(file: string, field: string | undefined, key: string, value: unknown, holdMs: number): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs')
    const [lock, file, field, key, value, holdMs] = process.argv.slice(1)
    fs.mkdirSync(require('node:path').dirname(lock), { recursive: true })
    fs.writeFileSync(lock, process.pid + '\\n', { flag: 'wx' })
    const data = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : (field ? { version: 1, [field]: {} } : {})
    process.stdout.write('read\\n')
    setTimeout(() => {
      ;(field ? data[field] : data)[key] = JSON.parse(value)
      fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\\n')
      fs.rmSync(lock)
    }, Number(holdMs))`
  const other = spawn(process.execPath, ['-e', script, store.lockFile, file, field ?? '', key, JSON.stringify(value), String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] })
  others.push(other)
  await new Promise<void>((resolve, reject) => {
    other.stdout!.once('data', () => resolve())
    other.once('exit', (code) => reject(new Error(`the other process exited (${code}) before reading`)))
  })
  return other
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
