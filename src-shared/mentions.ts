// The `@path` syntax of file mentions, shared by the host (which reads the files) and the
// composer's picker (which inserts them). No Node imports.

/** Trailing punctuation that ends a sentence rather than a path (`see @a.ts, then`). */
const TRAILING = /[.,;:!?)\]}'"]+$/

/**
 * The paths mentioned in `text`, in order, each once: `@path` or `@"path with spaces"` at the start
 * or after white space (so `me@example.com` is not one), outside code spans and fenced blocks.
 */
export function parseMentions(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`[^`\n]*`/g, ' ')
  const found: string[] = []
  for (const match of prose.matchAll(/(?<=^|\s)@(?:"([^"\n]+)"|([^\s@"`][^\s`]*))/g)) {
    const mention = match[1] ?? (match[2] ?? '').replace(TRAILING, '')
    if (mention !== '' && !found.includes(mention)) found.push(mention)
  }
  return found
}

/** The text a picker inserts for `path`: quoted when it holds white space. */
export function mentionToken(path: string): string {
  return /\s/.test(path) ? `@"${path}"` : `@${path}`
}

/** The mention being typed at `caret`: the `@` and what follows it up to the caret, or undefined. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(?:^|\s)@([^\s@"`]*)$/.exec(text.slice(0, caret))
  if (!match) return undefined
  return { start: caret - match[1]!.length - 1, query: match[1]! }
}
