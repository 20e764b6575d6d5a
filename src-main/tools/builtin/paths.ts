// How the built-in file tools turn a model-supplied path into the one they touch. The workspace
// guard imports these so that what it checks is exactly what the tool then opens.
import os from 'node:os'
import path from 'node:path'
import { isDynamicPattern } from 'tinyglobby'
import { nativePath } from '../../process/command-shell'

/**
 * Resolves `input` against `cwd`: `~` and `~/...` expand to the home directory; relative paths are
 * accepted (Claude Code requires absolute ones) and resolved lexically, so `..` never survives.
 * On Windows, Git Bash's `/c/...` form and forward slashes are accepted as Claude Code does there
 * (nativePath), and the result is a Windows path.
 */
export function resolveToolPath(cwd: string, input: string, platform: NodeJS.Platform = process.platform): string {
  const paths = platform === 'win32' ? path.win32 : path.posix
  let value = input
  if (value === '~') value = os.homedir()
  else if (value.startsWith('~/') || (platform === 'win32' && value.startsWith('~\\'))) value = paths.join(os.homedir(), value.slice(2))
  return paths.resolve(cwd, nativePath(value, platform))
}

export interface GlobRoot {
  /** The directory every match lies under: `base` joined with the pattern's static prefix. */
  root: string
  /** The rest of the pattern, relative to `root`. */
  pattern: string
}

/**
 * Splits a glob into the directory its matches cannot leave and the dynamic rest, e.g.
 * (`/ws`, `../lib/**\/*.ts`) -> { root: `/lib`, pattern: `**\/*.ts` } and (`/ws`, `/etc/*.conf`) ->
 * { root: `/etc`, pattern: `*.conf` }.
 */
export function splitGlob(base: string, pattern: string): GlobRoot {
  const segments = pattern.split('/')
  let staticCount = 0
  while (staticCount < segments.length - 1 && !isDynamicPattern(segments[staticCount])) staticCount++
  const prefix = segments.slice(0, staticCount).join('/')
  const root = prefix === '' && pattern.startsWith('/') ? '/' : prefix === '' ? base : resolveToolPath(base, prefix)
  return { root, pattern: segments.slice(staticCount).join('/') }
}

/** True when a glob contains a `..` segment (after its static prefix it could climb out of its root). */
export function hasParentSegment(pattern: string): boolean {
  return pattern.split('/').includes('..')
}

/** True when `target` is `root` or lies below it (both absolute and normalized). */
export function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target)
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
}
