// Glob: file paths matching a pattern, newest first.
import fs from 'node:fs/promises'
import { z } from 'zod'
import type { ToolDefinition, ToolExec, ToolOutput } from '../../../src-shared/host/tools'
import { listFiles } from './file-walk'
import { IGNORED_FILES_NOTE, IncludeIgnoredArg } from './ignore-arg'
import { resolveBuiltinToolOptions, type BuiltinToolOptionsInput } from './options'
import { hasParentSegment, resolveToolPath, splitGlob } from './paths'
import { describeFsError, errnoCode } from './text-files'

export const GlobInputSchema = z.object({
  pattern: z.string().min(1).describe('The glob to match file paths against, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z
    .string()
    .optional()
    .describe('Directory to search in (absolute, or relative to the working directory). Omit it to search the working directory; do not pass "undefined" or "null".'),
  include_ignored: IncludeIgnoredArg
})

export type GlobArgs = z.output<typeof GlobInputSchema>

/** Claude Code's Glob tool_response fields. */
export interface GlobStructured {
  filenames: string[]
  numFiles: number
  truncated: boolean
  durationMs: number
}

export function createGlobTool(input: BuiltinToolOptionsInput = {}): ToolDefinition<GlobArgs> {
  const options = resolveBuiltinToolOptions(input)
  return {
    name: 'Glob',
    description: [
      'Finds files by name pattern (glob syntax: *, **, ?, {a,b}, [abc]) and returns their absolute paths, most recently modified first.',
      `- ${IGNORED_FILES_NOTE} node_modules is skipped unless the pattern names it; dot files are included.`,
      `- At most ${options.globMaxResults} paths are returned; narrow the pattern or path when there are more.`,
      '- To search file contents use Grep.'
    ].join('\n'),
    inputSchema: GlobInputSchema,
    concurrent: true,
    sideEffects: false,
    async execute(args: GlobArgs, exec: ToolExec): Promise<ToolOutput> {
      const started = Date.now()
      const base = args.path === undefined ? exec.cwd : resolveToolPath(exec.cwd, args.path)
      const baseProblem = await checkDirectory(base)
      if (baseProblem) return failure(baseProblem)
      const { root, pattern } = splitGlob(base, args.pattern)
      if (hasParentSegment(pattern)) {
        return failure(`The pattern ${args.pattern} uses ".." after a wildcard; put the directory in \`path\` (or at the start of the pattern) instead.`)
      }
      let files: string[]
      try {
        files = await listFiles(root, pattern, exec.signal, { includeIgnored: args.include_ignored ?? !options.respectIgnoreFiles })
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') files = []
        else return failure(describeFsError(error, root))
      }
      const sorted = await newestFirst(files)
      const shown = sorted.slice(0, options.globMaxResults)
      const truncated = sorted.length > shown.length
      const structured: GlobStructured = { filenames: shown, durationMs: Date.now() - started, numFiles: shown.length, truncated }
      if (shown.length === 0) return { content: 'No files found', structured }
      const note = truncated ? `\n(Showing the ${shown.length} most recently modified of ${sorted.length} matches. Use a more specific pattern or path.)` : ''
      return { content: shown.join('\n') + note, structured }
    }
  }
}

/** Sorts by modification time, newest first; ties (and unreadable files, last) by path. */
export async function newestFirst(files: string[]): Promise<string[]> {
  const withTimes = await Promise.all(
    files.map(async (file) => {
      try {
        return { file, mtime: (await fs.lstat(file)).mtimeMs }
      } catch {
        // Deleted between listing and stat: keep it, sorted last.
        return { file, mtime: -Infinity }
      }
    })
  )
  withTimes.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  return withTimes.map((entry) => entry.file)
}

async function checkDirectory(dir: string): Promise<string | undefined> {
  try {
    const info = await fs.stat(dir)
    return info.isDirectory() ? undefined : `${dir} is not a directory.`
  } catch (error) {
    return errnoCode(error) === 'ENOENT' ? `Directory does not exist: ${dir}` : describeFsError(error, dir)
  }
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}

export const globTool = createGlobTool()
