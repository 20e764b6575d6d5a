// The converter worker's entry (a worker_threads worker the host starts once, on first use:
// markdown-converter.ts). It converts one page at a time, so a 1 MB page's two seconds of
// parsing happen off the host's event loop. Built as its own self-contained file (turndown,
// domino and htmlparser2 bundled in), so it loads from outside the app's asar archive.
import { parentPort } from 'node:worker_threads'
import { htmlToMarkdown } from './html-markdown'
import type { ConversionReply, ConversionRequest } from './markdown-protocol'

// Imported anywhere but as a worker (a bundler that does not know `?modulePath` and so imports the
// module itself: a plugin author's tests running Seam's sources), it does nothing; the converter
// then has no worker file and converts in the host (markdown-converter.ts).
const port = parentPort
port?.on('message', ({ id, html, maxChars }: ConversionRequest) => {
  let reply: ConversionReply
  try {
    reply = { id, ok: true, ...htmlToMarkdown(html, maxChars) }
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
