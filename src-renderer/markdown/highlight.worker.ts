// The highlighter's own thread: tokenising a code block (and compiling a grammar's expressions the
// first time it is used, 25-60 ms) would otherwise stall the window while a reply streams.
import { highlightCode } from './highlight'
import type { HighlightReply, HighlightRequest } from './highlight-messages'

// The worker's global scope, as far as this file uses it (the DOM library types `self` as a window).
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HighlightRequest>) => void) | null
  postMessage(message: HighlightReply): void
}

scope.onmessage = (event: MessageEvent<HighlightRequest>) => {
  const { id, code, language } = event.data
  highlightCode(code, language).then(
    (lines) => scope.postMessage({ id, lines } satisfies HighlightReply),
    (error: unknown) => scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies HighlightReply)
  )
}
