// A tool result's text; long results show their start with a button for the rest.
import { useState } from 'react'

const PREVIEW_CHARS = 4000

export function ToolOutput({ content, isError, collapsed, summary = 'Raw result' }: { content: string; isError: boolean; collapsed: boolean; summary?: string }) {
  const [all, setAll] = useState(false)
  if (!content) return null
  const shown = all || content.length <= PREVIEW_CHARS ? content : content.slice(0, PREVIEW_CHARS)
  const body = (
    <>
      <pre className={isError ? 'code-block tool-output error' : 'code-block tool-output'} tabIndex={0} aria-label="Tool result">{shown}</pre>
      {shown.length < content.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>Show all {content.length.toLocaleString()} characters</button>
      )}
    </>
  )
  if (collapsed) {
    return (
      <details className="tool-result raw">
        <summary>{summary}</summary>
        {body}
      </details>
    )
  }
  return <div className="tool-result">{body}</div>
}
