// Splits a Bash command line into the simple commands the shell would run, with a real shell
// parser (tree-sitter-bash), so permission rules see every part: `a && b`, pipes, substitutions,
// `bash -c '…'`, wrappers such as `timeout` and `env`. What cannot be read with confidence is
// `readable: false` with the reason.
import { bashParserLoaded, loadBashParser } from './parser'
import { splitLoaded, type BashSplit } from './split'

export { loadBashParser, bashParserLoaded, MAX_COMMAND_CHARS, PARSE_BUDGET_MS } from './parser'
export { MAX_NESTING, type BashSplit, type SimpleCommand, type Alternative, type Redirect } from './split'

/** Loads the parser (once) and splits `command`. */
export async function splitBashCommand(command: string): Promise<BashSplit> {
  await loadBashParser()
  return splitBashCommandSync(command)
}

/**
 * The same, synchronously: once `loadBashParser()` has resolved; before that every command is
 * unreadable. Results are frozen and the last few are kept: one call's line is read by the
 * policy and by every hook `if` filter.
 */
export function splitBashCommandSync(command: string): BashSplit {
  const cached = recent.get(command)
  if (cached) return cached
  const split = deepFreeze(splitLoaded(command))
  if (!bashParserLoaded()) return split // "not loaded yet" must not outlive the load
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value as string)
  recent.set(command, split)
  return split
}

const RECENT_LIMIT = 64
const recent = new Map<string, BashSplit>()

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}
