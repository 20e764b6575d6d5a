// Issue 31, one visual system: colours, sizes and shadows are defined once, in tokens.css; every
// other stylesheet of the renderer only uses them. A literal that slips in fails here, naming
// the file, the line and the literal.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const STYLES = new URL('.', import.meta.url).pathname
const RENDERER = join(STYLES, '..')
const TOKENS = 'tokens.css'

/** Literals a stylesheet other than tokens.css must not hold: hex and rgb/hsl colours, and px
 * sizes other than a hairline (1px) or a media query's breakpoint (no variables there). */
function literalsIn(css: string): string[] {
  const found: string[] = []
  css.split('\n').forEach((line, index) => {
    const code = line.replace(/\/\*.*?\*\//g, '')
    if (/@media/.test(code)) return
    for (const match of code.matchAll(/#[0-9a-fA-F]{3,8}\b|\b(?:rgb|rgba|hsl|hsla)\(|(?<![\w.-])(\d*\.?\d+)px\b/g)) {
      if (match[1] === '1' || match[1] === '0') continue
      found.push(`line ${index + 1}: ${match[0]}`)
    }
  })
  return found
}

function tokenNames(css: string): Set<string> {
  return new Set([...css.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]))
}

describe('design tokens (issue 31)', () => {
  // Every stylesheet of the renderer, wherever its folder keeps it.
  const sheets = (readdirSync(RENDERER, { recursive: true }) as string[]).filter((f) => f.endsWith('.css') && f !== join('styles', TOKENS))
  const tokens = readFileSync(join(STYLES, TOKENS), 'utf8')

  it('finds the stylesheets', () => {
    expect(sheets.length).toBeGreaterThan(2)
  })

  it.each(sheets)('%s uses tokens, not literal colours or px sizes', (file) => {
    expect(literalsIn(readFileSync(join(RENDERER, file), 'utf8')), `literals in ${file}; define or use a token in tokens.css`).toEqual([])
  })

  it.each(sheets)('%s uses only variables tokens.css defines', (file) => {
    const defined = tokenNames(tokens)
    // shiki's per-token colours, set inline by the highlighter
    defined.add('--code-light').add('--code-dark')
    const used = [...readFileSync(join(RENDERER, file), 'utf8').matchAll(/var\((--[\w-]+)/g)].map((m) => m[1])
    expect(used.filter((name) => !defined.has(name)), `undefined variables in ${file}`).toEqual([])
  })

  it('defines every colour for the dark scheme too', () => {
    const [light, dark] = tokens.split(":root[data-scheme='dark']")
    const colour = /(--[\w-]+)\s*:\s*(#[0-9a-fA-F]{3,8}|rgb\()/g
    const lightColours = [...light.matchAll(colour)].map((m) => m[1])
    const darkNames = tokenNames(dark)
    expect(lightColours.filter((name) => !darkNames.has(name))).toEqual([])
  })
})
