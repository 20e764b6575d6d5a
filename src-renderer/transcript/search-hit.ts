// Showing a search match in the transcript: which row holds the matched event, and marking the
// query's words in it with the CSS Custom Highlight API (no change to the rendered Markdown; where
// the API is missing, the row's outline alone shows the match).
import type { TranscriptItem } from './transcript-types'

const HIGHLIGHT = 'seam-search'

/** The row of the event `seq`: the last row that starts at or before it (a tool card covers its result). */
export function rowIndexForSeq(items: readonly TranscriptItem[], seq: number): number {
  let best = -1
  for (let i = 0; i < items.length; i++) {
    const at = items[i].seq
    if (at <= seq && (best < 0 || at >= items[best].seq)) best = i
  }
  return best
}

interface HighlightRegistry {
  set(name: string, highlight: unknown): void
  delete(name: string): void
}

/** Marks every occurrence of `words` (lowercase) in the marked row under `root`; no words clears the marks. */
export function markWords(root: HTMLElement | null, words: readonly string[]): void {
  const registry = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS?.highlights
  const HighlightClass = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight
  if (!registry || !HighlightClass) return
  const row = root?.querySelector('[data-search-hit]')
  if (!row || words.length === 0) {
    registry.delete(HIGHLIGHT)
    return
  }
  const ranges: Range[] = []
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const raw = node.textContent ?? ''
    const text = raw.toLowerCase()
    if (text.length !== raw.length) continue // lowercasing moved the offsets (rare scripts): leave this node unmarked
    for (const word of words) {
      for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) {
        const range = document.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + word.length)
        ranges.push(range)
      }
    }
  }
  registry.set(HIGHLIGHT, new HighlightClass(...ranges))
}
