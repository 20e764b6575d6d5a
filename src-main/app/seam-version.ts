// Seam's version: the `version` of the install's package.json, found by walking up from this
// file (the build moves files, so no fixed relative path holds in both the source and out/).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Seam's version, from the package.json of the install (found by walking up: the build moves files). */
export const SEAM_VERSION: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'seam' && pkg.version) return pkg.version
    } catch {
      // No package.json here (or not ours): keep walking up.
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('cannot find Seam\'s package.json above ' + fileURLToPath(import.meta.url))
    dir = parent
  }
})()
