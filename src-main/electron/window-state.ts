// The window's size, position and maximized state, remembered across starts in
// <userData>/window-state.json. A missing file means the defaults; a corrupt one (bad JSON, a
// field out of range) is logged and replaced at the next save, never a crash. A saved position on
// a display that is gone (a laptop without its monitor) is dropped, keeping the size.
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { formatZodError } from '../../src-shared/validation'
import { writeFileAtomic } from '../app/atomic-file'

const Dimension = z.number().int().min(200).max(32_000)
const Coordinate = z.number().int().min(-64_000).max(64_000)

export const WindowStateSchema = z.object({
  width: Dimension,
  height: Dimension,
  x: Coordinate.optional(),
  y: Coordinate.optional(),
  maximized: z.boolean().default(false)
})
export type WindowState = z.output<typeof WindowStateSchema>

export interface Area {
  x: number
  y: number
  width: number
  height: number
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 840, maximized: false }

/** The saved state, or the defaults (logging why when the file exists but cannot be used). */
export function loadWindowState(file: string, log: (message: string) => void): WindowState {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log(`window state: cannot read ${file} (${(error as Error).message}); using the default size`)
    return { ...DEFAULT_WINDOW_STATE }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    log(`window state: ${file} is not JSON (${(error as Error).message}); using the default size`)
    return { ...DEFAULT_WINDOW_STATE }
  }
  const parsed = WindowStateSchema.safeParse(json)
  if (!parsed.success) {
    log(`window state: ${formatZodError(file, parsed.error)}; using the default size`)
    return { ...DEFAULT_WINDOW_STATE }
  }
  return parsed.data
}

/** Keeps the position only when the window's title bar area lies on one of `displays` (work areas). */
export function placeOnDisplays(state: WindowState, displays: readonly Area[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state
  const { x, y } = state
  // Enough of the top edge to grab the window: 100 px wide, 40 px tall.
  const visible = displays.some((area) => x + state.width - 100 >= area.x && x + 100 <= area.x + area.width && y >= area.y && y + 40 <= area.y + area.height)
  if (visible) return state
  const { x: _x, y: _y, ...rest } = state
  return rest
}

export function saveWindowState(file: string, state: WindowState, log: (message: string) => void): void {
  try {
    writeFileAtomic(file, JSON.stringify(WindowStateSchema.parse(state), null, 2) + '\n', 0o644)
  } catch (error) {
    log(`window state: cannot save ${file} (${(error as Error).message})`)
  }
}

/** What a window reports; Electron's BrowserWindow has these. */
export interface TrackedWindow {
  getNormalBounds(): Area
  isMaximized(): boolean
  isFullScreen(): boolean
  on(event: 'close' | 'resize' | 'move' | 'maximize' | 'unmaximize', listener: () => void): unknown
}

/** Saves the window's state when it closes, and (debounced) after it is moved or resized. */
export function trackWindowState(window: TrackedWindow, file: string, log: (message: string) => void, debounceMs = 500): void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const save = () => {
    clearTimeout(timer)
    timer = undefined
    // Full screen is not a size to come back to; the normal bounds under it are.
    const bounds = window.getNormalBounds()
    saveWindowState(file, { ...bounds, maximized: window.isMaximized() && !window.isFullScreen() }, log)
  }
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(save, debounceMs)
  }
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(event, later)
  window.on('close', save)
}
