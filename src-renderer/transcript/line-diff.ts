// The line diff behind Edit and Write cards: jsdiff's Myers diff over the lines (a missing final
// newline is not a change), numbered. Past an edit cap the changed middle shows as removed-then-added.
import { diffArrays, diffWordsWithSpace, parsePatch, type ArrayChange } from 'diff'

export interface DiffLine {
  kind: 'same' | 'add' | 'del'
  text: string
  oldNo?: number
  newNo?: number
}

export interface DiffHunk {
  /** Unchanged lines left out before this hunk. */
  skipped: number
  lines: DiffLine[]
}

/** Inserted plus removed lines past which the diff (O(size × edits)) is not worked out. */
const MAX_EDIT_LENGTH = 1000

export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

export function diffLines(before: string, after: string, maxEditLength = MAX_EDIT_LENGTH): DiffLine[] {
  const a = splitLines(before)
  const b = splitLines(after)
  const changes = diffArrays(a, b, { maxEditLength }) ?? replaceMiddle(a, b)
  const out: DiffLine[] = []
  let oldNo = 1
  let newNo = 1
  for (const change of changes) {
    for (const text of change.value) {
      if (change.removed) out.push({ kind: 'del', text, oldNo: oldNo++ })
      else if (change.added) out.push({ kind: 'add', text, newNo: newNo++ })
      else out.push({ kind: 'same', text, oldNo: oldNo++, newNo: newNo++ })
    }
  }
  return out
}

/** The common first and last lines kept, everything between them removed and then added. */
function replaceMiddle(a: string[], b: string[]): ArrayChange<string>[] {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const change = (value: string[], added: boolean, removed: boolean): ArrayChange<string> => ({ value, count: value.length, added, removed })
  return [
    change(a.slice(0, start), false, false),
    change(a.slice(start, a.length - end), false, true),
    change(b.slice(start, b.length - end), true, false),
    change(a.slice(a.length - end), false, false)
  ]
}

/** Changed lines with `context` unchanged lines around them, grouped into hunks. */
export function diffHunks(lines: readonly DiffLine[], context = 3): DiffHunk[] {
  const keep = new Uint8Array(lines.length)
  lines.forEach((line, i) => {
    if (line.kind === 'same') return
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = 1
  })
  const hunks: DiffHunk[] = []
  let skipped = 0
  let current: DiffHunk | null = null
  lines.forEach((line, i) => {
    if (!keep[i]) {
      skipped++
      current = null
      return
    }
    if (!current) {
      current = { skipped, lines: [] }
      hunks.push(current)
      skipped = 0
    }
    current.lines.push(line)
  })
  return hunks
}

/** The file after an Edit: the first (or every) occurrence of oldString replaced, literally. */
export { applyEdit } from '../../src-shared/host/proposed-content'

/** The hunks of a unified patch (git's), numbered as the patch numbers them. */
export function patchHunks(patch: string): DiffHunk[] {
  const hunks: DiffHunk[] = []
  let nextOld = 1
  for (const file of parsePatch(patch)) {
    for (const hunk of file.hunks) {
      let oldNo = hunk.oldStart
      let newNo = hunk.newStart
      const lines: DiffLine[] = []
      for (const line of hunk.lines) {
        const sign = line[0]
        const text = line.slice(1)
        if (sign === '+') lines.push({ kind: 'add', text, newNo: newNo++ })
        else if (sign === '-') lines.push({ kind: 'del', text, oldNo: oldNo++ })
        else if (sign === ' ') lines.push({ kind: 'same', text, oldNo: oldNo++, newNo: newNo++ })
      }
      hunks.push({ skipped: Math.max(0, hunk.oldStart - nextOld), lines })
      nextOld = hunk.oldStart + hunk.oldLines
    }
  }
  return hunks
}

/** A piece of a changed line: `changed` marks the words that differ from its paired line. */
export interface WordSegment {
  text: string
  changed: boolean
}

/** Lines longer than this are not diffed word by word (the line's own colour says enough). */
const MAX_WORD_DIFF_LINE = 500

/**
 * The changed words of each changed line that has a counterpart: in a run of removed lines
 * followed by a run of added ones, the i-th removed line pairs with the i-th added line and each
 * gets its words split into same and changed (jsdiff's word diff). Keyed by the line's index.
 */
export function wordChanges(lines: readonly DiffLine[]): Map<number, WordSegment[]> {
  const out = new Map<number, WordSegment[]>()
  let i = 0
  while (i < lines.length) {
    if (lines[i].kind !== 'del') {
      i++
      continue
    }
    const delStart = i
    while (i < lines.length && lines[i].kind === 'del') i++
    const addStart = i
    while (i < lines.length && lines[i].kind === 'add') i++
    const pairs = Math.min(addStart - delStart, i - addStart)
    for (let k = 0; k < pairs; k++) {
      const before = lines[delStart + k].text
      const after = lines[addStart + k].text
      if (before.length > MAX_WORD_DIFF_LINE || after.length > MAX_WORD_DIFF_LINE) continue
      const parts = diffWordsWithSpace(before, after)
      // Nothing in common: the whole line changed, and its line colour already says so.
      if (!parts.some((part) => !part.added && !part.removed && part.value.trim() !== '')) continue
      out.set(delStart + k, parts.filter((part) => !part.added).map((part) => ({ text: part.value, changed: part.removed === true })))
      out.set(addStart + k, parts.filter((part) => !part.removed).map((part) => ({ text: part.value, changed: part.added === true })))
    }
  }
  return out
}
