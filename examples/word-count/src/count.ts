// Counting lines, words and characters of a text, the way `wc` reads them: a line is a run of
// characters ended by a newline (a last line without one still counts), a word is a run of
// non-whitespace characters, a character is a Unicode code point.
export interface TextCounts {
  lines: number
  words: number
  chars: number
}

export function countText(text: string): TextCounts {
  const newlines = text.match(/\n/g)?.length ?? 0
  const lines = newlines + (text.length > 0 && !text.endsWith('\n') ? 1 : 0)
  const words = text.match(/\S+/gu)?.length ?? 0
  let chars = 0
  for (const _ of text) chars++
  return { lines, words, chars }
}
