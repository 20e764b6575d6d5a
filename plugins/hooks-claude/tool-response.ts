// `tool_response` as Claude Code hands it to PostToolUse hooks (claude-code-hooks.md §6
// PostToolUse): the tool's structured result with exactly Claude Code's keys. Seam's Bash result
// also carries the arrival-ordered `output` Codex hooks read; Claude hooks never see it.
import type { ToolResult } from '@seam/sdk'

/** Bash's tool_response keys, in Claude Code's order. */
export const CLAUDE_BASH_RESPONSE_KEYS = ['stdout', 'stderr', 'interrupted', 'isImage', 'noOutputExpected'] as const

export function claudeToolResponse(toolName: string, result: Readonly<ToolResult>): unknown {
  const structured = result.structured
  if (structured === undefined) return result.content
  if (toolName === 'Bash' && isRecord(structured)) {
    const picked: Record<string, unknown> = {}
    for (const key of CLAUDE_BASH_RESPONSE_KEYS) if (key in structured) picked[key] = structured[key]
    return picked
  }
  return structured
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
