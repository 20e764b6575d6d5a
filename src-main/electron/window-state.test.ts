// The window's size and position remembered across starts (issue 30), with real files: a corrupt
// or invalid state file is logged and the defaults used; a position off every display is dropped.
import { EventEmitter } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_WINDOW_STATE, loadWindowState, placeOnDisplays, trackWindowState } from './window-state'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-window-state-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

class Window extends EventEmitter {
  bounds = { x: 10, y: 20, width: 1000, height: 700 }
  maximized = false
  fullScreen = false
  getNormalBounds() {
    return this.bounds
  }
  isMaximized() {
    return this.maximized
  }
  isFullScreen() {
    return this.fullScreen
  }
}

describe('window state (issue 30)', () => {
  it('is saved when the window closes and read back at the next start', async () => {
    const file = join(dir, 'saved.json')
    const logged: string[] = []
    expect(loadWindowState(file, (m) => logged.push(m))).toEqual(DEFAULT_WINDOW_STATE)
    expect(logged).toEqual([]) // no file yet: nothing to report
    const window = new Window()
    trackWindowState(window, file, (m) => logged.push(m))
    window.bounds = { x: 200, y: 100, width: 1400, height: 900 }
    window.maximized = true
    window.emit('close')
    expect(loadWindowState(file, (m) => logged.push(m))).toEqual({ x: 200, y: 100, width: 1400, height: 900, maximized: true })
    expect(logged).toEqual([])
  })

  it('is saved after a move or resize settles', async () => {
    const file = join(dir, 'moved.json')
    const window = new Window()
    trackWindowState(window, file, () => {}, 10)
    window.bounds = { x: 5, y: 6, width: 800, height: 600 }
    window.emit('move')
    window.emit('resize')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ x: 5, y: 6, width: 800, height: 600, maximized: false })
  })

  it('a corrupt or invalid file gives the defaults, logged with the reason and the field, without a crash', async () => {
    const logged: string[] = []
    const corrupt = join(dir, 'corrupt.json')
    await writeFile(corrupt, '{"width": 1200, "hei')
    expect(loadWindowState(corrupt, (m) => logged.push(m))).toEqual(DEFAULT_WINDOW_STATE)
    expect(logged[0]).toMatch(/^window state: .*corrupt\.json is not JSON \(.+\); using the default size$/)
    const invalid = join(dir, 'invalid.json')
    await writeFile(invalid, JSON.stringify({ width: 50, height: 'tall' }))
    expect(loadWindowState(invalid, (m) => logged.push(m))).toEqual(DEFAULT_WINDOW_STATE)
    expect(logged[1]).toContain('invalid.json: width:')
    expect(logged[1]).toContain('height:')
    // The next save replaces the bad file.
    const window = new Window()
    trackWindowState(window, corrupt, (m) => logged.push(m))
    window.emit('close')
    expect(loadWindowState(corrupt, (m) => logged.push(m))).toMatchObject({ width: 1000, height: 700 })
    expect(logged).toHaveLength(2)
  })

  it('drops a position that is on no display any more, keeping the size', () => {
    const laptop = [{ x: 0, y: 0, width: 1440, height: 900 }]
    expect(placeOnDisplays({ x: 2000, y: 100, width: 1200, height: 800, maximized: false }, laptop)).toEqual({ width: 1200, height: 800, maximized: false })
    expect(placeOnDisplays({ x: 100, y: 50, width: 1200, height: 800, maximized: false }, laptop)).toEqual({ x: 100, y: 50, width: 1200, height: 800, maximized: false })
    expect(placeOnDisplays({ x: 100, y: -500, width: 1200, height: 800, maximized: false }, laptop)).toEqual({ width: 1200, height: 800, maximized: false })
  })
})
