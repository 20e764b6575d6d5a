// A line diff in the hunk shape Claude Code reports as `structuredPatch` (jsdiff's): each hunk has
// 1-based starts, line counts and lines prefixed with ' ', '-' or '+'.

export interface PatchHunk {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: string[]
}

type Op = { kind: ' ' | '-' | '+'; text: string }

/** Above this many LCS cells the changed middle is reported as one replacement instead of a minimal diff. */
const MAX_LCS_CELLS = 4_000_000

export function structuredPatch(oldText: string, newText: string, context = 3): PatchHunk[] {
  return groupHunks(diffLines(splitLines(oldText), splitLines(newText)), context)
}

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

function diffLines(a: string[], b: string[]): Op[] {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const ops: Op[] = a.slice(0, start).map((text) => ({ kind: ' ', text }))
  ops.push(...diffMiddle(a.slice(start, endA), b.slice(start, endB)))
  for (const text of a.slice(endA)) ops.push({ kind: ' ', text })
  return ops
}

/** Longest-common-subsequence diff of the part that differs; removals before additions in each run. */
function diffMiddle(a: string[], b: string[]): Op[] {
  const n = a.length
  const m = b.length
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_LCS_CELLS) {
    return [...a.map((text) => ({ kind: '-' as const, text })), ...b.map((text) => ({ kind: '+' as const, text }))]
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], flattened.
  const width = m + 1
  const lcs = new Uint32Array((n + 1) * width)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1])
    }
  }
  const ops: Op[] = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i++] })
      j++
    } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
      ops.push({ kind: '-', text: a[i++] })
    } else {
      ops.push({ kind: '+', text: b[j++] })
    }
  }
  while (i < n) ops.push({ kind: '-', text: a[i++] })
  while (j < m) ops.push({ kind: '+', text: b[j++] })
  return ops
}

function groupHunks(ops: Op[], context: number): PatchHunk[] {
  const hunks: PatchHunk[] = []
  // Line numbers (1-based) of each op in the old and new file.
  const oldNo: number[] = []
  const newNo: number[] = []
  let o = 1
  let n = 1
  for (const op of ops) {
    oldNo.push(o)
    newNo.push(n)
    if (op.kind !== '+') o++
    if (op.kind !== '-') n++
  }
  let index = 0
  while (index < ops.length) {
    while (index < ops.length && ops[index].kind === ' ') index++
    if (index === ops.length) break
    const from = Math.max(0, index - context)
    let to = index
    // Extend while the next change is within 2 * context unchanged lines of this one.
    for (;;) {
      while (to < ops.length && ops[to].kind !== ' ') to++
      let gap = to
      while (gap < ops.length && ops[gap].kind === ' ') gap++
      if (gap < ops.length && gap - to <= 2 * context) to = gap
      else break
    }
    const end = Math.min(ops.length, to + context)
    const slice = ops.slice(from, end)
    const oldLines = slice.filter((op) => op.kind !== '+').length
    const newLines = slice.filter((op) => op.kind !== '-').length
    hunks.push({
      oldStart: oldLines === 0 ? oldNo[from] - 1 : oldNo[from],
      oldLines,
      newStart: newLines === 0 ? newNo[from] - 1 : newNo[from],
      newLines,
      lines: slice.map((op) => op.kind + op.text)
    })
    index = end
  }
  return hunks
}
