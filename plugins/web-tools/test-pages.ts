// Generated HTML pages for the conversion's tests and bench/web-fetch.ts: documentation-like
// content, alone or wrapped as a real site wraps it.

/** About 1 MB of documentation-like HTML: headings, paragraphs with links and code, lists, tables, code blocks. */
export function documentationPage(targetBytes = 1024 * 1024, wrap: (i: number, section: string) => string = (_i, s) => s): string {
  const sections: string[] = []
  let size = 0
  for (let i = 0; size < targetBytes; i++) {
    const section = wrap(
      i,
      `<section><h2 id="s${i}">Section ${i}: configuring the parser</h2>
<p>The <code>parse()</code> function reads <a href="https://example.com/docs/${i}">the input</a> and returns a tree. It accepts <em>options</em> and <strong>flags</strong> described below.</p>
<ul><li>strict: refuse unknown nodes</li><li>loose: keep them as text</li><li>cache: reuse parsed trees</li></ul>
<table><thead><tr><th>option</th><th>default</th></tr></thead><tbody><tr><td>depth</td><td>${i}</td></tr><tr><td>mode</td><td>strict</td></tr></tbody></table>
<pre><code class="language-js">const tree = parse(source, { depth: ${i}, mode: 'strict' })
console.log(tree.children.length)</code></pre>
<div class="nav"><a href="/prev">Previous</a> | <a href="/next">Next</a></div></section>\n`
    )
    sections.push(section)
    size += Buffer.byteLength(section)
  }
  return `<!doctype html><html><head><title>Docs</title><style>body{font:14px sans-serif}</style><script>window.x=1</script></head><body><h1>Parser documentation</h1>${sections.join('')}</body></html>`
}

/** The same documentation with what real sites carry around it: a sidebar nav, SVG icons, inline scripts and state (about a third of the bytes). */
export function sitePage(targetBytes = 1024 * 1024): string {
  const icon = '<svg viewBox="0 0 24 24" width="16" height="16"><path d="M12 2l3 7h7l-5.5 4 2 7-6.5-4.5L5.5 20l2-7L2 9h7z"/></svg>'
  const nav = `<nav class="sidebar"><ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/docs/${i}">${icon}Chapter ${i}</a></li>`).join('')}</ul></nav>`
  const state = `<script type="application/json" id="__STATE__">${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, title: `Section ${i}`, href: `/docs/${i}` })))}</script>`
  return documentationPage(targetBytes, (i, section) => (i % 40 === 0 ? nav + state : '') + section.replace('<h2', `${icon}<h2`) + (i % 7 === 0 ? `<script>track(${i})</script>` : ''))
}
