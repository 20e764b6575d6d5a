// A small line diff for Edit and Write cards: common prefix and suffix trimmed, then an LCS over
// what is left. Past a size cap it shows the changed middle as removed-then-added.

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

const MAX_CELLS = 4_000_000

export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

export function diffLines(before: string, after: string, maxCells = MAX_CELLS): DiffLine[] {
  const a = splitLines(before)
  const b = splitLines(after)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const out: DiffLine[] = []
  for (let i = 0; i < start; i++) out.push({ kind: 'same', text: a[i], oldNo: i + 1, newNo: i + 1 })
  middle(a, b, start, endA, endB, maxCells, out)
  for (let i = endA, j = endB; i < a.length; i++, j++) out.push({ kind: 'same', text: a[i], oldNo: i + 1, newNo: j + 1 })
  return out
}

function middle(a: string[], b: string[], start: number, endA: number, endB: number, maxCells: number, out: DiffLine[]): void {
  const n = endA - start
  const m = endB - start
  if ((n + 1) * (m + 1) > maxCells) {
    for (let i = start; i < endA; i++) out.push({ kind: 'del', text: a[i], oldNo: i + 1 })
    for (let j = start; j < endB; j++) out.push({ kind: 'add', text: b[j], newNo: j + 1 })
    return
  }
  // lcs[i][j]: length of the LCS of a[start+i..endA) and b[start+j..endB)
  const width = m + 1
  const lcs = new Uint32Array((n + 1) * width)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1])
    }
  }
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      out.push({ kind: 'same', text: a[start + i], oldNo: start + i + 1, newNo: start + j + 1 })
      i++
      j++
    } else if (j >= m || (i < n && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
      out.push({ kind: 'del', text: a[start + i], oldNo: start + i + 1 })
      i++
    } else {
      out.push({ kind: 'add', text: b[start + j], newNo: start + j + 1 })
      j++
    }
  }
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
export function applyEdit(original: string, oldString: string, newString: string, replaceAll: boolean): string {
  if (oldString === '') return newString
  if (replaceAll) return original.split(oldString).join(newString)
  const at = original.indexOf(oldString)
  return at < 0 ? original : original.slice(0, at) + newString + original.slice(at + oldString.length)
}
