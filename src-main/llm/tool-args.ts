// Tool-call arguments arrive as JSON text (whole or in fragments). The agent loop always gets an
// object: text that is not a JSON object becomes {} with `argsError` saying why, so the tool
// layer can report the problem to the model instead of the turn failing.

import type { ModelToolCall } from '../../src-shared/model'

export function parseToolArgs(text: string): Pick<ModelToolCall, 'args' | 'argsError'> {
  // Models send "" for a tool without parameters.
  if (text.trim() === '') return { args: {} }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    return { args: {}, argsError: `Tool arguments are not valid JSON (${(err as Error).message}): ${preview(text)}` }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { args: value as Record<string, unknown> }
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
  return { args: {}, argsError: `Tool arguments must be a JSON object, got ${got}: ${preview(text)}` }
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
