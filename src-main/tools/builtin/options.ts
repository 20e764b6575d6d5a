// The built-in tools' tunables, validated once when the tools are built (misconfiguration fails
// at load, naming the field). Every field has a documented default.
import { z } from 'zod'
import { parseOrThrow } from '../../../src-shared/validation'

export const BuiltinToolOptionsSchema = z.object({
  /** Characters of a tool's text result the model sees before head+tail truncation (Bash, Grep). */
  maxOutputChars: z.number().int().min(1000).default(30_000),
  /** Bash: deadline when the call gives no `timeout`. */
  bashDefaultTimeoutMs: z.number().int().positive().default(120_000),
  /** Bash: the largest `timeout` a call may ask for. */
  bashMaxTimeoutMs: z.number().int().positive().default(600_000),
  /** Bash: time between SIGTERM and SIGKILL of the command's process group. */
  bashKillGraceMs: z.number().int().min(0).default(2_000),
  /** Read: lines returned when the call gives no `limit`. */
  readDefaultLimit: z.number().int().positive().default(2_000),
  /** Read and Grep: longer lines are cut to this many characters. */
  maxLineChars: z.number().int().positive().default(2_000),
  /** Glob: paths listed at most. */
  globMaxResults: z.number().int().positive().default(1_000),
  /** Glob and Grep: leave out what .gitignore, .ignore and .rgignore exclude (a call's `include_ignored` overrides it). */
  respectIgnoreFiles: z.boolean().default(true),
  /** Grep: larger files are skipped. */
  grepMaxFileBytes: z.number().int().positive().default(5 * 1024 * 1024)
})

export type BuiltinToolOptions = z.output<typeof BuiltinToolOptionsSchema>
export type BuiltinToolOptionsInput = z.input<typeof BuiltinToolOptionsSchema>

export function resolveBuiltinToolOptions(input: BuiltinToolOptionsInput = {}): BuiltinToolOptions {
  return parseOrThrow(BuiltinToolOptionsSchema, input, 'built-in tool options')
}
