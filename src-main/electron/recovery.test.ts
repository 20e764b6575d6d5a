// The window recovers instead of staying blank: a failed load and a gone renderer are logged,
// shown, and reloaded (Electron mocked: fake-electron.ts).
import { describe, expect, it } from 'vitest'
import type { BrowserWindow as ElectronWindow } from 'electron'
import { BrowserWindow } from './fake-electron'
import { keepWindowAlive, type HungChoice, type RecoveryChoice } from './recovery'

function setup(loads: Array<Error | null>, answers: RecoveryChoice[] = [], hungAnswers: Array<HungChoice | Promise<HungChoice>> = []) {
  const window = new BrowserWindow({})
  const logged: string[] = []
  const asked: string[] = []
  let quit = 0
  let loadCount = 0
  let clock = 0
  const recovery = keepWindowAlive({
    window: window as unknown as ElectronWindow,
    load: async () => {
      const outcome = loads[Math.min(loadCount, loads.length - 1)]
      loadCount++
      if (outcome) throw outcome
    },
    log: (message) => logged.push(message),
    ask: async (title) => {
      asked.push(title)
      return answers.shift() ?? 'quit'
    },
    quit: () => quit++,
    askHung: async () => {
      asked.push('hung')
      return (await hungAnswers.shift()) ?? 'wait'
    },
    now: () => clock
  })
  return {
    window,
    recovery,
    logged,
    asked,
    loads: () => loadCount,
    quits: () => quit,
    tick: (ms: number) => (clock += ms)
  }
}

const loadError = (code: string) => Object.assign(new Error(`${code} (-6) loading 'file:///x/index.html'`), { code })
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('window recovery', () => {
  it('a failed load is logged, the window is shown with the question, and Retry loads again', async () => {
    const t = setup([loadError('ERR_FILE_NOT_FOUND'), null], ['retry'])
    await t.recovery.loadNow()
    expect(t.logged).toEqual(['the app page did not load'])
    expect(t.asked).toEqual(['Seam could not load its window'])
    expect(t.window.shown).toBe(true)
    expect(t.loads()).toBe(2)
    expect(t.quits()).toBe(0)
  })

  it('Quit after a failed load quits', async () => {
    const t = setup([loadError('ERR_FILE_NOT_FOUND')], ['quit'])
    await t.recovery.loadNow()
    expect(t.quits()).toBe(1)
  })

  it('an aborted load (a newer navigation won) is not a failure', async () => {
    const t = setup([loadError('ERR_ABORTED')])
    await t.recovery.loadNow()
    expect(t.logged).toEqual([])
    expect(t.asked).toEqual([])
  })

  it('a crashed renderer is reloaded; one that keeps crashing asks instead of looping', async () => {
    const t = setup([null], ['retry'])
    await t.recovery.loadNow()
    const crash = (reason: string) => t.window.webContents.emit('render-process-gone', {}, { reason, exitCode: 139 })
    crash('crashed')
    await flush()
    expect(t.loads()).toBe(2)
    expect(t.logged).toEqual(["the window's renderer is gone (crashed, exit code 139)"])
    t.tick(1000)
    crash('oom')
    await flush()
    expect(t.loads()).toBe(3)
    t.tick(1000)
    crash('crashed')
    await flush()
    expect(t.asked).toEqual(['The Seam window keeps crashing'])
    expect(t.loads()).toBe(4) // the user chose Retry
    // Crashes spread out over time are each reloaded silently.
    t.tick(120_000)
    crash('crashed')
    await flush()
    expect(t.asked).toHaveLength(1)
    expect(t.loads()).toBe(5)
  })

  it('a clean renderer exit and a closed window are left alone', async () => {
    const t = setup([null])
    await t.recovery.loadNow()
    t.window.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 })
    t.window.close()
    t.window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 })
    await flush()
    expect(t.loads()).toBe(1)
    expect(t.logged).toEqual([])
  })

  it('a failing preload is logged with its path', () => {
    const t = setup([null])
    t.window.webContents.emit('preload-error', {}, '/opt/seam/out/preload/index.cjs', new Error('boom'))
    expect(t.logged).toEqual(['the preload script /opt/seam/out/preload/index.cjs failed'])
  })

  it("a hung renderer ('unresponsive') is offered a reload: Reload ends it and loads the page again (issue 30)", async () => {
    const { window, recovery, logged, asked, loads } = setup([null], [], ['reload'])
    await recovery.loadNow()
    window.webContents.emit('unresponsive')
    window.webContents.emit('unresponsive') // Electron repeats it while hung: one question
    await flush()
    await flush()
    expect(asked).toEqual(['hung'])
    expect(window.webContents.commands).toEqual(['crash'])
    expect(loads()).toBe(2)
    expect(logged).toContain('the window stopped responding')
    expect(logged).toContain('reloading the window that stopped responding')
  })

  it('Wait leaves it alone; a page that recovers while the question is up is not reloaded', async () => {
    const waiting = setup([null], [], ['wait'])
    await waiting.recovery.loadNow()
    waiting.window.webContents.emit('unresponsive')
    await flush()
    expect(waiting.window.webContents.commands).toEqual([])
    expect(waiting.loads()).toBe(1)

    let answer!: (choice: HungChoice) => void
    const late = setup([null], [], [new Promise<HungChoice>((resolve) => (answer = resolve))])
    await late.recovery.loadNow()
    late.window.webContents.emit('unresponsive')
    late.window.webContents.emit('responsive')
    answer('reload')
    await flush()
    expect(late.window.webContents.commands).toEqual([])
    expect(late.logged).toContain('the window responds again')
  })
})
