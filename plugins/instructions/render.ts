// The text the model gets for delivered instructions files, as a user-side system reminder before
// the next prompt (where Claude Code puts memory files). Seam's own wording.
import type { InstructionsFile, InstructionsMemoryType } from '@seam/sdk'

const KIND: Record<InstructionsMemoryType, string> = {
  User: "the user's own instructions for every project",
  Project: 'project instructions, checked into the codebase',
  Local: "the user's private instructions for this project, not checked in",
  CodexHome: "the user's own AGENTS.md for every project",
  Agents: 'project AGENTS.md'
}

const PREAMBLE =
  'The user and the project give the instructions below. Follow them: they take precedence over your default behaviour. Files that come later are more specific.'
const CHANGED_PREAMBLE = 'These instructions files changed since they were last given to you. Their new contents replace the old ones.'

export function renderInstructions(files: readonly InstructionsFile[], removed: readonly string[], changed: boolean): string {
  const parts = [changed ? CHANGED_PREAMBLE : PREAMBLE]
  for (const file of files) {
    const from = file.parent !== undefined ? `, imported by ${file.parent}` : ''
    parts.push(`Contents of ${file.path} (${KIND[file.memoryType]}${from}):\n\n${file.content.trimEnd()}`)
  }
  for (const path of removed) parts.push(`${path} was removed: its earlier instructions no longer apply.`)
  return parts.join('\n\n')
}
