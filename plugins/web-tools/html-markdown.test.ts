// The conversion the worker runs: what it drops before parsing, where it cuts a long page (and that
// the cut page's Markdown begins exactly as the whole page's does), and the one-pass escaping
// against turndown's own.
import TurndownService from 'turndown'
import { describe, expect, it } from 'vitest'
import { documentationPage, sitePage } from './test-pages'
import { escapeMarkdown, htmlToMarkdown, visiblePart } from './html-markdown'

/** The conversion before the first pass existed: turndown alone over the whole page. */
function turndownAlone(html: string): string {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'head', 'title', 'nav'])
  service.remove((node) => node.nodeName.toLowerCase() === 'svg')
  return service.turndown(html).trim()
}

describe('HTML to Markdown (the converter worker\'s work)', () => {
  it('drops scripts, styles, SVG, nav, comments and the head before parsing, and keeps every visible part', () => {
    const html = [
      '<html><head><title>T</title><style>p{color:red}</style></head><body>',
      '<nav><ul><li><a href="/a">Home</a></li><nav>inner</nav></ul></nav>',
      '<h1>Title <svg><svg><title>icon</title></svg><path d="M0"/></svg>here</h1>',
      '<!-- <script> in a comment -->',
      '<p title="a <script> in an attribute">Kept <embed src="x.swf"> text</p>',
      '<script>if (a < b) document.write("</p>")</script><p>After</p>',
      '<noscript><p>Enable JS</p></noscript><template><p>T</p></template>',
      '</body></html>'
    ].join('')
    const { html: kept, complete } = visiblePart(html, Number.POSITIVE_INFINITY)
    expect(complete).toBe(true)
    expect(kept.replace(' title="a <script> in an attribute"', '')).not.toMatch(/<(script|style|svg|nav|noscript|template|head|embed)\b|Home|icon|Enable JS|<!--/)
    expect(kept).toContain('<p title="a <script> in an attribute">Kept  text</p>')
    expect(htmlToMarkdown(html).markdown).toBe('# Title here\n\nKept text\n\nAfter')
  })

  it('an element left open runs to the end of the page and is dropped with it', () => {
    expect(htmlToMarkdown('<p>Before</p><nav><ul><li>menu').markdown).toBe('Before')
    expect(htmlToMarkdown('<p>Before</p><script>never closed').markdown).toBe('Before')
  })

  it('converts a whole page as turndown alone does', () => {
    for (const page of [documentationPage(60_000), sitePage(60_000)]) {
      const converted = htmlToMarkdown(page)
      expect(converted.complete).toBe(true)
      expect(converted.markdown).toBe(turndownAlone(page))
    }
  })

  it('stops once the visible text passes what is used, and the cut Markdown begins exactly as the whole page\'s', () => {
    for (const page of [documentationPage(600_000), sitePage(600_000)]) {
      const whole = turndownAlone(page)
      const cut = htmlToMarkdown(page, 30_000)
      expect(cut.complete).toBe(false)
      expect(cut.markdown.length).toBeGreaterThan(30_000)
      expect(cut.markdown.length).toBeLessThan(whole.length / 2)
      expect(cut.markdown.slice(0, 30_000)).toBe(whole.slice(0, 30_000))
    }
    expect(htmlToMarkdown(documentationPage(20_000), 30_000).complete).toBe(true)
  })

  it("escapes as turndown's own escape does, in one pass", () => {
    const original = (text: string) => TurndownService.prototype.escape.call(new TurndownService(), text)
    const starts = ['', '-', '- x', '+ x', '+x', '=', '==x', '# x', '###### x', '####### x', '#x', '~~~', '~~x', '>', '> q', '1. x', '12. x', '1.x', '*', '_', '`', '[', ']', '\\', 'x']
    const bodies = ['', ' plain', ' *a* _b_ `c` [d](e) \\f', '\n- item', ' 1. x', ' ~~~ # >']
    for (const start of starts) for (const body of bodies) expect(escapeMarkdown(start + body), JSON.stringify(start + body)).toBe(original(start + body))
  })
})
