// Claude Code's colour tokens onto Seam's CSS variables (src-renderer/styles/tokens.css). A theme
// starts from Seam's scheme of its base (a `dark*` base: Seam's dark colours, `light*`: light);
// each token it overrides replaces the variables below, and every variable it does not reach keeps
// the base's value. Then text is kept readable: a text colour under WCAG AA (4.5:1) on Seam's
// surfaces is moved towards white (dark background) or black (light) just far enough, and a tinted
// background (diff lines, the user's messages, selection) under 4.5:1 for the text on it is moved
// towards the page background; each change is reported, so none is silent (README, "Contrast").
import { contrast, fromHex, luminance, mix, toHex, type Rgb } from './colours'
import type { ParsedTheme } from './theme-file'

/** Which Claude Code token sets which Seam variable (README, "Token mapping"). */
export const TOKEN_MAP: Readonly<Record<string, string>> = {
  '--bg': 'background',
  '--text': 'text',
  '--muted': 'subtle',
  '--border': 'inactive',
  '--accent': 'claude',
  '--focus-ring': 'claude',
  '--on-accent': 'inverseText',
  '--success': 'success',
  '--warning': 'warning',
  '--danger': 'error',
  '--on-danger': 'inverseText',
  '--selected-bg': 'selectionBg',
  '--selection-bg': 'selectionBg',
  '--user-message-bg': 'userMessageBackground',
  '--permission': 'permission',
  '--plan-mode': 'planMode',
  '--prompt-border': 'promptBorder',
  '--diff-add-bg': 'diffAdded',
  '--diff-del-bg': 'diffRemoved',
  '--diff-add-word-bg': 'diffAddedWord',
  '--diff-del-word-bg': 'diffRemovedWord'
}

/** Surfaces made from the theme's `background` (mixed towards its text), as Seam's own are near its page colour. */
const DERIVED_FROM_BACKGROUND: Readonly<Record<string, number>> = { '--surface': 0.04, '--surface-2': 0.08, '--code-bg': 0.08 }

/** Seam's own values of the variables a theme can change (tokens.css; a test holds the two equal). */
export const SEAM_SCHEMES: Readonly<Record<'light' | 'dark', Readonly<Record<string, string>>>> = {
  light: {
    '--bg': '#f7f7f5', '--surface': '#ffffff', '--surface-2': '#f0f0ec', '--border': '#dcdcd6', '--text': '#1f2328', '--muted': '#5c6068',
    '--accent': '#1f5fd6', '--on-accent': '#ffffff', '--success': '#17722f', '--warning': '#7d5300', '--danger': '#bf1f2a', '--on-danger': '#ffffff',
    '--focus-ring': '#1f5fd6', '--selected-bg': '#e3ebfb', '--code-bg': '#f3f3ef', '--diff-add-bg': '#e6ffec', '--diff-del-bg': '#ffebe9',
    '--diff-add-word-bg': '#abf2bc', '--diff-del-word-bg': '#ffcecb', '--user-message-bg': '#ffffff', '--selection-bg': '#c8dafc',
    '--permission': '#1f5fd6', '--plan-mode': '#1f5fd6', '--prompt-border': '#dcdcd6'
  },
  dark: {
    '--bg': '#16181c', '--surface': '#1d2025', '--surface-2': '#24282e', '--border': '#343941', '--text': '#dfe2e7', '--muted': '#9aa1ab',
    '--accent': '#6ea2ff', '--on-accent': '#0d1117', '--success': '#3fb950', '--warning': '#d29922', '--danger': '#ff6b62', '--on-danger': '#0d1117',
    '--focus-ring': '#6ea2ff', '--selected-bg': '#1f2a3d', '--code-bg': '#22262c', '--diff-add-bg': '#12301d', '--diff-del-bg': '#3a1a1c',
    '--diff-add-word-bg': '#1f5c30', '--diff-del-word-bg': '#6b2a2e', '--user-message-bg': '#1d2025', '--selection-bg': '#264f78',
    '--permission': '#6ea2ff', '--plan-mode': '#6ea2ff', '--prompt-border': '#343941'
  }
}

/** Text colours, each kept at 4.5:1 on these surfaces. */
const FOREGROUNDS = ['--text', '--muted', '--accent', '--success', '--warning', '--danger', '--plan-mode'] as const
const SURFACES = ['--bg', '--surface', '--surface-2'] as const
/** Tinted backgrounds and the text colours drawn on them (a changed word is plain text; a diff line also has muted line numbers). */
const TINTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['--user-message-bg', ['--text', '--muted']],
  ['--selected-bg', ['--text', '--muted']],
  ['--code-bg', ['--text']],
  ['--diff-add-bg', ['--text', '--muted']],
  ['--diff-del-bg', ['--text', '--muted']],
  ['--diff-add-word-bg', ['--text']],
  ['--diff-del-word-bg', ['--text']]
]
/** Text drawn on a colour: `--on-accent` on `--accent`, `--on-danger` on `--danger`. */
const ON_COLOUR = [['--on-accent', '--accent'], ['--on-danger', '--danger']] as const

/** WCAG AA for normal text, with a little room so rounding to hex never lands under it. */
export const MIN_CONTRAST = 4.5
const TARGET = 4.55

export interface MappedTheme {
  scheme: 'light' | 'dark'
  /** The variables the theme changes (hex), by name; the others keep the base scheme's. */
  variables: Record<string, string>
  /** Each colour changed for contrast, in words (variable, token, from, to, why). */
  adjustments: string[]
}

/** The Seam variables a parsed theme sets, readable (see the file's head). */
export function mapTheme(theme: Pick<ParsedTheme, 'scheme' | 'colours'>): MappedTheme {
  const base = SEAM_SCHEMES[theme.scheme]
  const palette: Record<string, Rgb> = Object.fromEntries(Object.entries(base).map(([name, hex]) => [name, fromHex(hex)]))
  const changed = new Set<string>()
  const origin: Record<string, string> = {}
  for (const [variable, token] of Object.entries(TOKEN_MAP)) {
    const colour = theme.colours[token]
    if (!colour) continue
    palette[variable] = colour
    origin[variable] = token
    changed.add(variable)
  }
  if (theme.colours.background) {
    for (const [variable, amount] of Object.entries(DERIVED_FROM_BACKGROUND)) {
      palette[variable] = mix(palette['--bg'], palette['--text'], amount)
      origin[variable] = `background mixed ${Math.round(amount * 100)}% towards text`
      changed.add(variable)
    }
  }
  const adjustments: string[] = []
  const record = (variable: string, before: Rgb, against: string, ratio: number) => {
    changed.add(variable)
    const from = origin[variable] ? `${origin[variable]} ${toHex(before)}` : `Seam's ${toHex(before)}`
    adjustments.push(`${variable} (${from}) → ${toHex(palette[variable])}: ${ratio.toFixed(2)}:1 on ${against} is under ${MIN_CONTRAST}:1`)
  }

  for (const fg of FOREGROUNDS) {
    const worst = lowest(palette[fg], SURFACES.map((s) => [s, palette[s]] as const))
    if (worst.ratio >= MIN_CONTRAST) continue
    const before = palette[fg]
    const extreme = luminance(palette['--bg']) < 0.18 ? WHITE : BLACK
    palette[fg] = moveUntil(before, extreme, (c) => SURFACES.every((s) => contrast(c, palette[s]) >= TARGET))
    record(fg, before, worst.name, worst.ratio)
  }
  for (const [tint, texts] of TINTS) {
    const worst = lowest(palette[tint], texts.map((t) => [t, palette[t]] as const))
    if (worst.ratio >= MIN_CONTRAST) continue
    const before = palette[tint]
    palette[tint] = moveUntil(before, palette['--bg'], (c) => texts.every((t) => contrast(c, palette[t]) >= TARGET))
    record(tint, before, `${worst.name} text`, worst.ratio)
  }
  for (const [fg, bg] of ON_COLOUR) {
    const ratio = contrast(palette[fg], palette[bg])
    if (ratio >= MIN_CONTRAST) continue
    const before = palette[fg]
    const extreme = contrast(WHITE, palette[bg]) > contrast(BLACK, palette[bg]) ? WHITE : BLACK
    palette[fg] = moveUntil(before, extreme, (c) => contrast(c, palette[bg]) >= TARGET)
    record(fg, before, bg, ratio)
  }
  const variables = Object.fromEntries([...changed].sort().map((name) => [name, toHex(palette[name])]))
  return { scheme: theme.scheme, variables, adjustments }
}

const WHITE: Rgb = { r: 255, g: 255, b: 255 }
const BLACK: Rgb = { r: 0, g: 0, b: 0 }

function lowest(colour: Rgb, against: ReadonlyArray<readonly [string, Rgb]>): { name: string; ratio: number } {
  return against.map(([name, other]) => ({ name, ratio: contrast(colour, other) })).reduce((a, b) => (b.ratio < a.ratio ? b : a))
}

/** `from` moved towards `to` in 2% steps until `good` holds (or all the way). */
function moveUntil(from: Rgb, to: Rgb, good: (colour: Rgb) => boolean): Rgb {
  for (let step = 1; step <= 50; step++) {
    const candidate = mix(from, to, step / 50)
    if (good(candidate)) return candidate
  }
  return to
}
