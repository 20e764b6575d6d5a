// An assistant message's Markdown, one memoised MarkdownText per block (markdown-blocks.ts): a
// streaming message parses only the block that grew on each frame, and the finished message (the
// same row, keyed by turn and step) reuses every block it already parsed.
import { useMemo } from 'react'
import { markdownBlocks } from './markdown-blocks'
import { MarkdownText } from './MarkdownText'

export function MarkdownBlocks({ text }: { text: string }) {
  const blocks = useMemo(() => markdownBlocks(text), [text])
  return (
    <div className="markdown-stream">
      {blocks.map((block, i) => (
        <MarkdownText key={i} text={block} />
      ))}
    </div>
  )
}
