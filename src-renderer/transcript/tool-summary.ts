// The one-line summary of a tool card, as Claude Code's desktop app shows a call: what it acted on
// (a file, a command, a pattern, a URL; shortened) and what came of it ("+12 −3", "exit 0",
// "24 matches", the error's first line).
import { fileChange } from './ToolDiff'
import { lineCounts, shortPath } from './file-text'
import type { ToolCardItem, ToolStatus } from './transcript-types'

export type SummaryTone = 'success' | 'danger' | 'warning' | 'muted'

export interface ResultSummary {
  text: string
  tone: SummaryTone
}

const MAX_TARGET = 120

/** What the call acts on, in one short line; '' when its arguments name nothing. */
export function toolTarget(args: Record<string, unknown>, workspace: string | undefined): string {
  const pick = (key: string) => (typeof args[key] === 'string' && args[key] !== '' ? (args[key] as string) : undefined)
  const path = pick('file_path') ?? pick('notebook_path')
  let text = pick('command') ?? (path !== undefined ? shortPath(path, workspace) : undefined)
  if (text === undefined && pick('pattern') !== undefined) {
    const where = pick('path') ?? pick('glob')
    text = where ? `${pick('pattern')} in ${shortPath(where, workspace)}` : pick('pattern')
  }
  text ??= shortUrl(pick('url')) ?? pick('query') ?? pick('description') ?? pick('prompt') ?? (pick('path') !== undefined ? shortPath(pick('path')!, workspace) : '')
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > MAX_TARGET ? `${line.slice(0, MAX_TARGET - 1)}…` : line
}

/** What came of the call; null while nothing has (a queued, running or waiting call says so in its badge). */
export function resultSummary(item: ToolCardItem, status: ToolStatus): ResultSummary | null {
  const result = item.result
  if (status === 'denied') return { text: firstLine(item.statusReason ?? result?.content ?? 'denied'), tone: 'warning' }
  if (!result) return null
  if (status === 'timeout') return { text: 'timed out', tone: 'danger' }
  if (result.isError) {
    const exit = /^Exit code (\d+)/.exec(result.content)
    if (item.name === 'Bash' && exit) return { text: `exit ${exit[1]}`, tone: 'danger' }
    return { text: firstLine(result.content) || 'error', tone: 'danger' }
  }
  return successSummary(item.name, result.structured, result.content)
}

function successSummary(name: string, structured: unknown, content: string): ResultSummary {
  const change = fileChange(name, structured)
  if (change) {
    const { added, removed } = lineCounts(change.before, change.after)
    return { text: `+${added} −${removed}`, tone: 'success' }
  }
  const data = (typeof structured === 'object' && structured !== null ? structured : {}) as Record<string, unknown>
  const count = (n: unknown, one: string, many: string) => (typeof n === 'number' ? `${n.toLocaleString()} ${n === 1 ? one : many}` : undefined)
  switch (name) {
    case 'Bash':
      if (typeof data.backgroundTaskId === 'string') return { text: `in background (${data.backgroundTaskId})`, tone: 'muted' }
      return { text: data.interrupted === true ? 'interrupted' : 'exit 0', tone: data.interrupted === true ? 'warning' : 'muted' }
    case 'Read': {
      const file = data.file as { numLines?: unknown } | undefined
      return { text: count(file?.numLines, 'line', 'lines') ?? sizeOf(content), tone: 'muted' }
    }
    case 'Grep':
      return { text: count(data.numMatches, 'match', 'matches') ?? count(data.numLines, 'line', 'lines') ?? count(data.numFiles, 'file', 'files') ?? sizeOf(content), tone: 'muted' }
    case 'Glob':
      return { text: count(data.numFiles, 'file', 'files') ?? sizeOf(content), tone: 'muted' }
    default:
      return { text: sizeOf(content), tone: 'muted' }
  }
}

function sizeOf(content: string): string {
  if (content === '') return 'no output'
  const lines = content.split('\n').length
  return lines > 1 ? `${lines.toLocaleString()} lines` : firstLine(content)
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0].trim()
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}

function shortUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined
  try {
    const parsed = new URL(url)
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    return url // not a URL after all: shown as given
  }
}
