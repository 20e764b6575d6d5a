// A path's real location even when its tail does not exist yet (a file about to be written):
// the longest existing prefix is resolved through symlinks, dangling links included, and the
// missing rest is appended.
import fs from 'node:fs'
import path from 'node:path'

/** Symlinks followed before giving up (the kernel's limit is similar). */
const MAX_LINKS = 40

/** `target` must be absolute and normalized. Throws on a symlink loop. */
export function realPath(target: string, linksFollowed = 0): string {
  let existing = target
  const missing: string[] = []
  while (!exists(existing)) {
    const parent = path.dirname(existing)
    if (parent === existing) return target
    missing.unshift(path.basename(existing))
    existing = parent
  }
  let real: string
  try {
    real = fs.realpathSync.native(existing)
  } catch {
    // `existing` is a dangling symlink (lstat sees it, realpath cannot finish): follow it by hand.
    if (linksFollowed >= MAX_LINKS) throw new Error(`more than ${MAX_LINKS} symbolic links`)
    const parent = realPath(path.dirname(existing), linksFollowed + 1)
    const pointsTo = path.resolve(parent, fs.readlinkSync(existing))
    return realPath(path.join(pointsTo, ...missing), linksFollowed + 1)
  }
  return missing.length === 0 ? real : path.join(real, ...missing)
}

function exists(candidate: string): boolean {
  try {
    fs.lstatSync(candidate)
    return true
  } catch {
    // ENOENT / ENOTDIR: this component does not exist (yet); the caller walks up.
    return false
  }
}
