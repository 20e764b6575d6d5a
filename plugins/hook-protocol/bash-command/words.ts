// What a shell word is before the command runs: its literal text when quoting alone decides it,
// or "dynamic" when the shell computes it at run time (expansions, substitutions, globs, braces).
import type { Node } from 'web-tree-sitter'

export type WordValue = { literal: true; value: string } | { literal: false }

const DYNAMIC: WordValue = { literal: false }
/** Unquoted text the shell expands: a glob (`*`, `?`, `[…]`) or a brace expansion (`{a,b}`, `{1..3}`). */
const UNQUOTED_SPECIAL = /[*?]|\[[^\]]*\]|\{[^{}]*(?:,|\.\.)[^{}]*\}/

export function wordValue(node: Node): WordValue {
  switch (node.type) {
    case 'word':
    case 'number':
      return UNQUOTED_SPECIAL.test(node.text.replace(/\\./g, '')) ? DYNAMIC : { literal: true, value: unescapeUnquoted(node.text) }
    case 'raw_string':
      return { literal: true, value: node.text.slice(1, -1) }
    case 'string':
      return doubleQuoted(node)
    case 'concatenation': {
      let value = ''
      for (const part of node.namedChildren) {
        const inner = wordValue(part)
        if (!inner.literal) return DYNAMIC
        value += inner.value
      }
      // A concatenation of bare words is how the grammar spells `{a,b}`: keep that dynamic.
      return UNQUOTED_SPECIAL.test(unquotedText(node)) ? DYNAMIC : { literal: true, value }
    }
    default:
      // simple_expansion, expansion, command_substitution, process_substitution,
      // arithmetic_expansion, ansi_c_string, translated_string, brace_expression, …
      return DYNAMIC
  }
}

/** `"a\"b"` -> `a"b`; any expansion inside makes it dynamic. */
function doubleQuoted(node: Node): WordValue {
  for (const part of node.namedChildren) if (part.type !== 'string_content') return DYNAMIC
  // Between the quotes, only `\\`, `\"`, `\$`, `` \` `` and `\<newline>` are escapes.
  const value = node.text.slice(1, -1).replace(/\\([\\"$`\n])/g, (_, c: string) => (c === '\n' ? '' : c))
  return { literal: true, value }
}

function unescapeUnquoted(text: string): string {
  return text.replace(/\\(\n|.)/g, (_, c: string) => (c === '\n' ? '' : c))
}

/** The text of the unquoted pieces of a concatenation (quoted pieces cannot glob). */
function unquotedText(node: Node): string {
  return node.namedChildren
    .filter((part) => part.type === 'word' || part.type === 'number')
    .map((part) => part.text.replace(/\\./g, ''))
    .join('')
}
