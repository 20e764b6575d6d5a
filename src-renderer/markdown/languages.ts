// Which fences are highlighted and how tokens carry both themes' colours: what the window needs
// to know about highlighting without loading any of it (the grammars live in the worker's chunks).

/** The languages models write most; other fences stay plain text. */
export const HIGHLIGHTED_LANGUAGES = [
  'bash',
  'c',
  'cpp',
  'csharp',
  'css',
  'diff',
  'go',
  'html',
  'java',
  'javascript',
  'json',
  'jsx',
  'kotlin',
  'markdown',
  'php',
  'python',
  'ruby',
  'rust',
  'sql',
  'swift',
  'toml',
  'tsx',
  'typescript',
  'yaml'
] as const

export type HighlightedLanguage = (typeof HIGHLIGHTED_LANGUAGES)[number]

const ALIASES: Record<string, string> = {
  sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash',
  'c++': 'cpp', cs: 'csharp', golang: 'go', js: 'javascript', mjs: 'javascript', cjs: 'javascript',
  md: 'markdown', py: 'python', rb: 'ruby', rs: 'rust', ts: 'typescript', mts: 'typescript', yml: 'yaml', kt: 'kotlin', htm: 'html'
}

export const LIGHT_THEME = 'github-light-default'
export const DARK_THEME = 'github-dark-default'

/** The grammar name for a fence's info string, or null when it is not one we highlight. */
export function languageFor(info: string | undefined): string | null {
  if (!info) return null
  const name = info.trim().toLowerCase()
  const resolved = ALIASES[name] ?? name
  return (HIGHLIGHTED_LANGUAGES as readonly string[]).includes(resolved) ? resolved : null
}

/** One token: its text and both themes' colours (light in `color`, dark in `dark`). */
export interface CodeToken {
  content: string
  color?: string
  dark?: string
  fontStyle?: number
}
