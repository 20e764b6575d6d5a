// When the desktop app opens, focuses and quits, and that the Host is closed once on every way
// out, within a time limit (Electron's app mocked as an event emitter).
import { EventEmitter } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeFileAtomic } from '../app/atomic-file'
import { ActivityTracker, describeActivity } from './activity'
import { describe, expect, it } from 'vitest'
import type { App, BrowserWindow as ElectronWindow } from 'electron'
import { BrowserWindow, FakeEvent } from './fake-electron'
import { installLifecycle, type LifecycleOptions } from './lifecycle'

class FakeApp extends EventEmitter {
  quits = 0
  quit(): void {
    this.quits++
    // Like Electron: before-quit, then (unless prevented) will-quit, then (unless prevented) quit.
    const beforeQuit = new FakeEvent()
    this.emit('before-quit', beforeQuit)
    if (beforeQuit.defaultPrevented) return
    const willQuit = new FakeEvent()
    this.emit('will-quit', willQuit)
    if (!willQuit.defaultPrevented) this.emit('quit')
  }
}

function setup(overrides: Partial<LifecycleOptions> = {}) {
  const app = new FakeApp()
  const windows: ElectronWindow[] = []
  const events: string[] = []
  let closes = 0
  const lifecycle = installLifecycle({
    app: app as unknown as Pick<App, 'on' | 'quit'>,
    platform: 'linux',
    windows: () => windows,
    openWindow: () => events.push('open'),
    showWindow: () => events.push('show'),
    close: async () => {
      closes++
      events.push('close')
    },
    log: (message) => events.push(`log: ${message}`),
    ...overrides
  })
  let quitted = false
  app.on('quit', () => (quitted = true))
  return { app, windows, events, lifecycle, closes: () => closes, quitted: () => quitted }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('desktop lifecycle', () => {
  it('quits when the last window closes, except on macOS where the dock reopens one', async () => {
    const linux = setup()
    linux.app.emit('window-all-closed')
    await flush()
    expect(linux.app.quits).toBeGreaterThan(0)
    expect(linux.quitted()).toBe(true)

    const mac = setup({ platform: 'darwin' })
    mac.app.emit('window-all-closed')
    expect(mac.app.quits).toBe(0)
    mac.app.emit('activate')
    expect(mac.events).toEqual(['open'])
  })

  it('closes the Host once before quitting, however many quit requests arrive', async () => {
    const t = setup()
    t.app.quit()
    t.app.quit()
    expect(t.quitted()).toBe(false) // will-quit waits for the Host
    await flush()
    expect(t.closes()).toBe(1)
    expect(t.quitted()).toBe(true)
  })

  it('a Host close that hangs is given up after the timeout, so the process can quit', async () => {
    const t = setup({ close: () => new Promise(() => {}), closeTimeoutMs: 20 })
    t.app.quit()
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(t.quitted()).toBe(true)
    expect(t.events).toContain('log: the host did not close within 0.02 s; quitting anyway')
  })

  it('a Host close that fails is logged and the app still quits', async () => {
    const t = setup({ close: async () => Promise.reject(new Error('disk gone')) })
    t.app.quit()
    await flush()
    expect(t.events).toContain('log: the host did not close cleanly')
    expect(t.quitted()).toBe(true)
  })

  it("closes the Host on Windows' session-end (no will-quit there)", async () => {
    const t = setup({ platform: 'win32' })
    const window = new BrowserWindow({})
    t.lifecycle.watchWindow(window as unknown as ElectronWindow)
    window.emit('session-end', new FakeEvent())
    expect(t.lifecycle.quitting).toBe(true)
    await flush()
    expect(t.closes()).toBe(1)
    expect(t.quitted()).toBe(true)
  })

  it('a second launch shows the window, but not while quitting; activate opens none while quitting', async () => {
    const t = setup({ platform: 'darwin', close: () => new Promise(() => {}) })
    t.app.emit('second-instance')
    expect(t.events).toEqual(['show'])
    t.app.quit() // the Host close hangs: still quitting
    t.app.emit('second-instance')
    t.app.emit('activate')
    expect(t.events).toEqual(['show'])
  })

  it('activate opens a window only when none is open', () => {
    const t = setup({ platform: 'darwin' })
    t.windows.push(new BrowserWindow({}) as unknown as ElectronWindow)
    t.app.emit('activate')
    expect(t.events).toEqual([])
  })

  it('quitting while a turn or a background task runs asks first: No keeps running, Yes quits (issue 30)', async () => {
    const activity = new ActivityTracker()
    const questions: string[] = []
    const answers = [false, true]
    const t = setup({ running: () => describeActivity(activity.current), confirmQuit: async (what) => (questions.push(what), answers.shift()!) })
    activity.event('s1', { type: 'turn/start', seq: 1, ts: 1, turnId: 'a' })
    activity.event('s2', { type: 'task/started', seq: 2, ts: 1, taskId: 'b', command: 'npm run dev', description: 'dev server', cwd: '/w', outputFile: '/o', startedAt: 1, origin: 'background' } as never)
    t.app.quit()
    t.app.quit() // a second Cmd+Q while the question is up: still one question
    await flush()
    expect(questions).toEqual(['a turn and a background task are running'])
    expect(t.closes()).toBe(0)
    expect(t.events).toContain('log: quit cancelled: a turn and a background task are running')
    t.app.quit()
    await flush()
    await flush()
    expect(questions).toHaveLength(2)
    expect(t.closes()).toBe(1)
    expect(t.quitted()).toBe(true)
  })

  it('quits without asking once nothing runs; closing the last window asks on Linux, not on macOS', async () => {
    const activity = new ActivityTracker()
    activity.event('s1', { type: 'turn/start', seq: 1, ts: 1, turnId: 'a' })
    activity.event('s1', { type: 'turn/end', seq: 2, ts: 2, turnId: 'a', reason: 'completed' })
    expect(describeActivity(activity.current)).toBeNull()
    const asked: string[] = []
    const idle = setup({ running: () => describeActivity(activity.current), confirmQuit: async (what) => (asked.push(what), false) })
    idle.app.quit()
    await flush()
    expect(asked).toEqual([])
    expect(idle.quitted()).toBe(true)

    activity.event('s1', { type: 'turn/start', seq: 3, ts: 3, turnId: 'b' })
    const linux = setup({ running: () => describeActivity(activity.current), confirmQuit: async (what) => (asked.push(what), false) })
    const window = new BrowserWindow({})
    linux.windows.push(window as unknown as ElectronWindow)
    linux.lifecycle.watchWindow(window as unknown as ElectronWindow)
    window.close()
    await flush()
    expect(window.isDestroyed()).toBe(false)
    expect(asked).toEqual(['a turn is running'])
    const mac = setup({ platform: 'darwin', running: () => 'a turn is running', confirmQuit: async () => false })
    const macWindow = new BrowserWindow({})
    mac.windows.push(macWindow as unknown as ElectronWindow)
    mac.lifecycle.watchWindow(macWindow as unknown as ElectronWindow)
    macWindow.close()
    expect(macWindow.isDestroyed()).toBe(true)
  })

  it('a quit during a write: the Host closes (and the write lands whole) before the app quits (issue 30)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seam-quit-write-'))
    const file = join(dir, 'session.jsonl')
    let finishWrite!: () => void
    const writing = new Promise<void>((resolve) => (finishWrite = resolve))
    const t = setup({
      // The Host's close waits for the write in flight, as the session log's flush does.
      close: async () => {
        await writing
        writeFileAtomic(file, '{"type":"turn/end"}\n')
      }
    })
    t.app.quit()
    await flush()
    expect(t.quitted()).toBe(false)
    finishWrite()
    await flush()
    await flush()
    expect(await readFile(file, 'utf8')).toBe('{"type":"turn/end"}\n')
    expect(t.quitted()).toBe(true)
    await rm(dir, { recursive: true, force: true })
  })
})
