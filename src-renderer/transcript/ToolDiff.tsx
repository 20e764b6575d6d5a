// The change an Edit or Write made, from its structured result: a line diff with context.
import { memo, useMemo } from 'react'
import { z } from 'zod'
import { applyEdit, diffHunks, diffLines, patchHunks, splitLines, wordChanges, type DiffHunk } from './line-diff'

const EditResult = z.object({ filePath: z.string(), oldString: z.string(), newString: z.string(), originalFile: z.string(), replaceAll: z.boolean().optional() })
const WriteResult = z.object({ type: z.enum(['create', 'update']), filePath: z.string(), content: z.string(), originalFile: z.string().nullable() })

const MAX_LINES = 400

/** Before/after text of a file change, or null when the result is not an Edit or Write change. */
export function fileChange(name: string, structured: unknown): { filePath: string; before: string; after: string } | null {
  if (name === 'Edit') {
    const edit = EditResult.safeParse(structured)
    if (!edit.success) return null
    const { filePath, originalFile, oldString, newString, replaceAll } = edit.data
    return { filePath, before: originalFile, after: applyEdit(originalFile, oldString, newString, replaceAll ?? false) }
  }
  if (name === 'Write') {
    const write = WriteResult.safeParse(structured)
    if (!write.success) return null
    return { filePath: write.data.filePath, before: write.data.originalFile ?? '', after: write.data.content }
  }
  return null
}

export const ToolDiff = memo(function ToolDiff({ name, structured }: { name: string; structured: unknown }) {
  const change = useMemo(() => fileChange(name, structured), [name, structured])
  if (!change) return null
  return <FileDiff {...change} />
})

/** A line diff of one file's before/after text, with its path (also used by the approval dialog). */
export const FileDiff = memo(function FileDiff({ filePath, before, after, label }: { filePath: string; before: string; after: string; label?: string }) {
  const hunks = useMemo(() => diffHunks(diffLines(before, after)), [before, after])
  const created = before === '' && splitLines(after).length > 0
  return (
    <div className="diff" aria-label={label ?? `Changes to ${filePath}`} role="group">
      <div className="diff-file">{created ? 'new file ' : ''}<code>{filePath}</code></div>
      {hunks.length === 0 ? <div className="muted small">no changes</div> : <Hunks hunks={hunks} />}
    </div>
  )
})

/** A file's unified patch from git (a worktree session's review), in the same viewer. */
export const PatchDiff = memo(function PatchDiff({ filePath, patch, label }: { filePath: string; patch: string; label?: string }) {
  const hunks = useMemo(() => patchHunks(patch), [patch])
  return (
    <div className="diff" aria-label={label ?? `Changes to ${filePath}`} role="group">
      <div className="diff-file"><code>{filePath}</code></div>
      {hunks.length === 0 ? <div className="muted small">no textual changes</div> : <Hunks hunks={hunks} />}
    </div>
  )
})

function Hunks({ hunks }: { hunks: DiffHunk[] }) {
  let budget = MAX_LINES
  let hidden = 0
  const rendered = hunks.map((hunk, h) => {
    const lines = hunk.lines.slice(0, Math.max(0, budget))
    hidden += hunk.lines.length - lines.length
    budget -= lines.length
    if (lines.length === 0) return null
    const words = wordChanges(lines)
    return (
      <div key={h} className="diff-hunk">
        {hunk.skipped > 0 && <div className="diff-skip">⋯ {hunk.skipped} unchanged line{hunk.skipped === 1 ? '' : 's'}</div>}
        {lines.map((line, i) => (
          <div key={i} className={`diff-line ${line.kind}`}>
            <span className="diff-no">{line.oldNo ?? ''}</span>
            <span className="diff-no">{line.newNo ?? ''}</span>
            <span className="diff-sign">{line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}</span>
            <span className="diff-text">
              {words.get(i)?.map((segment, s) => (segment.changed ? <span key={s} className="diff-word">{segment.text}</span> : segment.text)) ?? line.text}
            </span>
          </div>
        ))}
      </div>
    )
  })
  return (
    <div className="diff-body">
      {rendered}
      {hidden > 0 && <div className="diff-skip">… {hidden} more changed lines not shown</div>}
    </div>
  )
}
