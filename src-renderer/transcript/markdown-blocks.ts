// Splits Markdown into top-level blocks that can be parsed on their own, so an assistant message
// is parsed block by block and each block is memoised: while it streams only its last block is
// parsed again on each frame, and when it ends the finished message reuses every block instead of
// parsing the whole text again.
//
// Parsed one by one, the blocks must render as the whole text would. A block is a run of lines
// between blank lines outside code fences (splitMarkdownBlocks); markdownBlocks then joins back
// what CommonMark would carry across a blank line: an indented block (a list item's next
// paragraph, indented code) and a list item after a list (one loose list, not two). Text with link
// reference or footnote definitions, or with HTML blocks that may span blank lines, stays whole.

const FENCE = /^\s{0,3}(`{3,}|~{3,})/
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,9}[.)])(?:\s|$)/
const WHOLE_ONLY = /^\s{0,3}(?:\[\^?[^\]\n]+\]:|<(?:script|pre|style|textarea)(?:\s|>|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\[)/im

/** Runs of lines between blank lines outside code fences (an unterminated fence keeps the rest). */
export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = []
  let current: string[] = []
  let fence: string | null = null
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line)?.[1]
    if (marker) {
      if (fence === null) fence = marker[0].repeat(marker.length)
      else if (marker.startsWith(fence)) fence = null
    }
    if (fence === null && line.trim() === '' && current.length > 0) {
      blocks.push(current.join('\n'))
      current = []
      continue
    }
    if (line.trim() !== '' || current.length > 0) current.push(line)
  }
  if (current.length > 0) blocks.push(current.join('\n'))
  return blocks
}

/** Blocks that render, one by one, as `text` renders whole. */
export function markdownBlocks(text: string): string[] {
  if (WHOLE_ONLY.test(text)) return text.trim() === '' ? [] : [text]
  const blocks: string[] = []
  let listOpen = false
  for (const block of splitMarkdownBlocks(text)) {
    const first = block.split('\n', 1)[0]
    const continues: boolean = blocks.length > 0 && (/^\s/.test(first) || (listOpen && LIST_ITEM.test(first)))
    if (continues) blocks[blocks.length - 1] += `\n\n${block}`
    else blocks.push(block)
    listOpen = (continues && listOpen) || block.split('\n').some((line) => LIST_ITEM.test(line))
  }
  return blocks
}
