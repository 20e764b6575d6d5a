// Web mode's folder browser (`folders/list`): the folders in one folder under the user's home.
// `~` and `~/x` are the user's home (never the host's working folder, the Seam checkout when run
// from one); a relative path is taken from the home too. Nothing outside the home is listed: a
// path there, or a link that leads there, is refused with the reason; a link in a listing that
// leads out is shown but cannot be opened, as is a folder the host cannot read.
import { constants } from 'node:fs'
import { access, readdir, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { FolderListing } from '../../src-shared/contract/ipc'

/** More would make the dialog useless anyway; the rest is reached by typing. */
export const MAX_FOLDER_ENTRIES = 2000

class FolderError extends Error {
  readonly field = 'path'
  constructor(
    message: string,
    readonly code: 'INVALID_INPUT' | 'NOT_FOUND'
  ) {
    super(message)
  }
}

/** `~`, `~/x`, a relative path (from the home) or an absolute one, as an absolute path. */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home
  if (path.startsWith('~/') || (sep === '\\' && path.startsWith('~\\'))) return resolve(home, path.slice(2))
  return isAbsolute(path) ? resolve(path) : resolve(home, path)
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** `~` or `~/a/b` for a path in the home. */
export function displayPath(path: string, home: string): string {
  const rel = relative(home, path)
  return rel === '' ? '~' : `~/${rel.split(sep).join('/')}`
}

export async function listFolders(input: { path: string; hidden: boolean }, userHome: string): Promise<FolderListing> {
  const home = await realpath(userHome).catch(() => resolve(userHome))
  const wanted = expandHome(input.path, home)
  let real: string
  try {
    real = await realpath(wanted)
  } catch {
    throw new FolderError(`path: there is no folder "${wanted}"`, 'NOT_FOUND')
  }
  if (!inside(real, home)) {
    const how = real === resolve(wanted) ? '' : ` (it is a link to ${real})`
    throw new FolderError(`path: "${wanted}" is outside your home folder ${home}${how}; the folder browser lists only folders in your home`, 'INVALID_INPUT')
  }
  if (!(await stat(real)).isDirectory()) throw new FolderError(`path: "${wanted}" is a file, not a folder`, 'INVALID_INPUT')
  let names: Array<{ name: string; link: boolean; dir: boolean }>
  try {
    const dirents = await readdir(real, { withFileTypes: true })
    names = dirents.map((d) => ({ name: d.name, link: d.isSymbolicLink(), dir: d.isDirectory() }))
  } catch (error) {
    throw new FolderError(`path: "${displayPath(real, home)}" cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 'INVALID_INPUT')
  }
  const candidates = names
    .filter((n) => (n.dir || n.link) && (input.hidden || !n.name.startsWith('.')))
    .sort((a, b) => a.name.localeCompare(b.name))
  const entries: FolderListing['entries'] = []
  for (const candidate of candidates) {
    const path = join(real, candidate.name)
    let disabled: string | undefined
    if (candidate.link) {
      const target = await realpath(path).catch(() => null)
      const isDir = target !== null && (await stat(target).then((s) => s.isDirectory(), () => false))
      if (!isDir) continue
      if (!inside(target, home)) disabled = 'outside your home folder'
    }
    if (!disabled && !(await access(path, constants.R_OK | constants.X_OK).then(() => true, () => false))) disabled = 'unreadable'
    entries.push({ name: candidate.name, path, hidden: candidate.name.startsWith('.'), ...(disabled ? { disabled } : {}) })
    if (entries.length === MAX_FOLDER_ENTRIES) break
  }
  return {
    path: real,
    display: displayPath(real, home),
    parent: real === home ? null : resolve(real, '..'),
    home,
    entries,
    truncated: entries.length === MAX_FOLDER_ENTRIES && candidates.length > MAX_FOLDER_ENTRIES
  }
}
