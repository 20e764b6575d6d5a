// @ts-check
// Scripted model turns for the fake provider servers. A script is a list consumed in order, one
// entry per model request; an entry is a turn or a function of the request body that returns
// one (or a promise of one), so a test can answer differently once a tool result comes back, or
// answer only once something it waits for has happened.
// Plain JavaScript so Node runs it directly (e2e, fake-provider-cli.mjs); types live in
// scripted-turns.d.mts.

/** Characters per streamed fragment when a turn does not say. */
export const DEFAULT_CHUNK_SIZE = 4

/**
 * Splits text into fragments of `size` characters (code points, so no surrogate pair is cut).
 * @param {string} text
 * @param {number} size
 * @returns {string[]}
 */
export function chunkText(text, size) {
  const chars = Array.from(text)
  const step = Math.max(1, Math.floor(size))
  /** @type {string[]} */
  const chunks = []
  for (let i = 0; i < chars.length; i += step) chunks.push(chars.slice(i, i + step).join(''))
  return chunks
}

/**
 * The turn for the `index`-th model request, or undefined when the script is exhausted.
 * @template Body
 * @param {ReadonlyArray<import('./scripted-turns.mjs').ScriptStep<Body>>} script
 * @param {number} index
 * @param {Body} body
 * @param {import('./scripted-turns.mjs').ScriptContext} ctx
 * @returns {Promise<import('./scripted-turns.mjs').ScriptedTurn | undefined>}
 */
export async function resolveTurn(script, index, body, ctx) {
  const step = script[index]
  if (step === undefined) return undefined
  return typeof step === 'function' ? step(body, ctx) : step
}

/**
 * Resolves after `ms` milliseconds (immediately for 0).
 * @param {number} ms
 * @returns {Promise<void>}
 */
export function delay(ms) {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}
