// Turns a custom command and its arguments into the prompt the model gets:
// - Claude Code: `$ARGUMENTS` (the whole string), `$ARGUMENTS[N]` and its shorthand `$N`, 0-based
//   (`$0` is the first argument; arguments split like a shell, quotes kept together), `$name` for
//   the front matter's `arguments`; with none of these in the file, non-empty arguments are
//   appended as `ARGUMENTS: <args>`.
// - Codex prompts: `$ARGUMENTS`, `$1`..`$9` (1-based, as Codex numbers them), named `$NAME`
//   placeholders filled from `KEY=value` arguments, and `$$` for a literal dollar.
// - `@path` references (inside the workspace only) have the file's contents appended.
// - `` !`cmd` `` runs `cmd` in the workspace and puts its output in its place (Claude Code only),
//   and only in a trusted workspace: otherwise nothing runs and the command fails.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { commandShell, findPowerShell } from '../process/command-shell'
import { spawnGuarded } from '../process/guarded-spawn'
import type { CustomCommand } from './custom'

/** A command that cannot be run as typed; the message names the command. */
export class CommandError extends Error {
  readonly code = 'COMMAND_ERROR'
  constructor(message: string) {
    super(message)
    this.name = 'CommandError'
  }
}

export interface ExpandOptions {
  workspace: string
  /** Whether the workspace is trusted (shell lines run only then). */
  trusted: boolean
  /** Why shell lines may not run though the workspace is trusted (the command's text is not approved). */
  notApproved?: string
  /** Runs one shell line in the workspace; resolves with its output. Default: `bash -c` with `env`. */
  runShell?: (command: string, cwd: string) => Promise<string>
  /** The environment of shell lines (keys already removed by the caller). */
  env?: Record<string, string>
}

const SHELL_LINE = /(^|[\s(])!`([^`\n]+)`/g
const FILE_REF = /(^|\s)@([^\s`'"<>]+)/g
const NAMED = /\$([A-Z][A-Z0-9_]*)/g
const MAX_FILE_CHARS = 200_000
const SHELL_TIMEOUT_MS = 30_000

/** The shell lines (`` !`cmd` ``) of a command's text. */
export function shellLinesOf(text: string): string[] {
  return [...text.matchAll(SHELL_LINE)].map((match) => match[2])
}

/** `text` with its shell lines replaced, in order, by `outputs` (one per line `shellLinesOf` found). */
export function replaceShellLines(text: string, outputs: readonly string[]): string {
  let index = 0
  return text.replace(SHELL_LINE, (_match, before: string) => `${before}${outputs[index++] ?? ''}`)
}

export async function expandCommand(command: CustomCommand, args: string, options: ExpandOptions): Promise<string> {
  const substituted = command.source === 'codex' ? substituteCodex(command, args) : substituteClaude(command.body, args, command.argumentNames)
  const shellLines = command.source === 'codex' ? [] : shellLinesOf(substituted)
  if (shellLines.length > 0 && !options.trusted) {
    throw new CommandError(`/${command.name} runs shell commands (!\`${shellLines[0]}\`), which needs a trusted workspace: trust ${options.workspace} first (nothing was run)`)
  }
  if (shellLines.length > 0 && options.notApproved) {
    throw new CommandError(`/${command.name} runs shell commands (!\`${shellLines[0]}\`): ${options.notApproved} (nothing was run)`)
  }
  const files = fileReferences(command, substituted.replace(SHELL_LINE, '$1'), options.workspace)
  let text = substituted
  if (shellLines.length > 0) {
    const run = options.runShell ?? ((line: string, cwd: string) => runShellLine(line, cwd, options.env))
    const outputs: string[] = []
    for (const line of shellLines) {
      try {
        outputs.push(await run(line, options.workspace))
      } catch (error) {
        throw new CommandError(`/${command.name}: the shell command \`${line}\` failed: ${(error as Error).message}`)
      }
    }
    text = replaceShellLines(text, outputs)
  }
  const blocks = files.map(({ path, text: contents }) => `Contents of ${path}:\n\`\`\`\n${contents}\n\`\`\``)
  return [text.trimEnd(), ...blocks].join('\n\n')
}

/**
 * Claude Code: `$ARGUMENTS` is the whole argument string, `$ARGUMENTS[N]` and `$N` the N-th
 * argument counted from 0, `$name` the argument at the position of `name` in `arguments`; a
 * missing argument is empty. One pass, so an argument's own `$…` text is never substituted again.
 * Arguments a file does not place are appended.
 */
export function substituteClaude(body: string, args: string, names: readonly string[] = []): string {
  const trimmed = args.trim()
  const words = splitArguments(trimmed)
  const named = new Map(names.map((name, index) => [name, index]))
  let uses = false
  const text = body.replace(/\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)\b|\$([A-Za-z_][A-Za-z0-9_]*)\b/g, (match, indexed: string | undefined, digits: string | undefined, name: string | undefined) => {
    if (name !== undefined && !named.has(name)) return match
    uses = true
    if (indexed !== undefined) return words[Number(indexed)] ?? ''
    if (digits !== undefined) return words[Number(digits)] ?? ''
    if (name !== undefined) return words[named.get(name)!] ?? ''
    return trimmed
  })
  return uses || trimmed === '' ? text : `${text.trimEnd()}\n\nARGUMENTS: ${trimmed}`
}

/** Codex: positional `$1`..`$9` and `$ARGUMENTS`, or named `$NAME` from `KEY=value` arguments; `$$` is a dollar. */
export function substituteCodex(command: Pick<CustomCommand, 'name' | 'body'>, args: string): string {
  const trimmed = args.trim()
  const words = splitArguments(trimmed)
  const named = new Set([...command.body.replace(/\$\$/g, '').matchAll(NAMED)].map((m) => m[1]).filter((name) => name !== 'ARGUMENTS'))
  const values = new Map<string, string>()
  if (named.size > 0) {
    for (const word of words) {
      const eq = word.indexOf('=')
      if (eq <= 0) throw new CommandError(`/${command.name} takes KEY=value arguments (${[...named].map((n) => `${n}=…`).join(' ')}); got "${word}"`)
      values.set(word.slice(0, eq), word.slice(eq + 1))
    }
    const missing = [...named].filter((name) => !values.has(name))
    if (missing.length > 0) throw new CommandError(`/${command.name} is missing required arguments: ${missing.map((n) => `${n}=…`).join(' ')}`)
  }
  return command.body.replace(/\$\$|\$ARGUMENTS\b|\$([1-9])\b|\$([A-Z][A-Z0-9_]*)/g, (match, digit: string | undefined, name: string | undefined) => {
    if (match === '$$') return '$'
    if (match === '$ARGUMENTS') return trimmed
    if (digit) return words[Number(digit) - 1] ?? ''
    return name !== undefined && values.has(name) ? values.get(name)! : match
  })
}

/** Splits arguments at spaces, as a shell does: "double" (with \\ escapes) and 'single' quotes keep spaces inside a word and are removed (`KEY="a b"` is one word). */
export function splitArguments(text: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: '"' | "'" | undefined
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quote) {
      if (char === quote) quote = undefined
      else if (quote === '"' && char === '\\' && i + 1 < text.length) word += text[++i]
      else word += char
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else if (char === '"' || char === "'") {
      quote = char
      word ??= ''
    } else word = (word ?? '') + char
  }
  if (word !== undefined) words.push(word)
  return words
}

/** The files `@path` names: existing files inside the workspace, each once. A path leading outside it is refused. */
function fileReferences(command: CustomCommand, text: string, workspace: string): Array<{ path: string; text: string }> {
  const root = realpathSync(workspace)
  const seen = new Set<string>()
  const files: Array<{ path: string; text: string }> = []
  for (const match of text.matchAll(FILE_REF)) {
    const found = existingPath(match[2], workspace)
    if (!found) continue
    const real = realpathSync(found)
    const inside = relative(root, real)
    if (inside.startsWith('..') || isAbsolute(inside)) throw new CommandError(`/${command.name}: @${match[2]} is outside the workspace (${workspace}); only workspace files can be referenced`)
    if (seen.has(real) || !statSync(real).isFile()) continue
    seen.add(real)
    let contents = readFileSync(real, 'utf8')
    if (contents.length > MAX_FILE_CHARS) contents = `${contents.slice(0, MAX_FILE_CHARS)}\n[truncated: ${contents.length} characters in all]`
    files.push({ path: inside.split(sep).join('/'), text: contents })
  }
  return files
}

/** `ref` as a path that exists, trying it without trailing sentence punctuation too. */
function existingPath(ref: string, workspace: string): string | undefined {
  for (const candidate of [ref, ref.replace(/[.,;:!?)\]]+$/, '')]) {
    if (!candidate) continue
    const path = resolve(workspace, candidate)
    if (existsSync(path)) return path
  }
  return undefined
}

/**
 * Runs one `` !`cmd` `` line with `bash -c` (or, for a skill's `shell: powershell`, PowerShell's
 * `-Command`) in `cwd` through the guarded child-process service (its own process group, killed
 * with Seam; 30 s); resolves with its output, rejects with why it failed.
 */
export function runShellLine(command: string, cwd: string, env: Record<string, string> | undefined, shell: 'bash' | 'powershell' = 'bash'): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let program: string
    try {
      program = shell === 'powershell' ? findPowerShell({ env: env ?? {} }) : commandShell('bash')
    } catch (error) {
      return reject(error)
    }
    const args = shell === 'powershell' ? ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', command] : ['-c', command]
    // stdin closed, not a socket: bash sources ~/.bashrc when its stdin looks like a remote shell's.
    // Its own process group, killed with Seam; the deadline ends the whole group.
    const guarded = spawnGuarded(program, args, { cwd, env: env ?? {}, stdio: ['ignore', 'pipe', 'pipe'] })
    const { child } = guarded
    const deadline = setTimeout(() => guarded.signalGroup('SIGTERM'), SHELL_TIMEOUT_MS)
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(0, MAX_FILE_CHARS)))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(0, MAX_FILE_CHARS)))
    child.on('error', (error) => {
      clearTimeout(deadline)
      guarded.release()
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(deadline)
      guarded.release()
      if (code === 0) return resolvePromise(`${stdout}${stderr}`.trimEnd())
      const why = signal ? `stopped by ${signal} (timeout ${SHELL_TIMEOUT_MS / 1000} s)` : `exit code ${String(code)}`
      reject(new Error(`${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`))
    })
  })
}
