// Listing files under a directory for Glob and Grep: tinyglobby with the default ignores
// (.git, node_modules), dot files included, symlinked directories not followed.
import { glob } from 'tinyglobby'
import { isWithin } from './paths'

const DEFAULT_IGNORED_DIRS = ['.git', 'node_modules'] as const

/**
 * Absolute paths of files under `root` matching `pattern`. A default-ignored directory is walked
 * only when the pattern names it (e.g. `node_modules/foo/**`).
 */
export async function listFiles(root: string, pattern: string, signal?: AbortSignal): Promise<string[]> {
  const named = pattern.split('/')
  const ignore = DEFAULT_IGNORED_DIRS.filter((dir) => !named.includes(dir)).map((dir) => `**/${dir}/**`)
  const files = await glob(pattern, {
    cwd: root,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    ignore,
    signal
  })
  // Defensive: whatever the pattern says, nothing outside the root is reported.
  return files.filter((file) => isWithin(root, file))
}
