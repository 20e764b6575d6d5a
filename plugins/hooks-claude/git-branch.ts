// The `gitBranch` of Claude Code's transcript lines: what `git rev-parse --abbrev-ref HEAD` prints
// in the workspace (the branch, `HEAD` when detached, nothing outside a repository or on a branch
// with no commit yet), read from the repository's own files. Spawning git for it blocked the
// host (a synchronous spawn) before the first hook of every session started.
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

export function currentGitBranch(dir: string): string {
  try {
    const gitDir = findGitDir(path.resolve(dir))
    if (gitDir === undefined) return ''
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim()
    const symbolic = /^ref:\s*(refs\/\S+)$/.exec(head)
    if (!symbolic) return /^[0-9a-f]{40,64}$/.test(head) ? 'HEAD' : ''
    const ref = symbolic[1]
    // An unborn branch (a new repository): git fails, and Claude Code records ''.
    if (!refExists(gitDir, ref)) return ''
    return ref.replace(/^refs\/heads\//, '')
  } catch {
    // Unreadable repository files: as when git fails.
    return ''
  }
}

/** The `.git` folder of the repository `dir` is in (a `.git` file points to a worktree's). */
function findGitDir(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git')
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return dotGit
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim()
      return pointer === undefined ? undefined : path.resolve(current, pointer)
    }
    if (path.dirname(current) === current) return undefined
  }
}

/** A loose ref file, or a line of packed-refs, in the worktree's folder or the common one. */
function refExists(gitDir: string, ref: string): boolean {
  const commonFile = path.join(gitDir, 'commondir')
  const common = existsSync(commonFile) ? path.resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir
  for (const base of new Set([gitDir, common])) {
    if (existsSync(path.join(base, ref))) return true
  }
  const packed = path.join(common, 'packed-refs')
  return existsSync(packed) && readFileSync(packed, 'utf8').split('\n').some((line) => line.endsWith(` ${ref}`))
}
