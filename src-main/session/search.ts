// Searching sessions by title and content. Each session's searchable text (search-scan.ts) is
// kept in memory, checked against the file's size and mtime before use: an unchanged file is not
// read again, a grown one (the log is append-only) only from where the last scan ended. So the
// first search reads every session once, streaming, and later ones only what was appended since.
// Past a memory budget further sessions are not kept; they are streamed again on each search.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { scanSearchText, type SearchDoc, type SearchDocKind } from './search-scan'
import type { SessionSummary } from './summary'

export const SessionSearchOptionsSchema = z.object({
  query: z.string().trim().min(1).max(200),
  /** Only sessions of this workspace; omitted: every session. */
  workspace: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(500).optional()
})
export type SessionSearchOptions = z.input<typeof SessionSearchOptionsSchema>

/** Where a session's content matched: the event to jump to and a snippet around the words. */
export interface SessionSearchMatch {
  seq: number
  kind: SearchDocKind
  snippet: string
  /** Ranges of `snippet` (UTF-16 offsets, end exclusive) holding a query word. */
  highlights: Array<{ start: number; end: number }>
}

export interface SessionSearchResult extends SessionSummary {
  /** Every word of the query is in the title. */
  titleMatch: boolean
  /** The best content match (an event holding the most query words, the earliest first); absent when only the title matched. */
  match?: SessionSearchMatch
}

const DEFAULT_LIMIT = 100
const SCAN_CONCURRENCY = 16
const SNIPPET_CHARS = 140
const SNIPPET_LEAD = 40
/** At most this many occurrences of the first word are tried when looking for the best event. */
const MAX_CANDIDATES = 2000
/** UTF-16 units of text kept in memory across all sessions (about 2 bytes each, twice: as written and lowercased). */
export const DEFAULT_TEXT_BUDGET = 32 * 1024 * 1024
const SEPARATOR = '\u0000'

interface IndexedText {
  fileSize: number
  mtimeMs: number
  scannedTo: number
  docs: SearchDoc[]
  /** Every doc's text lowercased, joined by SEPARATOR; `starts[i]` is where doc i begins. */
  lower: string
  starts: number[]
}

export class SessionSearchIndex {
  private readonly entries = new Map<string, IndexedText>()
  private chars = 0

  constructor(private readonly budget = DEFAULT_TEXT_BUDGET) {}

  /** The session's searchable text, brought up to date with its file. Undefined when the file is gone. */
  async textOf(id: string, path: string): Promise<IndexedText | undefined> {
    let info
    try {
      info = await stat(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.drop(id)
      throw error
    }
    const cached = this.entries.get(id)
    if (cached !== undefined && cached.fileSize === info.size && cached.mtimeMs === info.mtimeMs) return cached
    // Append-only: a file that grew is read from where the last scan stopped; anything else again in full.
    const resume = cached !== undefined && info.size >= cached.scannedTo
    const scan = await scanSearchText(path, resume ? cached.scannedTo : 0, info.size)
    const next = resume ? extend(cached, scan.docs) : build(scan.docs)
    next.fileSize = info.size
    next.mtimeMs = info.mtimeMs
    next.scannedTo = scan.scannedTo
    this.drop(id)
    if (this.chars + next.lower.length <= this.budget) {
      this.entries.set(id, next)
      this.chars += next.lower.length
    }
    return next
  }

  /** Forgets sessions not in `ids` (deleted), with their subagents' logs (kept as `<id>/<agentId>`). */
  retainOnly(ids: ReadonlySet<string>): void {
    for (const key of [...this.entries.keys()]) if (!ids.has(key.split('/', 1)[0])) this.drop(key)
  }

  /** UTF-16 units held (for tests and the budget). */
  get size(): number {
    return this.chars
  }

  private drop(id: string): undefined {
    const old = this.entries.get(id)
    if (old !== undefined) {
      this.chars -= old.lower.length
      this.entries.delete(id)
    }
    return undefined
  }
}

function build(docs: SearchDoc[]): IndexedText {
  return extend({ fileSize: 0, mtimeMs: 0, scannedTo: 0, docs: [], lower: '', starts: [] }, docs)
}

function extend(base: IndexedText, docs: SearchDoc[]): IndexedText {
  const starts = base.starts.slice()
  const parts: string[] = [base.lower]
  let length = base.lower.length
  for (const doc of docs) {
    const separator = length > 0 ? SEPARATOR : ''
    starts.push(length + separator.length)
    const lower = doc.text.toLowerCase()
    parts.push(separator, lower)
    length += separator.length + lower.length
  }
  return { ...base, docs: base.docs.concat(docs), lower: parts.join(''), starts }
}

/** The query's words, lowercased; empty when it has none. */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))]
}

/**
 * Sessions whose title or content hold every word of the query (case-insensitive), in the order
 * of `summaries` (most recent activity first, as list() gives them).
 */
export async function searchSessions(
  index: SessionSearchIndex,
  summaries: readonly SessionSummary[],
  pathOf: (id: string) => string,
  options: SessionSearchOptions
): Promise<SessionSearchResult[]> {
  const { query, workspace, limit = DEFAULT_LIMIT } = SessionSearchOptionsSchema.parse(options)
  const words = queryWords(query)
  index.retainOnly(new Set(summaries.map((s) => s.id)))
  const candidates = summaries.filter((s) => s.error === undefined && (workspace === undefined || s.workspace === workspace))
  const results: SessionSearchResult[] = []
  for (let i = 0; i < candidates.length && results.length < limit; i += SCAN_CONCURRENCY) {
    const batch = await Promise.all(candidates.slice(i, i + SCAN_CONCURRENCY).map((summary) => matchSession(index, summary, pathOf(summary.id), words)))
    for (const result of batch) if (result !== undefined && results.length < limit) results.push(result)
  }
  return results
}

async function matchSession(index: SessionSearchIndex, summary: SessionSummary, path: string, words: string[]): Promise<SessionSearchResult | undefined> {
  const title = summary.title.toLowerCase()
  const titleMatch = words.every((word) => title.includes(word))
  const text = await index.textOf(summary.id, path)
  if (text === undefined) return undefined
  // A subagent's own log is part of its session: its text is searched too.
  const children = await subagentTexts(index, summary.id, path, text)
  // Every word somewhere in the title or the content.
  if (!words.every((word) => title.includes(word) || text.lower.includes(word) || children.some((child) => child.text.lower.includes(word)))) return undefined
  let match = bestMatch(text, words)
  for (const child of children) {
    if (match !== undefined && match.count === words.length) break
    const found = bestMatch(child.text, words)
    // Opening the session scrolls to the Agent call that ran the subagent.
    if (found !== undefined && (match === undefined || found.count > match.count)) match = { ...found, seq: child.seq }
  }
  if (!titleMatch && match === undefined) return undefined
  if (match === undefined) return { ...summary, titleMatch }
  const { count: _count, ...shown } = match
  return { ...summary, titleMatch, match: shown }
}

/** The searchable text of each subagent log the session's `subagent/start` events name, with the seq of that event. */
async function subagentTexts(index: SessionSearchIndex, id: string, path: string, text: IndexedText): Promise<Array<{ seq: number; text: IndexedText }>> {
  const starts = text.docs.filter((doc) => doc.agentId !== undefined)
  if (starts.length === 0) return []
  const folder = path.replace(/\.jsonl$/, '') + '.agents'
  let files: Set<string>
  try {
    files = new Set(await readdir(folder))
  } catch {
    return []
  }
  const out: Array<{ seq: number; text: IndexedText }> = []
  for (const start of starts) {
    const file = `${start.agentId}.jsonl`
    if (!files.has(file)) continue
    const child = await index.textOf(`${id}/${start.agentId}`, join(folder, file))
    if (child !== undefined) out.push({ seq: start.seq, text: child })
  }
  return out
}

/** The earliest event holding the most query words, with a snippet around the first of them (and how many words it holds). */
function bestMatch(text: IndexedText, words: string[]): (SessionSearchMatch & { count: number }) | undefined {
  let best = -1
  let bestCount = 0
  const lead = words.find((word) => text.lower.includes(word))
  if (lead === undefined) return undefined
  let at = text.lower.indexOf(lead)
  for (let tried = 0; at !== -1 && tried < MAX_CANDIDATES; tried++) {
    const doc = docAt(text.starts, at)
    const end = doc + 1 < text.starts.length ? text.starts[doc + 1] - SEPARATOR.length : text.lower.length
    const slice = text.lower.slice(text.starts[doc], end)
    const count = words.filter((word) => slice.includes(word)).length
    if (count > bestCount) {
      best = doc
      bestCount = count
      if (count === words.length) break
    }
    at = text.lower.indexOf(lead, end)
  }
  if (best === -1) return undefined
  const doc = text.docs[best]
  return { seq: doc.seq, kind: doc.kind, count: bestCount, ...snippetOf(doc.text, words) }
}

/** Index of the doc containing offset `at` of the joined text. */
function docAt(starts: readonly number[], at: number): number {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if (starts[mid] <= at) low = mid
    else high = mid - 1
  }
  return low
}

/** About SNIPPET_CHARS of `text` around the first query word, whitespace collapsed, with the words' ranges. */
export function snippetOf(text: string, words: readonly string[]): { snippet: string; highlights: Array<{ start: number; end: number }> } {
  const pattern = new RegExp(words.map(escapeRegExp).join('|'), 'giu')
  const first = pattern.exec(text)
  pattern.lastIndex = 0
  const from = first === null ? 0 : Math.max(0, first.index - SNIPPET_LEAD)
  const to = Math.min(text.length, from + SNIPPET_CHARS)
  let snippet = text.slice(safeStart(text, from), safeEnd(text, to)).replace(/\s+/g, ' ').trim()
  if (from > 0) snippet = `…${snippet}`
  if (to < text.length) snippet = `${snippet}…`
  const highlights: Array<{ start: number; end: number }> = []
  for (const found of snippet.matchAll(pattern)) highlights.push({ start: found.index, end: found.index + found[0].length })
  return { snippet, highlights }
}

/** Never cut a surrogate pair in half. */
function safeStart(text: string, at: number): number {
  return at > 0 && isLowSurrogate(text.charCodeAt(at)) ? at - 1 : at
}

function safeEnd(text: string, at: number): number {
  return at < text.length && isLowSurrogate(text.charCodeAt(at)) ? at + 1 : at
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
