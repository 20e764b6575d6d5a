// Assistant text as Markdown. Safe by construction: raw HTML in the text is shown as literal
// text (never parsed into elements), react-markdown's URL filter drops javascript: links, and
// links open outside the app.
import { Children, isValidElement, memo, type ComponentProps, type ReactNode } from 'react'
import Markdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { CodeBlock } from '../markdown/CodeBlock'

interface MdNode {
  type: string
  value?: string
  children?: MdNode[]
}

/** remark plugin: raw HTML nodes become text nodes, so `<script>` reads as the characters typed. */
function htmlAsText() {
  const walk = (node: MdNode): void => {
    if (node.type === 'html') node.type = 'text'
    node.children?.forEach(walk)
  }
  return (tree: unknown) => walk(tree as MdNode)
}

const components: Components = {
  a: ({ href, children }: ComponentProps<'a'>) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  // Remote images would leak requests (and the CSP blocks them): show the link instead.
  img: ({ src, alt }: ComponentProps<'img'>) => <span className="md-image">[image: {alt || String(src ?? '')}]</span>,
  pre: ({ children }: ComponentProps<'pre'>) => {
    const code = Children.toArray(children)[0]
    if (!isValidElement<{ className?: string; children?: ReactNode }>(code)) return <pre>{children}</pre>
    const info = /(?:^|\s)language-(\S+)/.exec(code.props.className ?? '')?.[1]
    return <CodeBlock code={textOf(code.props.children)} info={info} />
  },
  // Wide tables scroll inside their own box instead of widening the transcript.
  table: ({ children }: ComponentProps<'table'>) => (
    <div className="md-table" tabIndex={0} role="region" aria-label="Table">
      <table>{children}</table>
    </div>
  )
}

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node)
  if (Array.isArray(node)) return node.map(textOf).join('')
  return ''
}

// GitHub-flavoured Markdown: tables, strikethrough, task lists, autolinks (remark-gfm).
const remarkPlugins = [remarkGfm, htmlAsText]

export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={remarkPlugins} components={components}>
        {text}
      </Markdown>
    </div>
  )
})
