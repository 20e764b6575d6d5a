// The search itself: compiles the model's pattern and finds matching lines in one file's text.

/** JavaScript RegExp from a ripgrep-style pattern. A leading `(?i)` (or `(?s)`, `(?m)`) becomes a flag. */
export function compilePattern(pattern: string, caseInsensitive: boolean, multiline: boolean): RegExp | { problem: string } {
  let source = pattern
  const flags = new Set<string>()
  const inline = /^\(\?([ims]+)\)/.exec(source)
  if (inline) {
    source = source.slice(inline[0].length)
    for (const flag of inline[1]) flags.add(flag)
  }
  if (caseInsensitive) flags.add('i')
  if (multiline) {
    flags.add('s')
    flags.add('m')
  }
  flags.add('g')
  const base = [...flags].join('')
  try {
    return new RegExp(source, `${base}u`)
  } catch {
    // Without the u flag more legacy escapes are accepted (e.g. `\-` outside a class).
    try {
      return new RegExp(source, base)
    } catch (error) {
      return { problem: `Invalid regular expression ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message : String(error)}` }
    }
  }
}

export interface FileMatches {
  lines: string[]
  /** 0-based indexes of lines that match (or lie inside a multiline match), ascending. */
  matchedLines: number[]
  /** Number of matches: matching lines, or matches in multiline mode. */
  count: number
}

export function findMatches(text: string, regex: RegExp, multiline: boolean): FileMatches {
  const lines = text.split(/\r?\n/)
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  if (!multiline) {
    const matchedLines: number[] = []
    for (let i = 0; i < lines.length; i++) {
      regex.lastIndex = 0
      if (regex.test(lines[i])) matchedLines.push(i)
    }
    return { lines, matchedLines, count: matchedLines.length }
  }
  // Multiline: match against the whole text, then mark every line a match touches.
  const lineStarts = [0]
  const normalized = text.replace(/\r\n/g, '\n')
  for (let i = 0; i < normalized.length; i++) if (normalized[i] === '\n') lineStarts.push(i + 1)
  const marked = new Set<number>()
  let count = 0
  regex.lastIndex = 0
  for (let match = regex.exec(normalized); match !== null; match = regex.exec(normalized)) {
    count++
    const first = lineIndexAt(lineStarts, match.index)
    const last = lineIndexAt(lineStarts, Math.max(match.index, match.index + match[0].length - 1))
    for (let line = first; line <= last && line < lines.length; line++) marked.add(line)
    if (match[0].length === 0) regex.lastIndex++
  }
  return { lines, matchedLines: [...marked].sort((a, b) => a - b), count }
}

function lineIndexAt(lineStarts: number[], offset: number): number {
  let low = 0
  let high = lineStarts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if (lineStarts[mid] <= offset) low = mid
    else high = mid - 1
  }
  return low
}

/** ripgrep-style output lines for one file: `path:n:text` for matches, `path-n-text` for context, `--` between groups. */
export function formatContentLines(
  file: string,
  found: FileMatches,
  before: number,
  after: number,
  lineNumbers: boolean,
  maxLineChars: number
): string[][] {
  const groups: string[][] = []
  const matched = new Set(found.matchedLines)
  let group: string[] = []
  let lastShown = -2
  for (const index of found.matchedLines) {
    const from = Math.max(0, index - before, lastShown + 1)
    const to = Math.min(found.lines.length - 1, index + after)
    if (from > lastShown + 1 && group.length > 0) {
      groups.push(group)
      group = []
    }
    for (let line = from; line <= to; line++) {
      if (line <= lastShown) continue
      const separator = matched.has(line) ? ':' : '-'
      const text = found.lines[line].length > maxLineChars ? `${found.lines[line].slice(0, maxLineChars)}…` : found.lines[line]
      group.push(lineNumbers ? `${file}${separator}${line + 1}${separator}${text}` : `${file}${separator}${text}`)
      lastShown = line
    }
  }
  if (group.length > 0) groups.push(group)
  return groups
}
