// Colour values as Claude Code's theme files write them, turned into sRGB: `#rgb`, `#rrggbb`,
// `rgb(r, g, b)`, `ansi:<name>` (the 16 terminal colours) and `ansi256(n)` (xterm's 256). A
// terminal resolves the ANSI forms through its own palette; Seam has no terminal, so it uses the
// palettes below (one for a dark base, one for a light base). Also the WCAG contrast arithmetic
// the mapping uses to keep text readable.

export interface Rgb {
  r: number
  g: number
  b: number
}

export const ANSI_NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const

/**
 * The 16 colours for `ansi:<name>` and `ansi256(0..15)`: normal then bright, in ANSI order. Seam's
 * own choice, picked so each reads on Seam's background of the same scheme; a theme that wants
 * exact colours writes `rgb()` or hex (README, "ANSI colours").
 */
const ANSI_PALETTE: Record<'dark' | 'light', readonly string[]> = {
  dark: ['#1d2025', '#ea6f76', '#5fb86a', '#d6b25a', '#5c94e8', '#b77fd9', '#4cb9c4', '#c9ced6', '#6b7280', '#ff8a8f', '#86d993', '#f2d27c', '#8ab4ff', '#d7a3f5', '#7ad9e2', '#f4f6f9'],
  light: ['#1f2328', '#b3261e', '#17722f', '#8a6100', '#1f5fd6', '#8e3cb8', '#0b6e77', '#6e7781', '#57606a', '#cf222e', '#116329', '#7d4e00', '#0a4fc2', '#7a2fa8', '#0b6a73', '#f6f8fa']
}

const BYTE = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const RGB_FORM = new RegExp(`^rgb\\(\\s*${BYTE}\\s*,\\s*${BYTE}\\s*,\\s*${BYTE}\\s*\\)$`)
const HEX_FORM = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const ANSI_FORM = new RegExp(`^ansi:(${ANSI_NAMES.join('|')})(Bright)?$`)
const ANSI256_FORM = new RegExp(`^ansi256\\(${BYTE}\\)$`)

/** What a colour value may look like, for messages. */
export const COLOUR_FORMS = '#rgb, #rrggbb, rgb(r,g,b), ansi:<black|red|green|yellow|blue|magenta|cyan|white>[Bright] or ansi256(0-255)'

/** The sRGB of a colour value in one of Claude Code's forms, or undefined when it is none of them. */
export function parseColour(value: string, scheme: 'dark' | 'light'): Rgb | undefined {
  const text = value.trim()
  const hex = HEX_FORM.exec(text)
  if (hex) {
    const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d).join('') : hex[1]
    return { r: parseInt(digits.slice(0, 2), 16), g: parseInt(digits.slice(2, 4), 16), b: parseInt(digits.slice(4, 6), 16) }
  }
  const rgb = RGB_FORM.exec(text)
  if (rgb) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]) }
  const ansi = ANSI_FORM.exec(text)
  if (ansi) return fromHex(ANSI_PALETTE[scheme][ANSI_NAMES.indexOf(ansi[1] as (typeof ANSI_NAMES)[number]) + (ansi[2] ? 8 : 0)])
  const ansi256 = ANSI256_FORM.exec(text)
  if (ansi256) return xterm256(Number(ansi256[1]), scheme)
  return undefined
}

/** xterm's 256 colours: the 16 of the palette, a 6×6×6 cube, then 24 greys. */
function xterm256(index: number, scheme: 'dark' | 'light'): Rgb {
  if (index < 16) return fromHex(ANSI_PALETTE[scheme][index])
  if (index < 232) {
    const level = (n: number) => (n === 0 ? 0 : 55 + n * 40)
    const cube = index - 16
    return { r: level(Math.floor(cube / 36)), g: level(Math.floor(cube / 6) % 6), b: level(cube % 6) }
  }
  const grey = 8 + (index - 232) * 10
  return { r: grey, g: grey, b: grey }
}

export function fromHex(hex: string): Rgb {
  return { r: parseInt(hex.slice(1, 3), 16), g: parseInt(hex.slice(3, 5), 16), b: parseInt(hex.slice(5, 7), 16) }
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`
}

/** `a` moved `amount` (0..1) of the way towards `b`. */
export function mix(a: Rgb, b: Rgb, amount: number): Rgb {
  return { r: Math.round(a.r + (b.r - a.r) * amount), g: Math.round(a.g + (b.g - a.g) * amount), b: Math.round(a.b + (b.b - a.b) * amount) }
}

/** WCAG 2 relative luminance. */
export function luminance({ r, g, b }: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/** WCAG 2 contrast ratio between two colours (1..21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}
