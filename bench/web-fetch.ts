// WebFetch of a 1 MB HTML page to Markdown, the model left out (no small model is provided, so the
// tool returns the Markdown): the whole tool call through the pipeline (fetch over loopback HTTP,
// address check, turndown conversion, result) against the raw fetch of the same page with Node's
// fetch in the same run, alternating. A second line is the conversion alone against the same
// baseline. Reports milliseconds per page; ratio = value / baseline.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Kernel } from '../src-shared/kernel'
import { toolsPlugin } from '../src-main/tools'
import webTools from '../plugins/web-tools/index'
import { htmlToMarkdown } from '../plugins/web-tools/page-text'
import { line, type BenchLine } from './measure'

const ROUNDS = 7
const PER_ROUND = 3

/** About 1 MB of documentation-like HTML: headings, paragraphs with links and code, lists, tables, code blocks. */
export function documentationPage(targetBytes = 1024 * 1024): string {
  const sections: string[] = []
  let size = 0
  for (let i = 0; size < targetBytes; i++) {
    const section = `<section><h2 id="s${i}">Section ${i}: configuring the parser</h2>
<p>The <code>parse()</code> function reads <a href="https://example.com/docs/${i}">the input</a> and returns a tree. It accepts <em>options</em> and <strong>flags</strong> described below.</p>
<ul><li>strict: refuse unknown nodes</li><li>loose: keep them as text</li><li>cache: reuse parsed trees</li></ul>
<table><thead><tr><th>option</th><th>default</th></tr></thead><tbody><tr><td>depth</td><td>${i}</td></tr><tr><td>mode</td><td>strict</td></tr></tbody></table>
<pre><code class="language-js">const tree = parse(source, { depth: ${i}, mode: 'strict' })
console.log(tree.children.length)</code></pre>
<div class="nav"><a href="/prev">Previous</a> | <a href="/next">Next</a></div></section>\n`
    sections.push(section)
    size += Buffer.byteLength(section)
  }
  return `<!doctype html><html><head><title>Docs</title><style>body{font:14px sans-serif}</style><script>window.x=1</script></head><body><h1>Parser documentation</h1>${sections.join('')}</body></html>`
}

export async function run(): Promise<BenchLine[]> {
  const page = documentationPage()
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs`
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  // Loopback is refused by default; the cache would answer every call after the first.
  kernel.plugin(webTools, { allowPrivateAddresses: true, upgradeToHttps: false, cacheTtlMs: 0, maxRawResultChars: 10_000_000, maxMarkdownChars: 10_000_000 })
  const tools = kernel.getService('tools')!
  let n = 0
  const webFetch = async () => {
    const { result } = await tools.execute({ name: 'WebFetch', args: { url, prompt: 'Summarise' }, callId: `b${n++}`, sessionId: 'bench', cwd: process.cwd() })
    if (result.isError || !result.content.includes('# Parser documentation')) throw new Error(`WebFetch failed: ${result.content.slice(0, 200)}`)
  }
  const rawFetch = async () => {
    const text = await (await fetch(url)).text()
    if (text.length !== page.length) throw new Error('short body')
  }
  const convert = async () => {
    if ((await htmlToMarkdown(page)).length < 100_000) throw new Error('conversion lost the page')
  }
  try {
    await time(webFetch, 2)
    await time(rawFetch, 2)
    await time(convert, 1)
    let tool = Infinity
    let raw = Infinity
    let conversion = Infinity
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) raw = Math.min(raw, await time(rawFetch, PER_ROUND))
      tool = Math.min(tool, await time(webFetch, PER_ROUND))
      conversion = Math.min(conversion, await time(convert, PER_ROUND))
      if (round % 2 === 1) raw = Math.min(raw, await time(rawFetch, PER_ROUND))
    }
    const mb = (Buffer.byteLength(page) / (1024 * 1024)).toFixed(2)
    return [
      line('web-fetch', `WebFetch of a ${mb} MB HTML page to Markdown (no model), vs the raw fetch of the page`, tool, 'ms/page', raw),
      line('web-fetch', `turndown conversion alone of the ${mb} MB page, vs the raw fetch of the page`, conversion, 'ms/page', raw)
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
