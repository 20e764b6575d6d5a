// The clientInfo Seam sends in initialize: its name and the version of the install.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Seam's version from the nearest package.json named "seam" above this file ("unknown" when none is found). */
export const SEAM_CLIENT_VERSION: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'seam' && pkg.version) return pkg.version
    } catch {
      // Not here: keep walking up.
    }
    const parent = dirname(dir)
    if (parent === dir) return 'unknown'
    dir = parent
  }
})()
