// `@path` imports in a CLAUDE.md: a token starting with `@` that names a path (relative, `~/`, or
// absolute), outside code spans and fenced code blocks. An e-mail address or a bare `@name`
// without a slash or a dot is not an import.
const IMPORT = /(^|\s)@((?:~\/|\/|\.{1,2}\/)?[^\s`]+)/g

export function findImports(markdown: string): string[] {
  const found: string[] = []
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const outsideSpans = line.replace(/`[^`]*`/g, ' ')
    for (const match of outsideSpans.matchAll(IMPORT)) {
      const target = match[2].replace(/[),.;:!?]+$/, '')
      if (target.includes('/') || target.includes('.')) found.push(target)
    }
  }
  return found
}
