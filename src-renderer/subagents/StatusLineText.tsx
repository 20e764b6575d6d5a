// A plugin's status row as text: its SGR escapes (colours, bold, italic, underline) become spans
// with the theme's colours (the 16 named colours map onto the theme's tokens, so the row reads in
// light and dark; 256-colour and RGB colours and backgrounds are shown in the text colour), every
// other escape and control character is dropped. React renders it as text: never HTML.
import { parseAnsiSequences, type ColorName } from 'ansi-sequence-parser'

/** OSC strings, CSI sequences other than SGR (`m`), other escapes, and C0/C1 controls but tab. */
const NOT_SGR = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b\[[0-?]*[ -/]*[@-ln-~]|\x1b[@-Z\\-_]|[\x00-\x08\x0a-\x1a\x1c-\x1f\x7f-\x9f]/g

/** The row without the escapes it may not use (SGR escapes are kept for the parser). */
export function sanitizeStatusLine(text: string): string {
  return text.replace(NOT_SGR, (match) => (match === '\n' || match === '\r' ? ' ' : ''))
}

/** The row's plain text, every escape removed (its accessible name). */
export function plainStatusLine(text: string): string {
  return parseAnsiSequences(sanitizeStatusLine(text))
    .map((token) => token.value)
    .join('')
}

const TONE: Record<ColorName, string> = {
  black: 'text',
  white: 'text',
  brightWhite: 'text',
  brightBlack: 'muted',
  red: 'danger',
  brightRed: 'danger',
  green: 'success',
  brightGreen: 'success',
  yellow: 'warning',
  brightYellow: 'warning',
  blue: 'accent',
  brightBlue: 'accent',
  cyan: 'accent',
  brightCyan: 'accent',
  magenta: 'accent',
  brightMagenta: 'accent'
}

export function StatusLineText({ content }: { content: string }) {
  const tokens = parseAnsiSequences(sanitizeStatusLine(content))
  return (
    <>
      {tokens.map((token, index) => {
        const classes: string[] = []
        if (token.foreground?.type === 'named') classes.push(`ansi-${TONE[token.foreground.name]}`)
        for (const decoration of token.decorations) if (decoration === 'bold' || decoration === 'dim' || decoration === 'italic' || decoration === 'underline') classes.push(`ansi-${decoration}`)
        return classes.length === 0 ? <span key={index}>{token.value}</span> : <span key={index} className={classes.join(' ')}>{token.value}</span>
      })}
    </>
  )
}
