// Which page the shell trusts: the built renderer file (compared as a path, case-insensitively
// where the file system is) or, in development, electron-vite's dev server origin.
import { statSync, type Stats } from 'node:fs'
import { posix, win32 } from 'node:path'
import type { AppPage } from './security'

export interface AppPageOptions {
  /** Absolute path of out/renderer/index.html. */
  rendererFile: string
  /** electron-vite's dev server (ELECTRON_RENDERER_URL), development only. */
  devServerUrl?: string
  platform?: NodeJS.Platform
  stat?: (path: string) => Stats
}

export function appPageFor(options: AppPageOptions): AppPage {
  if (options.devServerUrl) return { kind: 'server', origin: options.devServerUrl }
  const platform = options.platform ?? process.platform
  return {
    kind: 'file',
    file: options.rendererFile,
    platform: platform === 'win32' ? 'win32' : 'posix',
    ignoreCase: fileSystemIgnoresCase(options.rendererFile, platform, options.stat ?? statSync)
  }
}

/**
 * Whether the file system holding `path` ignores case, found by asking it: the file's name with
 * its letters' case swapped names the same file (same device and inode) only where case is
 * ignored. Falls back to the platform's default (NTFS and APFS ignore case) when the name has
 * no letters or the file cannot be read.
 */
export function fileSystemIgnoresCase(path: string, platform: NodeJS.Platform = process.platform, stat: (path: string) => Stats = statSync): boolean {
  const fallback = platform === 'win32' || platform === 'darwin'
  const { dirname, basename, join } = platform === 'win32' ? win32 : posix
  const name = basename(path)
  const swappedName = [...name].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')
  if (swappedName === name) return fallback
  const swapped = join(dirname(path), swappedName)
  let original: Stats
  try {
    original = stat(path)
  } catch {
    return fallback
  }
  try {
    const other = stat(swapped)
    return other.dev === original.dev && other.ino === original.ino
  } catch {
    return false
  }
}
