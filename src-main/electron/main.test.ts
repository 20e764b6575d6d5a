// The desktop entry's start-up order, with Electron mocked: the userData override comes before
// the single-instance lock, a second instance quits, and a missing preload stops at once with a
// clear message (here the preload is absent: main.ts runs from src-main/, not out/main/).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

type Fake = typeof import('./fake-electron')
let guardsBefore: { exception: Function[]; rejection: Function[] }

/** The fake main.ts gets as `electron`, reset; main.ts itself is imported afresh per test. */
async function fresh(): Promise<Fake> {
  const fake = (await import('electron')) as unknown as Fake
  fake.app.calls.length = 0
  fake.app.paths.clear()
  fake.app.lockGranted = true
  fake.app.ready = false
  fake.protocol.privileged.length = 0
  fake.dialog.errorBoxes.length = 0
  return fake
}

beforeEach(() => {
  vi.resetModules()
  guardsBefore = { exception: process.listeners('uncaughtException'), rejection: process.listeners('unhandledRejection') }
  vi.spyOn(console, 'error').mockImplementation(() => {})
})

afterEach(() => {
  // main.ts installs process-wide guards; leave the test runner's own handlers alone.
  for (const listener of process.listeners('uncaughtException')) if (!guardsBefore.exception.includes(listener)) process.off('uncaughtException', listener as never)
  for (const listener of process.listeners('unhandledRejection')) if (!guardsBefore.rejection.includes(listener)) process.off('unhandledRejection', listener as never)
  delete process.env.SEAM_ELECTRON_USER_DATA
  vi.restoreAllMocks()
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('desktop entry (main.ts)', () => {
  it('sets userData from SEAM_ELECTRON_USER_DATA before taking the single-instance lock', async () => {
    process.env.SEAM_ELECTRON_USER_DATA = '/tmp/seam-e2e-profile'
    const { app } = await fresh()
    await import('./main')
    await settle()
    expect(app.paths.get('userData')).toBe('/tmp/seam-e2e-profile')
    expect(app.calls.indexOf('setPath:userData')).toBeLessThan(app.calls.indexOf('requestSingleInstanceLock'))
  })

  it('refuses a relative SEAM_ELECTRON_USER_DATA without taking the lock', async () => {
    process.env.SEAM_ELECTRON_USER_DATA = 'relative/profile'
    const { app } = await fresh()
    await import('./main')
    await settle()
    expect(app.calls).toContain('exit:1')
    expect(app.calls).not.toContain('requestSingleInstanceLock')
  })

  it('a second instance quits without starting a Host', async () => {
    const { app } = await fresh()
    app.lockGranted = false
    await import('./main')
    await settle()
    expect(app.calls).toContain('quit')
    expect(app.calls).not.toContain('whenReady')
  })

  it('a missing preload stops at once with a message naming the file and the fix', async () => {
    const { app, dialog } = await fresh()
    await import('./main')
    await settle()
    expect(app.calls).toContain('exit:1')
    expect(dialog.errorBoxes).toHaveLength(1)
    const [title, message] = dialog.errorBoxes[0]!
    expect(title).toBe('Seam is not built')
    expect(message).toMatch(/preload[\\/]index\.cjs is missing\. Run `npm run build`/)
  })
})
