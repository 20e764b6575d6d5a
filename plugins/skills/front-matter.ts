// One SKILL.md: its YAML front matter checked with zod (every field optional, as Claude Code's;
// `name` and `description` are the portable ones), and the Markdown body. A file that cannot be
// read, whose front matter is not YAML or whose field has the wrong type is a problem naming the
// file and the field, and the skill is skipped.
import { z } from 'zod'
import { parseFrontMatter, splitRules } from '@seam/sdk/node'
import { parsePermissionRule } from '../hook-protocol/index'

/** Claude Code caps `description` and `when_to_use` together at this many characters in the listing. */
export const MAX_DESCRIPTION_CHARS = 1536

/** A comma-separated string or a YAML list (`allowed-tools`, `paths`). */
const StringList = z.union([z.string(), z.array(z.string())])

const PermissionRules = StringList.transform((value) => (typeof value === 'string' ? splitRules(value) : value.map((rule) => rule.trim()).filter(Boolean))).superRefine((rules, check) => {
  for (const rule of rules) if (!parsePermissionRule(rule).ok) check.addIssue({ code: 'custom', message: `"${rule}" is not a permission rule (Tool or Tool(specifier))` })
})

const ArgumentNames = StringList.transform((value) => (typeof value === 'string' ? value.split(/\s+/) : value.map((name) => name.trim())).filter(Boolean)).superRefine((names, check) => {
  for (const name of names) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) check.addIssue({ code: 'custom', message: `"${name}" is not an argument name (letters, digits and _, not starting with a digit)` })
})

const Globs = StringList.transform((value) => (typeof value === 'string' ? value.split(',') : value).map((glob) => glob.trim()).filter(Boolean))

export const SkillFrontMatterSchema = z.object({
  name: z.string().trim().min(1).max(64).optional(),
  description: z.string().optional(),
  when_to_use: z.string().optional(),
  'argument-hint': z.string().optional(),
  arguments: ArgumentNames.optional(),
  'disable-model-invocation': z.boolean().optional(),
  'user-invocable': z.boolean().optional(),
  'allowed-tools': PermissionRules.optional(),
  'disallowed-tools': PermissionRules.optional(),
  model: z.string().trim().min(1).optional(),
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max'], { message: 'must be low, medium, high, xhigh or max' }).optional(),
  context: z.literal('fork', { message: 'the only value is "fork" (run the skill as a subagent)' }).optional(),
  agent: z.string().trim().min(1).optional(),
  background: z.boolean().optional(),
  hooks: z.record(z.string(), z.unknown()).optional(),
  paths: Globs.optional(),
  shell: z.enum(['bash', 'powershell'], { message: 'must be bash or powershell' }).optional(),
  // Accepted and not acted on (the agentskills.io fields besides name and description).
  license: z.string().optional(),
  compatibility: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  metadata: z.record(z.string(), z.unknown()).optional()
})
export type SkillFrontMatter = z.output<typeof SkillFrontMatterSchema>

export interface ParsedSkillFile {
  front: SkillFrontMatter
  body: string
}

/** What keeps a file from being a skill: the message names the field when one is at fault. */
export interface SkillFileProblem {
  field?: string
  message: string
}

export function parseSkillText(text: string): ParsedSkillFile | SkillFileProblem {
  return parseFrontMatter(text, SkillFrontMatterSchema)
}

/** The description the listing shows: `description` (else the body's first paragraph) and `when_to_use`, capped. */
export function listingDescription(front: SkillFrontMatter, body: string): string {
  const description = front.description?.trim() || firstParagraph(body)
  const joined = [description, front.when_to_use?.trim()].filter(Boolean).join(' - ')
  return joined.length > MAX_DESCRIPTION_CHARS ? `${joined.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : joined
}

function firstParagraph(body: string): string {
  const lines: string[] = []
  for (const line of body.split(/\r?\n/)) {
    const text = line.trim()
    if (text === '') {
      if (lines.length > 0) break
      continue
    }
    if (/^#+\s/.test(text) && lines.length === 0) continue
    lines.push(text)
  }
  return lines.join(' ')
}
