// File contents as the checkpoint methods send them (src-shared/contract/checkpoints.ts), for
// diffs and for words when there is no text to diff.
import type { FileText } from '../../src-shared/contract/checkpoints'
import { diffLines } from './line-diff'

/** The text to diff: an absent file diffs as empty; binary, too large or unavailable content has none. */
export function diffable(text: FileText): string | null {
  if (text.kind === 'text') return text.text
  if (text.kind === 'absent') return ''
  return null
}

/** Why there is no diff, in words; null when there is one. */
export function noDiffReason(before: FileText, after: FileText): string | null {
  for (const text of [before, after]) {
    if (text.kind === 'binary') return `binary content (${text.size} bytes): no line diff`
    if (text.kind === 'too-large') return `too large to show (${text.size} bytes)`
    if (text.kind === 'unavailable') return text.reason
  }
  return null
}

/** Lines added and removed between two texts. */
export function lineCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const line of diffLines(before, after)) {
    if (line.kind === 'add') added++
    else if (line.kind === 'del') removed++
  }
  return { added, removed }
}

/** `path` relative to `root` when it lies inside it, else as it is. */
export function shortPath(path: string, root: string | undefined): string {
  if (root && path.startsWith(root.endsWith('/') ? root : `${root}/`)) return path.slice(root.length).replace(/^\/+/, '')
  return path
}
