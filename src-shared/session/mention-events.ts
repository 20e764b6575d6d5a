// Files the user mentioned with `@path` in a message: what was attached (the Read tool's text,
// which the model gets right after the message, as Claude Code sends a mentioned file) and what
// could not be (the reason, shown to the user only). Logged, so a resumed session rebuilds the
// same request. No Node imports: the host and the renderer read these schemas.
import { z } from 'zod'

const base = { seq: z.number().int().positive(), ts: z.number() }

export const MentionedFileShape = z.object({
  /** The path as typed after `@`. */
  mention: z.string().min(1),
  /** Absolute path it resolved to in the workspace. */
  path: z.string().min(1),
  /** What the Read tool returned for it (line-numbered text): present when attached. */
  content: z.string().optional(),
  /** Why it was not attached (missing, outside the workspace, binary, a directory, ...). */
  error: z.string().optional()
})
export type MentionedFile = z.infer<typeof MentionedFileShape>

export const MentionsAttachedEvent = z.object({
  type: z.literal('mentions/attached'),
  ...base,
  turnId: z.string(),
  files: z.array(MentionedFileShape)
})

/** What the model reads for the attached files: a Read call and its result per file, Claude Code's wording. Empty when none was attached. */
export function mentionedFilesText(files: readonly MentionedFile[]): string {
  return files
    .filter((file) => file.content !== undefined)
    .map((file) => `Called the Read tool with the following input: ${JSON.stringify({ file_path: file.path })}\n\nResult of calling the Read tool:\n${file.content}`)
    .join('\n\n')
}
