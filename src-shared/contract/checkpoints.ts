// The contract's part for file checkpoints: a turn's changed files with their contents, reverting
// a file or a turn, and rewinding the conversation to an earlier message (src-main/checkpoints).
import { z } from 'zod'

const SessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a session id')
const TurnId = z.string().min(1).max(200)

/** A file's content as the UI can show it. */
export const FileTextSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('absent') }),
  /** Bytes that are not UTF-8 text, or text too long to send for a diff. */
  z.object({ kind: z.literal('binary'), size: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('too-large'), size: z.number().int().nonnegative() }),
  /** Nothing was kept (over the checkpoint limit, unreadable) or the blob is gone: why. */
  z.object({ kind: z.literal('unavailable'), reason: z.string() })
])
export type FileText = z.output<typeof FileTextSchema>

export const TurnFileChangeSchema = z.object({
  path: z.string(),
  before: FileTextSchema,
  after: FileTextSchema,
  tools: z.array(z.string()),
  /** current: the file is as the turn left it; reverted: as it was before the turn; changed: something changed it since. */
  status: z.enum(['current', 'reverted', 'changed']),
  /** For `changed`: the file now. */
  current: FileTextSchema.optional(),
  /** False when the state before the turn was not kept; `reason` says why. */
  revertible: z.boolean(),
  reason: z.string().optional()
})
export type TurnFileChange = z.output<typeof TurnFileChangeSchema>

/** One file a revert or rewind puts back. `conflict`: it changed since what the log knows (`expected`), shown as `current`. */
export const RestorePlanFileSchema = z.object({
  path: z.string(),
  to: FileTextSchema,
  expected: FileTextSchema,
  current: FileTextSchema,
  conflict: z.boolean()
})
export type RestorePlanFile = z.output<typeof RestorePlanFileSchema>

/**
 * preview: nothing changed yet, here is what would be; conflict: nothing changed, some files
 * changed since (ask, then call again with `force`); done: the files are back and the event is logged.
 */
export const RestoreOutcomeSchema = z.object({
  status: z.enum(['preview', 'conflict', 'done']),
  files: z.array(RestorePlanFileSchema),
  /** Files that cannot be put back, with the reason (no checkpoint kept, already as before). */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  /** Rewind: the message's text, for the composer. */
  prompt: z.string().optional()
})
export type RestoreOutcome = z.output<typeof RestoreOutcomeSchema>

export const CheckpointMethods = {
  /** The files a turn changed, with their contents before and after it and now. */
  'checkpoints/changes': {
    input: z.object({ sessionId: SessionId, turnId: TurnId }).strict(),
    output: z.object({ turnId: z.string(), files: z.array(TurnFileChangeSchema) })
  },
  /** Puts one file (`path`) or every file of a turn back as it was before the turn. */
  'checkpoints/revert': {
    input: z.object({ sessionId: SessionId, turnId: TurnId, path: z.string().min(1).max(4096).optional(), force: z.boolean().optional(), preview: z.boolean().optional() }).strict(),
    output: RestoreOutcomeSchema
  },
  /** Rewinds the conversation to before the user message at `messageSeq`, restoring the files changed since. */
  'checkpoints/rewind': {
    input: z.object({ sessionId: SessionId, messageSeq: z.number().int().positive(), force: z.boolean().optional(), preview: z.boolean().optional() }).strict(),
    output: RestoreOutcomeSchema
  }
} as const
