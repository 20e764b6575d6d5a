// Claude Code's colour tokens onto Seam's CSS variables (issue 29): each mapped token replaces its
// variables, the others keep the base scheme's (not even emitted), surfaces follow the theme's
// background, and text under WCAG AA is moved just enough and reported, never silently.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contrast, fromHex, parseColour } from './colours'
import { MIN_CONTRAST, mapTheme, SEAM_SCHEMES, TOKEN_MAP } from './mapping'

const rgb = (hex: string) => fromHex(hex)

describe('token mapping (issue 29)', () => {
  it('maps each token onto its Seam variables; tokens it does not override keep the base (absent from the variables)', () => {
    const mapped = mapTheme({ scheme: 'dark', colours: { claude: rgb('#fab387'), error: rgb('#f38ba8'), diffAdded: rgb('#394545'), diffRemovedWord: rgb('#3e2e40'), planMode: rgb('#94e2d5'), promptBorder: rgb('#b4befe'), permission: rgb('#89b4fa'), userMessageBackground: rgb('#313244'), selectionBg: rgb('#45475a'), inverseText: rgb('#1e1e2e'), text: rgb('#cdd6f4'), subtle: rgb('#bac2de') } })
    expect(mapped.scheme).toBe('dark')
    expect(mapped.variables).toEqual({
      '--text': '#cdd6f4',
      '--muted': '#bac2de',
      '--accent': '#fab387',
      '--focus-ring': '#fab387',
      '--danger': '#f38ba8',
      '--on-accent': '#1e1e2e',
      '--on-danger': '#1e1e2e',
      '--diff-add-bg': '#394545',
      '--diff-del-word-bg': '#3e2e40',
      '--plan-mode': '#94e2d5',
      '--prompt-border': '#b4befe',
      '--permission': '#89b4fa',
      '--user-message-bg': '#313244',
      '--selected-bg': '#45475a',
      '--selection-bg': '#45475a'
    })
    expect(mapped.adjustments).toEqual([])
  })

  it('covers text, background, muted, borders, success and warning; surfaces follow the background', () => {
    const mapped = mapTheme({ scheme: 'light', colours: { text: rgb('#4c4f69'), background: rgb('#eff1f5'), subtle: rgb('#5c5f77'), inactive: rgb('#acb0be'), success: rgb('#40a02b'), warning: rgb('#df8e1d') } })
    expect(mapped.variables['--text']).toBe('#4c4f69')
    expect(mapped.variables['--bg']).toBe('#eff1f5')
    expect(mapped.variables['--muted']).toBe('#5c5f77')
    expect(mapped.variables['--border']).toBe('#acb0be')
    // 4% and 8% of the way from the background towards the text.
    expect(mapped.variables['--surface']).toBe('#e8ebef')
    expect(mapped.variables['--surface-2']).toBe('#e2e4ea')
    // Catppuccin Latte's green and yellow are under 4.5:1 on its base: darkened, each change said.
    for (const name of ['--success', '--warning']) {
      expect(contrast(rgb(mapped.variables[name]), rgb('#eff1f5'))).toBeGreaterThanOrEqual(MIN_CONTRAST)
      expect(mapped.adjustments).toContainEqual(expect.stringMatching(new RegExp(`^${name} \\(${name === '--success' ? 'success #40a02b' : 'warning #df8e1d'}\\) → #[0-9a-f]{6}: \\d\\.\\d\\d:1 on --\\S+ is under 4\\.5:1$`)))
    }
    expect(mapped.adjustments.some((line) => line.startsWith('--text'))).toBe(false)
  })

  it('keeps every text colour at 4.5:1 on the surfaces and the text at 4.5:1 on tinted backgrounds, whatever the theme', () => {
    // A theme whose own colours fail: grey text on a mid-grey page, a diff background as bright as its text.
    const mapped = mapTheme({ scheme: 'dark', colours: { background: rgb('#3a3a3a'), text: rgb('#777777'), subtle: rgb('#555555'), diffAdded: rgb('#85c000'), claude: rgb('#ffcc00'), inverseText: rgb('#ffee88') } })
    const v = { ...SEAM_SCHEMES.dark, ...mapped.variables }
    for (const fg of ['--text', '--muted', '--accent', '--success', '--warning', '--danger', '--plan-mode']) {
      for (const bg of ['--bg', '--surface', '--surface-2']) expect(contrast(rgb(v[fg]), rgb(v[bg])), `${fg} on ${bg}`).toBeGreaterThanOrEqual(MIN_CONTRAST)
    }
    for (const tint of ['--diff-add-bg', '--user-message-bg', '--selected-bg']) expect(contrast(rgb(v['--text']), rgb(v[tint])), `--text on ${tint}`).toBeGreaterThanOrEqual(MIN_CONTRAST)
    expect(contrast(rgb(v['--on-accent']), rgb(v['--accent']))).toBeGreaterThanOrEqual(MIN_CONTRAST)
    expect(mapped.adjustments.map((line) => line.split(' ')[0])).toEqual(expect.arrayContaining(['--text', '--muted', '--diff-add-bg', '--on-accent']))
  })

  it('every chromatic ANSI colour, normal and bright, reads at 4.5:1 on Seam\'s surfaces of its scheme', () => {
    for (const scheme of ['dark', 'light'] as const) {
      for (const name of ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan']) {
        for (const form of [`ansi:${name}`, `ansi:${name}Bright`]) {
          const colour = parseColour(form, scheme)!
          for (const surface of ['--bg', '--surface', '--surface-2']) expect(contrast(colour, rgb(SEAM_SCHEMES[scheme][surface])), `${scheme} ${form} on ${surface}`).toBeGreaterThanOrEqual(MIN_CONTRAST)
        }
      }
    }
  })

  it('maps ANSI colours through a palette readable on the base scheme', () => {
    for (const scheme of ['dark', 'light'] as const) {
      const colours = Object.fromEntries(['error', 'success', 'warning', 'claude'].map((token, i) => [token, parseColour(`ansi:${['red', 'green', 'yellow', 'blue'][i]}`, scheme)!]))
      expect(mapTheme({ scheme, colours }).adjustments, scheme).toEqual([])
    }
  })

  it('SEAM_SCHEMES holds the colours tokens.css defines, light and dark', () => {
    const css = readFileSync(new URL('../../src-renderer/styles/tokens.css', import.meta.url), 'utf8')
    const [light, dark] = css.split(":root[data-scheme='dark']")
    const values = (block: string) => Object.fromEntries([...block.matchAll(/(--[\w-]+)\s*:\s*(#[0-9a-fA-F]{6})\s*;/g)].map((m) => [m[1], m[2].toLowerCase()]))
    for (const [scheme, block] of [['light', light], ['dark', dark]] as const) {
      const defined = values(block)
      for (const [name, value] of Object.entries(SEAM_SCHEMES[scheme])) expect(defined[name], `${scheme} ${name}`).toBe(value)
    }
    // Every variable a token sets is one tokens.css defines.
    for (const name of Object.keys(TOKEN_MAP)) expect(values(light)[name], name).toBeDefined()
  })
})
