// HTML to Markdown, the work the converter worker does (markdown-worker.ts). Two passes:
//  1. htmlparser2's tokenizer (linear, no tree) drops what a reader never sees (scripts, styles,
//     SVG, navigation, comments...) and stops once the visible text passes what WebFetch can use
//     (`maxChars`, plus a margin), so a 10 MB page is never parsed whole;
//  2. turndown (its own DOM parser, domino) turns what is left into Markdown.
// Markdown holds every visible non-space character (escaped or not), so once the visible text
// passed `maxChars + margin`, the Markdown of the kept part is longer than `maxChars` and its first
// `maxChars` characters are the whole page's (only the last element, closed early, differs).
import { Parser } from 'htmlparser2'
import TurndownService from 'turndown'

export interface HtmlMarkdown {
  markdown: string
  /** False when the page was cut before converting (its visible text went past the budget). */
  complete: boolean
}

/** Elements whose content no reader sees, or that only move between pages; dropped before parsing. */
export const DROPPED_ELEMENTS = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'head', 'title', 'svg', 'nav'] as const

/** Visible characters read past `maxChars` before cutting: the last element closed early changes only its own Markdown. */
export function cutMargin(maxChars: number): number {
  return Math.max(8192, Math.ceil(maxChars / 10))
}

let converter: TurndownService | undefined
function turndown(): TurndownService {
  if (converter) return converter
  converter = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
  // The same elements, should a page hide one from the first pass (turndown's types lack svg).
  converter.remove((node) => (DROPPED_ELEMENTS as readonly string[]).includes(node.nodeName.toLowerCase()))
  converter.escape = escapeMarkdown
  return converter
}

export function htmlToMarkdown(html: string, maxChars = Number.POSITIVE_INFINITY): HtmlMarkdown {
  const kept = visiblePart(html, maxChars)
  return { markdown: turndown().turndown(kept.html).trim(), complete: kept.complete }
}

/** The page without the dropped elements and comments, cut after `maxChars + margin` visible characters. */
export function visiblePart(html: string, maxChars: number): { html: string; complete: boolean } {
  const budget = maxChars + cutMargin(maxChars)
  const dropped = new Set<string>(DROPPED_ELEMENTS)
  const parts: string[] = []
  let from = 0
  let visible = 0
  let cutAt: number | undefined
  // The element being dropped: its name, where it starts, how deep same-named elements nest in it.
  let dropping: { name: string; start: number; depth: number } | undefined
  let ending = false
  const drop = (start: number, end: number) => {
    if (start > from) parts.push(html.slice(from, start))
    from = Math.max(from, end)
  }
  const parser: Parser = new Parser(
    {
      onopentag(name) {
        if (dropping) {
          if (name === dropping.name) dropping.depth++
        } else if (dropped.has(name)) {
          dropping = { name, start: parser.startIndex, depth: 1 }
        }
      },
      onclosetag(name, implied) {
        if (!dropping || name !== dropping.name || --dropping.depth > 0) return
        // An implied end (a void element, or one closed by its parent's end tag) ends where this token starts.
        // At the end of the page every open element closes: the dropped one runs to the end.
        const ownTag = parser.startIndex === dropping.start
        drop(dropping.start, ending ? html.length : implied && !ownTag ? parser.startIndex : parser.endIndex + 1)
        dropping = undefined
      },
      oncomment() {
        if (!dropping) drop(parser.startIndex, parser.endIndex + 1)
      },
      ontext(text) {
        if (dropping || cutAt !== undefined) return
        visible += countVisible(text)
        if (visible > budget) {
          cutAt = parser.endIndex + 1
          parser.pause()
        }
      }
    },
    { decodeEntities: true }
  )
  parser.write(html)
  if (cutAt === undefined) {
    ending = true
    parser.end()
  }
  const end = cutAt ?? html.length
  if (dropping) drop(dropping.start, end)
  if (end > from) parts.push(html.slice(from, end))
  return { html: parts.join(''), complete: cutAt === undefined }
}

function countVisible(text: string): number {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 32 && c !== 160) count++
  }
  return count
}

/**
 * turndown's own escaping (TurndownService.prototype.escape) in one pass instead of thirteen: the
 * characters it escapes anywhere, then the one line-start rule the first character can trigger.
 * A test compares the two on every such case.
 */
export function escapeMarkdown(text: string): string {
  const escaped = text.replace(/[\\*`[\]_]/g, '\\$&')
  switch (escaped.charCodeAt(0)) {
    case 45: // -
      return `\\${escaped}`
    case 43: // + followed by a space
      return escaped.startsWith('+ ') ? `\\${escaped}` : escaped
    case 61: // =
      return `\\${escaped}`
    case 35: // # to ######, then a space
      return /^#{1,6} /.test(escaped) ? `\\${escaped}` : escaped
    case 126: // ~~~
      return escaped.startsWith('~~~') ? `\\${escaped}` : escaped
    case 62: // >
      return `\\${escaped}`
    default:
      return escaped.replace(/^(\d+)\. /, '$1\\. ')
  }
}
