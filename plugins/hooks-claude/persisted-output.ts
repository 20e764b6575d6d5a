// Hook context too large to inline (claude-code-hooks.md §5 "Large outputs"): Claude Code saves
// the text to a file and gives the model a `<persisted-output>` stub with the file's path and a
// ~2 KB preview. Same wording, sizes and preview cut here.
import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Longest hook text passed inline (characters); longer ones are persisted. */
export const HOOK_OUTPUT_INLINE_LIMIT = 10_000
/** How much of a persisted text the stub previews. */
export const PERSISTED_PREVIEW_SIZE = 2_000

/** `text` as is when short; otherwise saved under `dir` and replaced by Claude Code's stub. */
export function persistIfLarge(text: string, dir: string): string {
  if (text.length <= HOOK_OUTPUT_INLINE_LIMIT) return text
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = path.join(dir, `hook-${randomUUID()}.txt`)
  writeFileSync(file, text, { mode: 0o600 })
  return persistedOutputStub(text, file)
}

export function persistedOutputStub(text: string, file: string): string {
  const { preview, hasMore } = previewOf(text, PERSISTED_PREVIEW_SIZE)
  return (
    '<persisted-output>\n' +
    `Output too large (${formatFileSize(text.length)}). Full output saved to: ${file}\n\n` +
    `Preview (first ${formatFileSize(PERSISTED_PREVIEW_SIZE)}):\n` +
    preview +
    (hasMore ? '\n...\n' : '\n') +
    '</persisted-output>'
  )
}

/** The first `max` characters, cut at the last newline when one falls in the second half. */
function previewOf(text: string, max: number): { preview: string; hasMore: boolean } {
  if (text.length <= max) return { preview: text, hasMore: false }
  const head = text.slice(0, max)
  const newline = head.lastIndexOf('\n')
  return { preview: text.slice(0, newline > max * 0.5 ? newline : max), hasMore: true }
}

/** `512 bytes`, `19.5KB`, `2KB`, `1.2MB`, as Claude Code writes sizes. */
export function formatFileSize(size: number): string {
  const kb = size / 1024
  if (kb < 1) return `${size} bytes`
  if (kb < 1024) return `${kb.toFixed(1).replace(/\.0$/, '')}KB`
  const mb = kb / 1024
  if (mb < 1024) return `${mb.toFixed(1).replace(/\.0$/, '')}MB`
  return `${(mb / 1024).toFixed(1).replace(/\.0$/, '')}GB`
}
