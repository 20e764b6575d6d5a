// The update channel (issue 30): off by default, never in development, and a failing feed
// (none in the package, offline) is logged without stopping the app. electron-updater is the
// edge here: a stand-in with its two methods plays it.
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { SeamSettingsSchema } from '../app/settings'
import { startUpdates } from './updates'

function updater(check: () => Promise<unknown>) {
  const events = new EventEmitter()
  const calls: string[] = []
  return {
    calls,
    emit: (error: Error) => events.emit('error', error),
    load: async () => ({
      checkForUpdatesAndNotify: async () => {
        calls.push('check')
        return (await check()) as null
      },
      on(event: string, listener: (...args: unknown[]) => void) {
        events.on(event, listener)
        return this as never
      }
    })
  }
}

describe('desktop updates (issue 30)', () => {
  it('are off by default: the setting defaults to false and nothing is loaded', async () => {
    expect(SeamSettingsSchema.parse({}).autoUpdate).toBe(false)
    const fake = updater(async () => null)
    expect(await startUpdates({ enabled: false, packaged: true, log: () => {}, load: fake.load })).toBe('off')
    expect(fake.calls).toEqual([])
  })

  it('check the feed when turned on in a packaged build; not in development', async () => {
    const fake = updater(async () => null)
    const logged: string[] = []
    expect(await startUpdates({ enabled: true, packaged: false, log: (m) => logged.push(m), load: fake.load })).toBe('development')
    expect(fake.calls).toEqual([])
    expect(await startUpdates({ enabled: true, packaged: true, log: (m) => logged.push(m), load: fake.load })).toBe('checking')
    expect(fake.calls).toEqual(['check'])
  })

  it('log a package without a feed, or a later download error, and carry on', async () => {
    const logged: string[] = []
    const fake = updater(async () => {
      throw new Error("ENOENT: no such file or directory, open '/opt/Seam/resources/app-update.yml'")
    })
    expect(await startUpdates({ enabled: true, packaged: true, log: (m, e) => logged.push(`${m}: ${(e as Error).message}`), load: fake.load })).toBe('failed')
    expect(logged[0]).toContain('app-update.yml')
    const later = updater(async () => null)
    await startUpdates({ enabled: true, packaged: true, log: (m, e) => logged.push(`${m}: ${(e as Error).message}`), load: later.load })
    later.emit(new Error('net::ERR_INTERNET_DISCONNECTED'))
    expect(logged.at(-1)).toBe('updates: the check failed: net::ERR_INTERNET_DISCONNECTED')
  })
})
