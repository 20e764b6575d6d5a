// A command line as the simple commands the shell would run. The walk uses its own stack (a long
// `a && b && …` chain is a deep tree) and counts only real nesting (substitutions, subshells,
// `bash -c` payloads) against MAX_NESTING.
import type { Node } from 'web-tree-sitter'
import { parseBash } from './parser'
import { seeThrough, unwrap, type ShellWord } from './wrappers'
import { wordValue } from './words'

export interface Redirect {
  /** `>`, `>>`, `<`, `&>`, `&>>`, `>|`, `<>`, `>&` (to a file). Heredocs, here-strings and fd duplications (`2>&1`) are not listed. */
  op: string
  /** The file as the shell will open it (quotes removed), or the source text when `computed`. */
  target: string
  /** The target is computed when the command runs (`> "$OUT"`). */
  computed?: true
}

export interface SimpleCommand {
  /** The words after wrappers (`timeout 5`, `env X=1`, `nohup`, …) and leading `VAR=value` are stripped, quotes removed. */
  argv: string[]
  /** Indexes of `argv` entries the shell computes when it runs (`$X`, `$(…)`, `*.txt`, `{a,b}`): their entry is the source text. */
  computed: number[]
  /** Words not seen here follow at run time (`xargs` appends its input). */
  moreArgs: boolean
  /** The part's own source text, wrappers stripped (what a `Bash(…)` rule's pattern is matched against). */
  text: string
  /** Files this part reads from or writes to through redirections (its own and its enclosing statement's). */
  redirects: Redirect[]
  /**
   * Present when the part runs a command other than its text says: the command name reduced to
   * its basename when given as an absolute path (`/bin/rm x` -> `rm x`), quotes removed from the
   * name (`"rm" x`, `\rm x` -> `rm x`), and what `sudo`/`doas`/`run0` run (`sudo -u bob rm x` ->
   * `rm x`; a `-c` payload's parts). Deny and ask rules (and file rules) also judge these; allow
   * rules match `text` only.
   */
  alternatives?: Alternative[]
}

/** Another reading of a part: what it runs, seen through. */
export type Alternative = Omit<SimpleCommand, 'alternatives'>

export type BashSplit = { readable: true; commands: SimpleCommand[] } | { readable: false; reason: string }

/** Substitutions, subshells and `bash -c` payloads nested deeper than this are unreadable. */
export const MAX_NESTING = 32

class Unreadable extends Error {}

/** Splits with the loaded parser (see `loadBashParser`); unreadable when it is not loaded yet. */
export function splitLoaded(command: string): BashSplit {
  try {
    return { readable: true, commands: splitSource(command, 0) }
  } catch (error) {
    if (error instanceof Unreadable) return { readable: false, reason: error.message }
    throw error
  }
}

interface Work {
  node: Node
  depth: number
  /** Redirections of enclosing statements, which apply to every command inside them. */
  redirects: Redirect[]
}

const NESTING = new Set(['command_substitution', 'process_substitution', 'subshell'])
/** Redirect nodes whose target is a file. */
const FILE_REDIRECT = 'file_redirect'

function splitSource(source: string, depth: number): SimpleCommand[] {
  if (depth > MAX_NESTING) throw new Unreadable(`it nests commands more than ${MAX_NESTING} deep`)
  const parsed = parseBash(source)
  if ('error' in parsed) throw new Unreadable(parsed.error)
  try {
    const root = parsed.tree.rootNode
    if (root.hasError) throw new Unreadable(syntaxError(root, source))
    return walk(root, source, depth)
  } finally {
    parsed.tree.delete()
  }
}

function walk(root: Node, source: string, baseDepth: number): SimpleCommand[] {
  const parts: SimpleCommand[] = []
  const stack: Work[] = [{ node: root, depth: baseDepth, redirects: [] }]
  const push = (nodes: Node[], depth: number, redirects: Redirect[]) => {
    for (let i = nodes.length - 1; i >= 0; i--) stack.push({ node: nodes[i], depth, redirects })
  }
  for (let work = stack.pop(); work; work = stack.pop()) {
    const { node, redirects } = work
    const depth = NESTING.has(node.type) ? work.depth + 1 : work.depth
    if (depth > MAX_NESTING) throw new Unreadable(`it nests commands more than ${MAX_NESTING} deep`)
    switch (node.type) {
      case 'command':
        // The command's own parts first, then what its words run (substitutions), in source order.
        parts.push(...commandParts(node, source, depth, redirects))
        push(node.namedChildren, depth, [])
        break
      case 'redirected_statement': {
        const own = node.childrenForFieldName('redirect').flatMap(fileRedirect)
        const body = node.childForFieldName('body')
        push(node.childrenForFieldName('redirect'), depth, []) // their substitutions, after the body
        if (!body) break
        // The grammar hangs `a && b > f` and `a | b > f` on the whole list; bash gives `> f` to `b`.
        if (body.type === 'list' || body.type === 'pipeline') {
          const children = body.namedChildren
          stack.push({ node: children[children.length - 1], depth, redirects: [...redirects, ...own] })
          push(children.slice(0, -1), depth, redirects)
        } else push([body], depth, [...redirects, ...own])
        break
      }
      case 'declaration_command':
      case 'unset_command':
        parts.push(declarationPart(node, redirects))
        push(node.namedChildren, depth, [])
        break
      case 'command_substitution':
      case 'process_substitution':
        push(node.namedChildren, depth, []) // the outer redirections are not the inner command's
        break
      case 'comment':
        break
      default:
        push(node.namedChildren, depth, redirects)
    }
  }
  return parts
}

/** The parts one `command` node runs: itself with wrappers stripped, or its `bash -c` payload's. */
function commandParts(node: Node, source: string, depth: number, inherited: Redirect[]): SimpleCommand[] {
  const redirects = [...node.childrenForFieldName('redirect').flatMap(fileRedirect), ...inherited]
  const nameNode = node.childForFieldName('name')
  const wordNodes = [nameNode?.namedChildren[0] ?? nameNode, ...node.childrenForFieldName('argument')].filter((n): n is Node => n !== null && n !== undefined)
  const words: ShellWord[] = wordNodes.map((n) => ({ value: wordValue(n), start: n.startIndex, end: n.endIndex }))
  const unwrapped = unwrap(words)
  switch (unwrapped.kind) {
    case 'none':
      return []
    case 'unreadable':
      throw new Unreadable(`${unwrapped.reason}: ${clip(node.text)}`)
    case 'shell':
      return splitSource(unwrapped.payload, depth + 1).map((part) => ({ ...part, redirects: [...part.redirects, ...redirects] }))
    case 'command': {
      const kept = unwrapped.words
      const part: SimpleCommand = { ...partOf(kept, source, unwrapped.unknownArgs), redirects }
      const alternatives = alternativesOf(kept, source, depth, part)
      return [alternatives.length > 0 ? { ...part, alternatives } : part]
    }
  }
}

function partOf(words: ShellWord[], source: string, moreArgs: boolean): Omit<SimpleCommand, 'redirects'> {
  const head = words[0]
  const last = words[words.length - 1]
  return {
    argv: words.map((w) => (w.value.literal ? w.value.value : source.slice(w.start, w.end))),
    computed: words.flatMap((w, i) => (w.value.literal ? [] : [i])),
    moreArgs,
    text: (head.shown ?? source.slice(head.start, head.end)) + source.slice(head.end, last.end)
  }
}

/** The command name shown as the shell reads it, quotes removed. */
function named([head, ...rest]: ShellWord[]): ShellWord[] {
  return [head.value.literal ? { ...head, shown: head.shown ?? head.value.value } : head, ...rest]
}

/** What deny and ask rules also judge of a part: see `SimpleCommand.alternatives`. */
function alternativesOf(words: ShellWord[], source: string, depth: number, part: SimpleCommand): Alternative[] {
  const seen = seeThrough(words)
  let found: Alternative[] = []
  switch (seen.kind) {
    case 'unreadable':
      throw new Unreadable(`${seen.reason}: ${clip(part.text)}`)
    case 'shell':
      found = splitSource(seen.payload, depth + 1).flatMap(({ alternatives, ...inner }) =>
        [inner, ...(alternatives ?? [])].map((a) => ({ ...a, moreArgs: a.moreArgs || part.moreArgs, redirects: [...a.redirects, ...part.redirects] }))
      )
      break
    case 'command':
      found = [{ ...partOf(named(seen.words), source, seen.unknownArgs || part.moreArgs), redirects: part.redirects }]
      break
    case 'none': {
      // A quoted or escaped command name (`"rm" x`, `\rm x`): the name as the shell reads it.
      const head = words[0]
      if (head.value.literal && source.slice(head.start, head.end) !== head.value.value) {
        found = [{ ...partOf(named(words), source, part.moreArgs), redirects: part.redirects }]
      }
    }
  }
  return found.filter((a) => a.text !== part.text)
}

/** `export A=1 B=$(x)`, `local x`, `unset y`: a part named by its keyword. */
function declarationPart(node: Node, redirects: Redirect[]): SimpleCommand {
  const keyword = node.children[0]?.text ?? node.type
  const args = node.namedChildren.map((child) => {
    const value = child.type === 'variable_assignment' ? child.childForFieldName('value') : child
    const literal = value ? wordValue(value) : { literal: true as const, value: '' }
    if (!literal.literal) return { text: child.text, literal: false }
    return { text: child.type === 'variable_assignment' ? `${child.childForFieldName('name')?.text ?? ''}=${literal.value}` : literal.value, literal: true }
  })
  return {
    argv: [keyword, ...args.map((a) => a.text)],
    computed: args.flatMap((a, i) => (a.literal ? [] : [i + 1])),
    moreArgs: false,
    text: node.text,
    redirects
  }
}

function fileRedirect(node: Node): Redirect[] {
  if (node.type !== FILE_REDIRECT) return [] // heredoc_redirect, herestring_redirect
  const destination = node.childForFieldName('destination')
  const op = node.children.find((child) => !child.isNamed)?.text
  if (!destination || !op) return []
  const value = wordValue(destination)
  // `2>&1`, `>&-`: a file descriptor, not a file.
  if ((op === '>&' || op === '<&') && value.literal && /^(\d+|-)$/.test(value.value)) return []
  return [value.literal ? { op, target: value.value } : { op, target: destination.text, computed: true }]
}

function syntaxError(root: Node, source: string): string {
  const bad = firstError(root)
  if (!bad) return 'it is not valid shell syntax'
  const line = source.slice(0, bad.startIndex).split('\n').length
  return `it is not valid shell syntax (line ${line}, near ${JSON.stringify(clip(source.slice(bad.startIndex, bad.startIndex + 20) || 'the end'))})`
}

function firstError(root: Node): Node | undefined {
  const stack = [root]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'ERROR' || node.isMissing) return node
    if (!node.hasError) continue
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i])
  }
  return undefined
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
