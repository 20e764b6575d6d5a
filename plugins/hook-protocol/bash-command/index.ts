// Splits a Bash command line into the simple commands the shell would run, with a real shell
// parser (tree-sitter-bash), so permission rules see every part: `a && b`, pipes, substitutions,
// `bash -c '…'`, wrappers such as `timeout` and `env`. What cannot be read with confidence is
// `readable: false` with the reason.
import { loadBashParser } from './parser'
import { splitLoaded, type BashSplit } from './split'

export { loadBashParser, bashParserLoaded, MAX_COMMAND_CHARS, PARSE_BUDGET_MS } from './parser'
export { MAX_NESTING, type BashSplit, type SimpleCommand, type Redirect } from './split'

/** Loads the parser (once) and splits `command`. */
export async function splitBashCommand(command: string): Promise<BashSplit> {
  await loadBashParser()
  return splitLoaded(command)
}

/** The same, synchronously: once `loadBashParser()` has resolved; before that every command is unreadable. */
export function splitBashCommandSync(command: string): BashSplit {
  return splitLoaded(command)
}
