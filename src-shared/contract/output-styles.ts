// The contract's output style methods, answered by src-main/app/output-style-handlers.ts through
// the `outputStyles` service of plugins/output-styles: every style the window's workspace offers
// (built-in, project, user, plugins) with the one in force, and the switch, which saves the
// `outputStyle` setting as Claude Code does and applies from the next turn.
import { z } from 'zod'

export const OutputStyleEntrySchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  /** `built-in`, `project`, `user` or `plugin:<name>`. */
  source: z.string(),
  file: z.string().optional()
})
export type OutputStyleEntryView = z.output<typeof OutputStyleEntrySchema>

export const OutputStylesViewSchema = z.object({
  /** false: the output-styles entry is off; the rest is empty. */
  available: z.boolean(),
  styles: z.array(OutputStyleEntrySchema),
  current: z.string(),
  setting: z.object({ value: z.string(), file: z.string() }).optional(),
  /** The settings file a switch writes. */
  saveTo: z.string(),
  problems: z.array(z.string())
})
export type OutputStylesViewData = z.output<typeof OutputStylesViewSchema>

export const OutputStyleMethods = {
  /** Every output style of the window's workspace and the one in force. */
  'outputStyles/list': { input: z.object({}).strict(), output: OutputStylesViewSchema },
  /** Saves `outputStyle` (refused, field `name`, when no style has that name); in force from the next turn. */
  'outputStyles/select': { input: z.object({ name: z.string().trim().min(1).max(200) }).strict(), output: OutputStylesViewSchema }
} as const
