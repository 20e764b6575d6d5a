// A fenced code block: highlighted off the window's thread once its grammar has loaded (plain
// text until then and for languages we do not highlight), with its language and a Copy button.
// Long lines scroll sideways; the block is focusable so keyboard users can scroll it too.
import { memo, useEffect, useRef, useState } from 'react'
import { highlight, languageFor, type CodeToken } from './highlight-client'

type CopyState = 'idle' | 'copied' | 'failed'

export const CodeBlock = memo(function CodeBlock({ code, info }: { code: string; info?: string }) {
  const text = code.endsWith('\n') ? code.slice(0, -1) : code
  const language = languageFor(info)
  const [tokens, setTokens] = useState<{ text: string; lines: CodeToken[][] } | null>(null)
  const [copy, setCopy] = useState<CopyState>('idle')

  // A request already in the worker when the text grows still lands (its tokens cover a prefix of
  // the new text); one still waiting is withdrawn. Replies come back in the order asked.
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])
  useEffect(() => {
    const withdrawn = new AbortController()
    highlight(text, language, withdrawn.signal).then(
      (lines) => mounted.current && setTokens(lines ? { text, lines } : null),
      () => mounted.current && setTokens(null)
    )
    return () => withdrawn.abort()
  }, [text, language])

  useEffect(() => {
    if (copy === 'idle') return
    const timer = setTimeout(() => setCopy('idle'), 1500)
    return () => clearTimeout(timer)
  }, [copy])

  const onCopy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopy('copied'),
      () => setCopy('failed')
    )
  }

  // A block still streaming keeps the tokens of the text it had, followed by what arrived since as
  // plain text, until the fresh tokens come back; tokens of some other text are never shown.
  const fresh = tokens !== null && tokens.text === text
  const lines = tokens && text.startsWith(tokens.text) ? tokens.lines : null
  const tail = lines && tokens ? text.slice(tokens.text.length) : ''
  const label = info?.trim() || 'text'
  return (
    <div className="md-code" data-highlighted={fresh ? 'true' : 'false'}>
      <div className="code-head">
        <span className="code-lang">{label}</span>
        <button type="button" className="code-copy" onClick={onCopy} aria-label={`Copy ${label} code`}>
          {copy === 'copied' ? 'Copied' : copy === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </div>
      <pre tabIndex={0} aria-label={`${label} code`}>
        <code className={info ? `language-${info.trim()}` : undefined}>
          {lines
            ? lines.map((line, i) => (
                <span key={i} className="code-line">
                  {line.map((token, j) => (
                    <span key={j} style={tokenStyle(token)}>{token.content}</span>
                  ))}
                  {i < lines.length - 1 ? '\n' : ''}
                </span>
              )).concat(tail ? [<span key="tail">{tail}</span>] : [])
            : text}
        </code>
      </pre>
    </div>
  )
})

function tokenStyle(token: CodeToken): Record<string, string> {
  const style: Record<string, string> = {}
  if (token.color) style['--code-light'] = token.color
  if (token.dark) style['--code-dark'] = token.dark
  if (token.fontStyle && token.fontStyle & 1) style.fontStyle = 'italic'
  if (token.fontStyle && token.fontStyle & 2) style.fontWeight = '600'
  return style
}
