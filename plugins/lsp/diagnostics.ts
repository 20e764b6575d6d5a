// Diagnostics a server published after an Edit or Write, as the model reads them: only the ones
// that are new since the file's previous publication, in a `<new-diagnostics>` block (the loop
// wraps it in a system reminder, as Claude Code delivers its diagnostics).
import { relative } from 'node:path'
import type { Diagnostic } from 'vscode-languageserver-protocol/node.js'

const SYMBOL: Record<number, string> = { 1: '✘', 2: '⚠', 3: 'ℹ', 4: '★' }

/** Same problem at the same place: the key a diagnostic is compared by. */
function keyOf(d: Diagnostic): string {
  return JSON.stringify([d.severity ?? 1, d.message, d.code ?? null, d.source ?? null, d.range.start.line, d.range.start.character])
}

/** The diagnostics of `after` that were not in `before`. */
export function newDiagnostics(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set(before.map(keyOf))
  return after.filter((d) => !seen.has(keyOf(d)))
}

export function formatDiagnostic(d: Diagnostic): string {
  const code = d.code !== undefined ? ` [${d.code}]` : ''
  const source = d.source !== undefined ? ` (${d.source})` : ''
  return `  ${SYMBOL[d.severity ?? 1] ?? '✘'} [Line ${d.range.start.line + 1}:${d.range.start.character + 1}] ${d.message}${code}${source}`
}

/** The block the model gets for one file's new diagnostics; `cwd` makes the path relative. */
export function diagnosticsBlock(file: string, cwd: string, diagnostics: readonly Diagnostic[]): string {
  const shown = relative(cwd, file)
  const lines = diagnostics.map(formatDiagnostic)
  return `<new-diagnostics>The following new diagnostic issues were detected:\n\n${shown.startsWith('..') ? file : shown}:\n${lines.join('\n')}\n</new-diagnostics>`
}
