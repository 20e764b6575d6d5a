// What a profile is made of: entries naming a plugin from the catalog, each with an id that
// patches target. The catalog maps plugin keys ('builtin:tools', 'bundle:<package name>') to the
// plugin objects the host can apply.
import { z } from 'zod'
import type { Plugin } from '../../src-shared/kernel'

export interface ProfileEntry {
  /** Unique within a profile; what patch rows name. */
  id: string
  /** A key into the plugin catalog, e.g. `builtin:tools` or `bundle:@acme/lint`. */
  plugin: string
  config?: unknown
  disabled?: boolean
}

/** An entry after composition, with the layer (`file:line`) that last defined or changed it. */
export interface ComposedEntry extends ProfileEntry {
  origin: string
}

export interface CatalogEntry {
  plugin: Plugin
  source: 'builtin' | 'bundle'
  /** For bundles: the installed package. */
  bundle?: { name: string; version: string; dir: string }
}

export type PluginCatalog = ReadonlyMap<string, CatalogEntry>

/** Ids are what patch rows name: a letter or digit first, then letters, digits and `_ . : @ / -`. */
export const entryIdSchema = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.:@/-]*$/, 'an id starts with a letter, digit or _ and holds only letters, digits and _ . : @ / -')

export const profileEntrySchema = z.strictObject({
  id: entryIdSchema,
  plugin: z.string().min(1),
  config: z.unknown().optional(),
  disabled: z.boolean().optional()
})

/** Thrown when a profile or a patch layer cannot be composed; the message names the file and line. */
export class ProfileError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly field?: string
  ) {
    super(message)
    this.name = 'ProfileError'
  }
}
