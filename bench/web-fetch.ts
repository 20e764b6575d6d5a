// WebFetch of a 1 MB HTML page to Markdown, the model left out (no small model is provided, so the
// tool returns the Markdown), over loopback HTTP through the tool pipeline, with the conversion in
// the plugin's worker thread. Against, in the same run, alternating:
//  - the raw fetch of the same page with Node's fetch (what the network part costs);
//  - the conversion as it was before the worker (turndown over the whole page, on the host's
//    thread): the host's event loop's longest block during each (perf_hooks
//    monitorEventLoopDelay, 1 ms resolution) is the line that matters: it is how long the host
//    answers nothing else (another session's stream, the UI, ACP);
//  - conversion time alone: the new conversion (drop what a reader never sees, stop once the page
//    passed what WebFetch can use, one-pass escaping) against turndown over the whole page.
// Two pages: a generated documentation page (headings, links, lists, tables, code) and the same
// text inside a page shaped like a real site's (inline scripts and JSON, SVG icons, a large nav).
// Milliseconds; ratio = value / baseline.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import TurndownService from 'turndown'
import { Kernel } from '../src-shared/kernel'
import { toolsPlugin } from '../src-main/tools'
import webTools from '../plugins/web-tools/index'
import { htmlToMarkdown } from '../plugins/web-tools/html-markdown'
import { documentationPage, sitePage } from '../plugins/web-tools/test-pages'
import { line, type BenchLine } from './measure'

const ROUNDS = 5
const PER_ROUND = 2

/** The conversion as it was before the worker: one turndown service over the whole page, on the calling thread. */
function inlineConverter(): (html: string) => string {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'head', 'title'])
  service.remove((node) => node.nodeName.toLowerCase() === 'svg')
  return (html) => service.turndown(html).trim()
}

export async function run(): Promise<BenchLine[]> {
  const pages = { docs: documentationPage(), site: sitePage() }
  const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.url === '/site' ? pages.site : pages.docs))
  // The inline conversion blocks this process for seconds: an idle keep-alive socket must outlive that.
  server.keepAliveTimeout = 120_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  // Loopback is refused by default; the cache would answer every call after the first.
  kernel.plugin(webTools, { allowPrivateAddresses: true, upgradeToHttps: false, cacheTtlMs: 0 })
  const tools = kernel.getService('tools')!
  const inline = inlineConverter()
  let n = 0
  const webFetch = async () => {
    const { result } = await tools.execute({ name: 'WebFetch', args: { url: `${base}/docs`, prompt: 'Summarise' }, callId: `b${n++}`, sessionId: 'bench', cwd: process.cwd() })
    if (result.isError || !result.content.includes('# Parser documentation')) throw new Error(`WebFetch failed: ${result.content.slice(0, 200)}`)
  }
  const inlineFetch = async () => {
    const text = await (await fetch(`${base}/docs`)).text()
    if (!inline(text).includes('# Parser documentation')) throw new Error('inline conversion lost the page')
  }
  const rawFetch = async () => {
    const text = await (await fetch(`${base}/docs`)).text()
    if (text.length !== pages.docs.length) throw new Error('short body')
  }
  const convertNew = (page: string, maxChars: number) => async () => {
    if (htmlToMarkdown(page, maxChars).markdown.length < Math.min(maxChars, 100_000)) throw new Error('conversion lost the page')
  }
  const convertOld = (page: string) => async () => {
    if (inline(page).length < 100_000) throw new Error('conversion lost the page')
  }
  // What WebFetch converts with the default settings (maxMarkdownChars 100,000, maxRawResultChars 30,000).
  const USED = 100_000
  try {
    await time(webFetch, 2)
    await time(inlineFetch, 1)
    await time(rawFetch, 2)
    const best = { tool: Infinity, raw: Infinity, toolBlock: Infinity, inlineBlock: Infinity }
    const conversions = { docsNew: Infinity, docsWhole: Infinity, docsOld: Infinity, siteNew: Infinity, siteWhole: Infinity, siteOld: Infinity }
    for (let round = 0; round < ROUNDS; round++) {
      best.raw = Math.min(best.raw, await time(rawFetch, PER_ROUND))
      const tool = await timeWithBlock(webFetch, PER_ROUND)
      best.tool = Math.min(best.tool, tool.ms)
      best.toolBlock = Math.min(best.toolBlock, tool.blockMs)
      best.inlineBlock = Math.min(best.inlineBlock, (await timeWithBlock(inlineFetch, 1)).blockMs)
      conversions.docsNew = Math.min(conversions.docsNew, await time(convertNew(pages.docs, USED), PER_ROUND))
      conversions.docsWhole = Math.min(conversions.docsWhole, await time(convertNew(pages.docs, Number.POSITIVE_INFINITY), 1))
      conversions.docsOld = Math.min(conversions.docsOld, await time(convertOld(pages.docs), 1))
      conversions.siteNew = Math.min(conversions.siteNew, await time(convertNew(pages.site, USED), PER_ROUND))
      conversions.siteWhole = Math.min(conversions.siteWhole, await time(convertNew(pages.site, Number.POSITIVE_INFINITY), 1))
      conversions.siteOld = Math.min(conversions.siteOld, await time(convertOld(pages.site), 1))
    }
    const mb = (page: string) => (Buffer.byteLength(page) / (1024 * 1024)).toFixed(2)
    const docs = `the ${mb(pages.docs)} MB documentation page`
    const site = `the ${mb(pages.site)} MB site-shaped page (scripts, SVG, nav)`
    return [
      line('web-fetch', `WebFetch of ${docs} to Markdown (no model, conversion in the worker), vs the raw fetch of the page`, best.tool, 'ms/page', best.raw),
      line('web-fetch', `host event loop's longest block during a WebFetch of ${docs} (conversion in the worker), vs during the same fetch converted on the host's thread as before`, best.toolBlock, 'ms', best.inlineBlock),
      line('web-fetch', `conversion of ${docs} (what WebFetch uses: 100,000 Markdown characters), vs turndown over the whole page as before`, conversions.docsNew, 'ms/page', conversions.docsOld),
      line('web-fetch', `conversion of ${docs}, whole page (dropping unseen elements, one-pass escaping), vs turndown over the whole page as before`, conversions.docsWhole, 'ms/page', conversions.docsOld),
      line('web-fetch', `conversion of ${site} (what WebFetch uses), vs turndown over the whole page as before`, conversions.siteNew, 'ms/page', conversions.siteOld),
      line('web-fetch', `conversion of ${site}, whole page, vs turndown over the whole page as before`, conversions.siteWhole, 'ms/page', conversions.siteOld)
    ]
  } finally {
    kernel.dispose()
    await new Promise((resolve) => server.close(resolve))
  }
}

/** Milliseconds per awaited call, over `count` calls in a row. */
async function time(call: () => Promise<void>, count: number): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) await call()
  return (performance.now() - started) / count
}

/** Milliseconds per call, and the event loop's longest delay (ms) while the calls ran. */
async function timeWithBlock(call: () => Promise<void>, count: number): Promise<{ ms: number; blockMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  try {
    const ms = await time(call, count)
    // A block is recorded when the loop comes back to its timers: let it, before reading.
    await new Promise((resolve) => setTimeout(resolve, 20))
    return { ms, blockMs: histogram.max / 1e6 }
  } finally {
    histogram.disable()
  }
}
