// Durable events about the files a session's tools change, and how the user took changes back:
// a checkpoint of each file before a file-changing tool touches it (`file/checkpoint`, synced to
// the device before the tool runs), the file as the tool left it (`file/changed`), a revert of a
// file or a whole turn (`revert`), and a rewind of the conversation to an earlier prompt
// (`rewind`, which the model history honours). A revert or rewind is journaled: `restore/journal`
// (synced before the first file is touched) says what it will do, the `revert`/`rewind` event
// naming it (`journalSeq`) says it is done. Contents live in the session's blob folder, named by
// their sha256; the events only reference them.
// No Node imports here: these schemas are read by the host and the renderer alike.
import { z } from 'zod'

const base = { seq: z.number().int().positive(), ts: z.number() }
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest')

/**
 * A file's state at one moment. `file`: its bytes are kept in the blob folder under `sha256`.
 * `absent`: there was no file. `unsaved`: there was something the checkpoint could not keep
 * (bigger than the size cap, not a regular file, unreadable): `reason` says what, and nothing can
 * be restored to it.
 */
export const FileStateShape = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), sha256: Sha256, size: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('absent') }),
  z.object({ kind: z.literal('unsaved'), reason: z.string().min(1), size: z.number().int().nonnegative().optional() })
])
export type FileState = z.infer<typeof FileStateShape>

/** The file before a file-changing call runs; written and synced before the tool starts. */
export const FileCheckpointEvent = z.object({
  type: z.literal('file/checkpoint'),
  ...base,
  turnId: z.string().optional(),
  callId: z.string(),
  /** The sealed call's token (pairs the checkpoint with its tool/call and tool/result). */
  token: z.string(),
  tool: z.string(),
  /** Absolute path. */
  path: z.string().min(1),
  before: FileStateShape
})

/** The file as the call left it (the same as `before` when the call failed or changed nothing). */
export const FileChangedEvent = z.object({
  type: z.literal('file/changed'),
  ...base,
  turnId: z.string().optional(),
  callId: z.string(),
  token: z.string(),
  tool: z.string(),
  path: z.string().min(1),
  after: FileStateShape
})

/** One file put back: what it holds now (`to`) and what it held just before (`replaced`, kept too). */
export const RestoredFileShape = z.object({
  path: z.string().min(1),
  to: FileStateShape,
  replaced: FileStateShape,
  /** The file had changed since the turn (by the user or a later turn) and the user confirmed. */
  conflict: z.boolean()
})
export type RestoredFile = z.infer<typeof RestoredFileShape>

/** Files of one turn put back as they were before it: one file (`scope: file`) or all (`turn`). */
export const RevertEvent = z.object({
  type: z.literal('revert'),
  ...base,
  /** The `restore/journal` this commits (absent in logs written before restores were journaled). */
  journalSeq: z.number().int().positive().optional(),
  scope: z.enum(['file', 'turn']),
  /** The turn whose changes were taken back. */
  turnId: z.string(),
  files: z.array(RestoredFileShape)
})

/**
 * The conversation rewound to before the user message at `toSeq`: every event from `toSeq` up to
 * this one leaves the model history (the log keeps them; the UI greys them out), and the files
 * changed since were restored. `prompt` is the message's text, handed back to the composer.
 */
export const RewindEvent = z.object({
  type: z.literal('rewind'),
  ...base,
  /** The `restore/journal` this commits (absent in logs written before restores were journaled). */
  journalSeq: z.number().int().positive().optional(),
  toSeq: z.number().int().positive(),
  /** The turn the message opened. */
  turnId: z.string(),
  prompt: z.string(),
  files: z.array(RestoredFileShape)
})

/** Temp files of a journaled restore are named `.<name>.seam-restore-<tag>.tmp`: recognisably Seam's, and this restore's. */
export const RestoreTag = z.string().regex(/^[0-9a-f]{16}$/, 'expected 16 hex digits')

/**
 * A revert or rewind about to change files (the journal): every file with the state it will be
 * put in (`to`) and the state it is in now (`replaced`, kept as a blob), synced before the first
 * file is touched. Until the `revert`/`rewind` event whose `journalSeq` is this event's seq is
 * logged, the restore is unfinished: loading the session finishes it (src-main/checkpoints/recovery.ts).
 * The model history and the file states the log knows ignore it; only its commit counts.
 */
export const RestoreJournalEvent = z.object({
  type: z.literal('restore/journal'),
  ...base,
  /** What the commit will be: `revert` (with its scope) or `rewind` (with the message and its text). */
  operation: z.discriminatedUnion('type', [
    z.object({ type: z.literal('revert'), scope: z.enum(['file', 'turn']), turnId: z.string() }),
    z.object({ type: z.literal('rewind'), toSeq: z.number().int().positive(), turnId: z.string(), prompt: z.string() })
  ]),
  tag: RestoreTag,
  files: z.array(RestoredFileShape)
})

export const CheckpointSessionEvents = [FileCheckpointEvent, FileChangedEvent, RevertEvent, RewindEvent, RestoreJournalEvent] as const
