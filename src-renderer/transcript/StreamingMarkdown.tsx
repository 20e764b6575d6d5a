// Markdown of a message that is still streaming: one memoised block per paragraph, so a frame
// re-parses only the block that grew.
import { useMemo } from 'react'
import { splitMarkdownBlocks } from './markdown-blocks'
import { MarkdownText } from './MarkdownText'

export function StreamingMarkdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text])
  return (
    <div className="markdown-stream">
      {blocks.map((block, i) => (
        <MarkdownText key={i} text={block} />
      ))}
    </div>
  )
}
