// Syntax highlighting for code blocks, run in highlight.worker.ts and loaded lazily: the shiki
// core, the two themes and each language grammar are separate chunks, fetched the first time a
// block needs them. The regex engine is shiki's JavaScript one, so no WebAssembly (the CSP allows
// none) ships or runs.
import type { HighlighterCore, ThemedToken } from 'shiki/core'
import { DARK_THEME, LIGHT_THEME, type CodeToken, type HighlightedLanguage } from './languages'

/** A grammar loader per highlighted language. */
const LANGUAGES: Record<HighlightedLanguage, () => Promise<unknown>> = {
  bash: () => import('shiki/langs/bash.mjs'),
  c: () => import('shiki/langs/c.mjs'),
  cpp: () => import('shiki/langs/cpp.mjs'),
  csharp: () => import('shiki/langs/csharp.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  java: () => import('shiki/langs/java.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  kotlin: () => import('shiki/langs/kotlin.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  php: () => import('shiki/langs/php.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  ruby: () => import('shiki/langs/ruby.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  swift: () => import('shiki/langs/swift.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs')
}

let highlighter: Promise<HighlighterCore> | undefined
const loaded = new Map<string, Promise<void>>()

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, light, dark] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
      import('shiki/themes/github-light-default.mjs'),
      import('shiki/themes/github-dark-default.mjs')
    ])
    return createHighlighterCore({ themes: [light.default, dark.default], langs: [], engine: createJavaScriptRegexEngine() })
  })()
  return highlighter
}

/** Tokenises `code` as `language` in both themes; null when the language is not highlighted. */
export async function highlightCode(code: string, language: string | null): Promise<CodeToken[][] | null> {
  if (!language || !Object.hasOwn(LANGUAGES, language)) return null
  const core = await getHighlighter()
  let grammar = loaded.get(language)
  if (!grammar) {
    grammar = LANGUAGES[language as HighlightedLanguage]().then((mod) => core.loadLanguage((mod as { default: Parameters<HighlighterCore['loadLanguage']>[0] }).default))
    loaded.set(language, grammar)
  }
  await grammar
  const lines = core.codeToTokensWithThemes(code, { lang: language, themes: { light: LIGHT_THEME, dark: DARK_THEME } })
  return lines.map((line) => line.map((token) => toCodeToken(token.content, token.variants.light, token.variants.dark)))
}

function toCodeToken(content: string, light: Pick<ThemedToken, 'color' | 'fontStyle'> | undefined, dark: Pick<ThemedToken, 'color'> | undefined): CodeToken {
  return { content, color: light?.color, dark: dark?.color, fontStyle: light?.fontStyle }
}
