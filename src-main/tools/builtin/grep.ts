// Grep: searches file contents with a JavaScript regular expression (ripgrep-like arguments).
import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import type { ToolDefinition, ToolExec, ToolOutput } from '../../../src-shared/host/tools'
import { listFiles } from './file-walk'
import { IGNORED_FILES_NOTE, IncludeIgnoredArg } from './ignore-arg'
import { newestFirst } from './glob'
import { compilePattern, findMatches, formatContentLines, type FileMatches } from './grep-match'
import { resolveBuiltinToolOptions, type BuiltinToolOptions, type BuiltinToolOptionsInput } from './options'
import { truncateHead } from './output-limit'
import { hasParentSegment, resolveToolPath } from './paths'
import { bufferLooksBinary, describeFsError, errnoCode } from './text-files'

/** `type` names -> file extensions (ripgrep's names for the common ones). */
export const GREP_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  js: ['js', 'jsx', 'mjs', 'cjs'],
  ts: ['ts', 'tsx', 'mts', 'cts'],
  py: ['py', 'pyi'],
  rust: ['rs'],
  go: ['go'],
  java: ['java'],
  md: ['md', 'markdown', 'mdx'],
  json: ['json', 'jsonc', 'json5'],
  c: ['c', 'h'],
  cpp: ['cpp', 'cc', 'cxx', 'hpp', 'hh', 'hxx', 'h'],
  cs: ['cs'],
  css: ['css', 'scss', 'sass', 'less'],
  html: ['html', 'htm'],
  yaml: ['yaml', 'yml'],
  toml: ['toml'],
  sh: ['sh', 'bash', 'zsh'],
  rb: ['rb'],
  php: ['php'],
  kotlin: ['kt', 'kts'],
  swift: ['swift']
}

export const GrepInputSchema = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression to search for, e.g. "log.*Error" or "function\\s+\\w+".'),
  path: z.string().optional().describe('File or directory to search (absolute, or relative to the working directory). Defaults to the working directory.'),
  glob: z.string().optional().describe('Only search files whose path matches this glob, e.g. "*.js" or "src/**/*.{ts,tsx}".'),
  type: z.string().optional().describe(`Only search files of this type: ${Object.keys(GREP_FILE_TYPES).join(', ')}.`),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('"files_with_matches" (default) lists matching files, newest first; "content" shows matching lines; "count" shows matches per file.'),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers in content mode (default true).'),
  '-A': z.number().int().min(0).optional().describe('Lines to show after each match (content mode).'),
  '-B': z.number().int().min(0).optional().describe('Lines to show before each match (content mode).'),
  '-C': z.number().int().min(0).optional().describe('Lines to show before and after each match (content mode).'),
  multiline: z.boolean().optional().describe('Let the pattern span lines (. also matches a newline). Default false: each line is searched alone.'),
  head_limit: z.number().int().positive().optional().describe('Only return the first N lines (content), files (files_with_matches) or entries (count).'),
  include_ignored: IncludeIgnoredArg
})

export type GrepArgs = z.output<typeof GrepInputSchema>
type GrepMode = NonNullable<GrepArgs['output_mode']>

/**
 * Claude Code's Grep tool_response, its key order per mode: files_with_matches `{mode, filenames,
 * numFiles}`; content `{mode, numFiles: 0, filenames: [], content, numLines}`; count `{mode,
 * numFiles, filenames: [], content, numMatches}`.
 */
export interface GrepStructured {
  mode: GrepMode
  numFiles: number
  filenames: string[]
  content?: string
  numLines?: number
  numMatches?: number
}

/** Files read at once while searching. */
const READ_BATCH = 32

export function createGrepTool(input: BuiltinToolOptionsInput = {}): ToolDefinition<GrepArgs> {
  const options = resolveBuiltinToolOptions(input)
  return {
    name: 'Grep',
    description: [
      'Searches file contents with a regular expression (JavaScript syntax) under a file or directory.',
      '- output_mode: "files_with_matches" (default) lists files, newest first; "content" shows matching lines as path:line:text; "count" shows matches per file.',
      '- Narrow with glob (e.g. "*.ts", "**/*.{ts,tsx}") or type (e.g. "py", "js").',
      '- Each line is searched alone; set multiline: true for patterns that span lines.',
      '- Literal braces and parentheses need escaping: "interface\\{\\}" finds "interface{}".',
      `- ${IGNORED_FILES_NOTE} node_modules, binary files and files over ${Math.round(options.grepMaxFileBytes / 1024 / 1024)} MB are skipped too.`,
      '- Use this tool instead of grep or rg in Bash.'
    ].join('\n'),
    inputSchema: GrepInputSchema,
    concurrent: true,
    sideEffects: false,
    execute: (args: GrepArgs, exec: ToolExec) => runGrep(args, exec, options)
  }
}

async function runGrep(args: GrepArgs, exec: ToolExec, options: BuiltinToolOptions): Promise<ToolOutput> {
  const mode: GrepMode = args.output_mode ?? 'files_with_matches'
  const multiline = args.multiline ?? false
  const regex = compilePattern(args.pattern, args['-i'] ?? false, multiline)
  if (!(regex instanceof RegExp)) return failure(regex.problem)
  if (args.type !== undefined && !(args.type in GREP_FILE_TYPES)) {
    return failure(`Unknown type "${args.type}". Known types: ${Object.keys(GREP_FILE_TYPES).join(', ')}. Or use glob, e.g. "*.ext".`)
  }
  if (args.glob !== undefined && (path.isAbsolute(args.glob) || hasParentSegment(args.glob))) {
    return failure('glob filters files under `path`; it cannot be absolute or contain "..". Put the directory in `path` instead.')
  }

  const target = args.path === undefined ? exec.cwd : resolveToolPath(exec.cwd, args.path)
  let files: string[]
  try {
    files = await candidateFiles(target, args, exec.signal, args.include_ignored ?? !options.respectIgnoreFiles)
  } catch (error) {
    return failure(errnoCode(error) === 'ENOENT' ? `Path does not exist: ${target}` : describeFsError(error, target))
  }

  const found = new Map<string, FileMatches>()
  for (let i = 0; i < files.length; i += READ_BATCH) {
    if (exec.signal.aborted) return failure('Search aborted.')
    const batch = files.slice(i, i + READ_BATCH)
    const texts = await Promise.all(batch.map((file) => readSearchable(file, options.grepMaxFileBytes)))
    batch.forEach((file, k) => {
      const text = texts[k]
      if (text === undefined) return
      const matches = findMatches(text, regex, multiline)
      if (matches.count > 0) found.set(file, matches)
    })
  }

  const matchedFiles = [...found.keys()]
  const limit = args.head_limit ?? Infinity
  const hint = 'narrow the search with path, glob or type, or set head_limit'

  if (mode === 'files_with_matches') {
    const sorted = (await newestFirst(matchedFiles)).slice(0, limit)
    const structured: GrepStructured = { mode, filenames: sorted, numFiles: sorted.length }
    if (sorted.length === 0) return { content: 'No files found', structured }
    const header = `Found ${matchedFiles.length} file${matchedFiles.length === 1 ? '' : 's'}${sorted.length < matchedFiles.length ? ` (showing ${sorted.length})` : ''}`
    return { content: truncateHead(`${header}\n${sorted.join('\n')}`, options.maxOutputChars, hint), structured }
  }

  const ordered = matchedFiles.sort()
  if (mode === 'count') {
    const entries = ordered.slice(0, limit).map((file) => `${file}:${found.get(file)?.count ?? 0}`)
    const numMatches = ordered.reduce((sum, file) => sum + (found.get(file)?.count ?? 0), 0)
    const content = entries.join('\n')
    const structured: GrepStructured = { mode, numFiles: ordered.length, filenames: [], content, numMatches }
    if (entries.length === 0) return { content: 'No matches found', structured }
    const summary = `\n\nFound ${numMatches} total occurrence${numMatches === 1 ? '' : 's'} across ${ordered.length} file${ordered.length === 1 ? '' : 's'}.`
    return { content: truncateHead(content + summary, options.maxOutputChars, hint), structured }
  }

  const before = args['-B'] ?? args['-C'] ?? 0
  const after = args['-A'] ?? args['-C'] ?? 0
  const withContext = before > 0 || after > 0
  const out: string[] = []
  for (const file of ordered) {
    const matches = found.get(file)
    if (!matches) continue
    for (const group of formatContentLines(file, matches, before, after, args['-n'] ?? true, options.maxLineChars)) {
      if (withContext && out.length > 0) out.push('--')
      out.push(...group)
    }
    if (out.length >= limit) break
  }
  const lines = out.slice(0, limit)
  const content = lines.join('\n')
  const structured: GrepStructured = { mode, numFiles: 0, filenames: [], content, numLines: lines.length }
  if (lines.length === 0) return { content: 'No matches found', structured }
  return { content: truncateHead(content, options.maxOutputChars, hint), structured }
}

/** The files to search: `target` itself when it is a file, else the files under it that pass glob and type. */
async function candidateFiles(target: string, args: GrepArgs, signal: AbortSignal, includeIgnored: boolean): Promise<string[]> {
  const info = await fs.stat(target)
  if (info.isFile()) return [target]
  const pattern = args.glob === undefined ? '**/*' : args.glob.includes('/') ? args.glob : `**/${args.glob}`
  const files = await listFiles(target, pattern, signal, { includeIgnored })
  const extensions = args.type === undefined ? undefined : new Set(GREP_FILE_TYPES[args.type])
  if (!extensions) return files
  return files.filter((file) => extensions.has(path.extname(file).slice(1).toLowerCase()))
}

/** The file's text, or undefined when it is too large, binary or unreadable (skipped, like ripgrep does). */
async function readSearchable(file: string, maxBytes: number): Promise<string | undefined> {
  try {
    const info = await fs.stat(file)
    if (!info.isFile() || info.size > maxBytes) return undefined
    const buffer = await fs.readFile(file)
    return bufferLooksBinary(buffer) ? undefined : buffer.toString('utf8')
  } catch {
    // Vanished or unreadable since it was listed: skipped, as ripgrep skips it.
    return undefined
  }
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}

export const grepTool = createGrepTool()
