// `.claude-plugin/marketplace.json` (claude-code-extensions.md §1(c), cc:plugin-marketplaces.md):
// `name`, `owner`, `plugins[]` required; each entry has `name` and `source` plus any plugin.json
// field. Sources Seam fetches: `./path` (or a bare name under `metadata.pluginRoot`), `github`,
// `url`, `git-subdir`, `npm`, `archive` (archive.ts), `command` (command-source.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { MarketplaceRefSchema, PluginNameSchema } from './manifest'

const Ref = { ref: z.string().min(1).optional(), sha: z.string().regex(/^[0-9a-f]{7,40}$/i, 'a commit sha: 7 to 40 hex digits').optional() }

export const PluginSourceSchema = z.union([
  z.string().min(1),
  z.discriminatedUnion('source', [
    z.object({ source: z.literal('github'), repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'owner/repo'), ...Ref }),
    z.object({ source: z.literal('url'), url: z.string().min(1), ...Ref }),
    z.object({ source: z.literal('git-subdir'), url: z.string().min(1), path: z.string().min(1), ...Ref }),
    z.object({ source: z.literal('npm'), package: z.string().min(1), version: z.string().min(1).optional(), registry: z.string().url().optional() }),
    z.object({ source: z.literal('archive'), url: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/i, 'a sha256: 64 hex digits').optional() }),
    z.object({ source: z.literal('command'), command: z.string().min(1), timeout: z.number().positive('seconds, more than 0').optional(), mode: z.enum(['copy', 'link']).optional() })
  ])
])
export type PluginSource = z.output<typeof PluginSourceSchema>

export const MarketplaceEntrySchema = z
  .object({
    name: PluginNameSchema,
    source: PluginSourceSchema,
    version: z.string().min(1).optional(),
    description: z.string().optional(),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
    strict: z.boolean().default(true),
    defaultEnabled: z.boolean().optional()
  })
  .passthrough()
export type MarketplaceEntry = z.output<typeof MarketplaceEntrySchema>

export const MarketplaceSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a marketplace name is kebab-case (lower-case letters, digits, "-")')
      .refine((name) => !RESERVED_MARKETPLACE_NAMES.has(name), 'this marketplace name is reserved by Anthropic'),
    owner: z.object({ name: z.string().min(1), email: z.string().optional(), url: z.string().optional() }),
    description: z.string().optional(),
    version: z.string().optional(),
    metadata: z.object({ pluginRoot: z.string().optional(), description: z.string().optional(), version: z.string().optional() }).passthrough().optional(),
    plugins: z.array(MarketplaceEntrySchema),
    /** Other marketplaces the dependencies of a plugin installed from this one may come from (README "Dependencies"). */
    allowCrossMarketplaceDependenciesOn: z.array(MarketplaceRefSchema).optional()
  })
  .passthrough()
export type Marketplace = z.output<typeof MarketplaceSchema>

/** Names Claude Code keeps for Anthropic's own marketplaces. */
const RESERVED_MARKETPLACE_NAMES = new Set(['claude-plugins-official', 'claude-code-marketplace', 'claude-code-plugins', 'anthropic-marketplace', 'anthropic-plugins', 'agent-skills'])

/** Where a marketplace comes from: `extraKnownMarketplaces[name].source` and what `marketplace add` records. */
export const MarketplaceSourceSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('directory'), path: z.string().min(1) }),
  z.object({ source: z.literal('github'), repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'owner/repo'), ref: z.string().optional() }),
  z.object({ source: z.literal('git'), url: z.string().min(1), ref: z.string().optional() }),
  z.object({ source: z.literal('url'), url: z.string().min(1) }),
  z.object({ source: z.literal('npm'), package: z.string().min(1), version: z.string().optional(), registry: z.string().optional() })
])
export type MarketplaceSource = z.output<typeof MarketplaceSourceSchema>

export const MARKETPLACE_FILE = join('.claude-plugin', 'marketplace.json')

/** Reads and checks the marketplace file under `root`; throws with the file and field named. */
export function readMarketplace(root: string): Marketplace {
  const file = join(root, MARKETPLACE_FILE)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(code === 'ENOENT' ? `${root} has no ${MARKETPLACE_FILE}` : `${file}: not valid JSON: ${(error as Error).message}`)
  }
  const parsed = MarketplaceSchema.safeParse(raw)
  if (!parsed.success) throw new Error(formatZodError(file, parsed.error))
  const names = new Set<string>()
  for (const [i, entry] of parsed.data.plugins.entries()) {
    if (names.has(entry.name)) throw new Error(`${file}: plugins[${i}].name: "${entry.name}" is listed twice`)
    names.add(entry.name)
  }
  return parsed.data
}
