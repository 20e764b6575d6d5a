// The `structuredPatch` hunks Claude Code reports for Edit and Write: jsdiff's, with 3 lines of context.
import { structuredPatch as jsdiffPatch, type StructuredPatchHunk } from 'diff'

export type PatchHunk = StructuredPatchHunk

/**
 * Past this many inserted plus removed lines the diff (O(size × edits)) is not worked out: the
 * whole old file is reported as removed and the new one as added.
 */
const MAX_EDIT_LENGTH = 1000

export function structuredPatch(oldText: string, newText: string, context = 3, maxEditLength = MAX_EDIT_LENGTH): PatchHunk[] {
  const patch = jsdiffPatch('', '', oldText, newText, undefined, undefined, { context, maxEditLength })
  return patch ? patch.hunks : [replaceWhole(oldText, newText)]
}

function replaceWhole(oldText: string, newText: string): PatchHunk {
  const removed = sideLines(oldText, '-')
  const added = sideLines(newText, '+')
  return { oldStart: 1, oldLines: removed.count, newStart: 1, newLines: added.count, lines: [...removed.lines, ...added.lines] }
}

/** A file's lines with a sign, and jsdiff's marker after a last line that has no newline. */
function sideLines(text: string, sign: '-' | '+'): { count: number; lines: string[] } {
  if (text === '') return { count: 0, lines: [] }
  const lines = text.split('\n')
  const complete = lines[lines.length - 1] === ''
  if (complete) lines.pop()
  const signed = lines.map((line) => sign + line)
  return { count: lines.length, lines: complete ? signed : [...signed, '\\ No newline at end of file'] }
}
