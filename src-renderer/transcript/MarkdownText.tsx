// Assistant text as Markdown. Safe by construction: raw HTML in the text is shown as literal
// text (never parsed into elements), react-markdown's URL filter drops javascript: links, and
// links open outside the app.
import { memo, type ComponentProps } from 'react'
import Markdown, { type Components } from 'react-markdown'

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
  img: ({ src, alt }: ComponentProps<'img'>) => <span className="md-image">[image: {alt || String(src ?? '')}]</span>
}

const remarkPlugins = [htmlAsText]

export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={remarkPlugins} components={components}>
        {text}
      </Markdown>
    </div>
  )
})
