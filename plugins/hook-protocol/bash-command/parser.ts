// The bash grammar (tree-sitter-bash's wasm) on web-tree-sitter: loaded once, lazily, and shared.
// Parsing is bounded: a command over MAX_COMMAND_CHARS is not parsed at all, and a parse that
// runs past PARSE_BUDGET_MS is cancelled through tree-sitter's progress callback.
import { createRequire } from 'node:module'
import { Language, Parser, type Tree } from 'web-tree-sitter'

/** Longer commands are unreadable without parsing (a model never needs 64 KiB of shell in one call). */
export const MAX_COMMAND_CHARS = 64 * 1024
/** A parse that takes longer is cancelled (pathological input); generous, so a busy machine still reads long lines. */
export const PARSE_BUDGET_MS = 1000

let parser: Parser | undefined
let loading: Promise<Parser> | undefined
/** Why the last load failed: every command is unreadable for this reason until a load succeeds. */
let loadError: string | undefined

/** Loads the grammar once; every caller awaits the same promise. A failed load is retried on the next call. */
export function loadBashParser(): Promise<void> {
  if (parser) return Promise.resolve()
  loading ??= load().then(
    (loaded) => (parser = loaded),
    (error: unknown) => {
      loading = undefined
      loadError = error instanceof Error ? error.message : String(error)
      throw error
    }
  )
  return loading.then(() => undefined)
}

/** Whether the sync API can parse now. */
export function bashParserLoaded(): boolean {
  return parser !== undefined
}

async function load(): Promise<Parser> {
  // Resolved from this module so the built app (out/main, deps external) finds the package too.
  const require = createRequire(import.meta.url)
  await Parser.init()
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'))
  const loaded = new Parser()
  loaded.setLanguage(language)
  return loaded
}

export type ParseOutcome = { tree: Tree } | { error: string }

/** Parses `source` within the bounds above. The caller deletes the tree (it lives in wasm memory). */
export function parseBash(source: string): ParseOutcome {
  if (!parser) return { error: loadError === undefined ? 'the shell parser is not loaded yet' : `the shell parser failed to load (${loadError})` }
  if (source.length > MAX_COMMAND_CHARS) return { error: `it is longer than ${MAX_COMMAND_CHARS} characters` }
  const deadline = performance.now() + PARSE_BUDGET_MS
  // web-tree-sitter cancels when the callback returns true (its typing says void).
  const progressCallback = (() => performance.now() > deadline) as () => void
  const tree = parser.parse(source, null, { progressCallback })
  if (!tree) {
    parser.reset()
    return { error: `parsing it took longer than ${PARSE_BUDGET_MS} ms` }
  }
  return { tree }
}
