// What the model is told of the skills before it uses one (progressive disclosure): a listing of
// names and descriptions, as a system reminder, within a budget of about 1% of the model's context
// window (Claude Code's). When the listing is longer, the least-used skills lose their description
// first (name only), then, if still too long, the least-used names go, and a last line says how
// many were left out. The bodies are not in it: a body enters the conversation when the skill is
// invoked.
import type { Skill } from './discover'

export const LISTING_HEADER = 'The following skills are available for use with the Skill tool:'

export interface ListingOptions {
  /** Characters the entries may take (the budget in tokens times four). */
  budgetChars: number
  /** How often each skill was used (more used skills keep their descriptions longest). */
  uses(name: string): number
}

export interface Listing {
  /** Exactly what the model gets ('' when there is nothing to list). */
  text: string
  /** Skills listed with their description, by name only, and left out. */
  described: number
  nameOnly: number
  omitted: number
}

export function renderListing(skills: readonly Pick<Skill, 'name' | 'description'>[], options: ListingOptions): Listing {
  if (skills.length === 0) return { text: '', described: 0, nameOnly: 0, omitted: 0 }
  const entries = skills.map((skill) => ({ name: skill.name, description: skill.description, keepDescription: skill.description !== '', listed: true }))
  const line = (e: (typeof entries)[number]) => (e.keepDescription ? `- ${e.name}: ${e.description}` : `- ${e.name}`)
  let total = entries.reduce((sum, e) => sum + line(e).length + 1, 0)
  // Least used first; among equals, the later name goes first so the result does not depend on the input order.
  const cutOrder = [...entries].sort((a, b) => options.uses(a.name) - options.uses(b.name) || b.name.localeCompare(a.name))
  for (const entry of cutOrder) {
    if (total <= options.budgetChars) break
    if (!entry.keepDescription) continue
    const before = line(entry).length
    entry.keepDescription = false
    total -= before - line(entry).length
  }
  for (const entry of cutOrder) {
    if (total <= options.budgetChars) break
    entry.listed = false
    total -= line(entry).length + 1
  }
  const listed = entries.filter((e) => e.listed)
  const omitted = entries.length - listed.length
  const lines = listed.map(line)
  if (omitted > 0) lines.push(`(${omitted} more skill${omitted === 1 ? ' is' : 's are'} installed and not listed here for lack of room.)`)
  return {
    text: `${LISTING_HEADER}\n\n${lines.join('\n')}`,
    described: listed.filter((e) => e.keepDescription).length,
    nameOnly: listed.filter((e) => !e.keepDescription).length,
    omitted
  }
}
