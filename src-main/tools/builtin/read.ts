// Read: a text file with `cat -n` line numbers, a window of lines at a time.
import { createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { z } from 'zod'
import type { ToolDefinition, ToolExec, ToolOutput } from '../../../src-shared/host/tools'
import { resolveBuiltinToolOptions, type BuiltinToolOptionsInput } from './options'
import { resolveToolPath } from './paths'
import { describeFsError, looksBinary, stripBom } from './text-files'

export const ReadInputSchema = z.object({
  file_path: z.string().min(1).describe('Absolute path of the file to read (a relative path is resolved against the working directory).'),
  offset: z.number().int().positive().optional().describe('1-based line number to start reading from. Only give it for files too long to read at once.'),
  limit: z.number().int().positive().optional().describe('How many lines to read. Only give it for files too long to read at once.')
})

export type ReadArgs = z.output<typeof ReadInputSchema>

/**
 * Claude Code's Read tool_response for text files (claude-code-hooks.md §6 PostToolUse). Lines are
 * counted as Claude Code counts them, splitting on newlines: "hello\n" is two lines, the second
 * empty, and `content` keeps the trailing newline.
 */
export interface ReadStructured {
  type: 'text'
  file: { filePath: string; content: string; numLines: number; startLine: number; totalLines: number }
}

export function createReadTool(input: BuiltinToolOptionsInput = {}): ToolDefinition<ReadArgs> {
  const options = resolveBuiltinToolOptions(input)
  return {
    name: 'Read',
    description: [
      'Reads a text file from the local file system.',
      `- Returns up to ${options.readDefaultLimit} lines from the start of the file by default; use offset (1-based line) and limit for long files.`,
      '- Lines come numbered: the line number, a tab, then the line. The number and tab are not part of the file.',
      `- Lines longer than ${options.maxLineChars} characters are cut.`,
      '- Binary files and directories are refused (list a directory with Glob or Bash ls).',
      '- Reading several files at once is fine: calls may run in parallel.'
    ].join('\n'),
    inputSchema: ReadInputSchema,
    concurrent: true,
    sideEffects: false,
    async execute(args: ReadArgs, exec: ToolExec): Promise<ToolOutput> {
      const filePath = resolveToolPath(exec.cwd, args.file_path)
      let size: number
      try {
        const info = await stat(filePath)
        size = info.size
        if (info.isDirectory()) return failure(`${filePath} is a directory, not a file. Use Glob (or Bash ls) to list its contents.`)
        if (!info.isFile()) return failure(`${filePath} is not a regular file.`)
        if (await looksBinary(filePath)) return failure(`${filePath} is a binary file; Read only shows text files.`)
      } catch (error) {
        return failure(describeFsError(error, filePath))
      }
      const startLine = args.offset ?? 1
      const limit = args.limit ?? options.readDefaultLimit
      let window: LineWindow
      try {
        window = await readLineWindow(filePath, size, startLine, limit, options.maxLineChars, exec.signal)
      } catch (error) {
        return failure(describeFsError(error, filePath))
      }
      const structured: ReadStructured = {
        type: 'text',
        file: { filePath, content: window.lines.join('\n'), numLines: window.lines.length, startLine, totalLines: window.totalLines }
      }
      return { content: readContent(filePath, window, startLine), structured }
    }
  }
}

export interface LineWindow {
  lines: string[]
  totalLines: number
}

/** Streams the file once: counts every line, keeps only the requested window (cut to `maxLineChars`). */
async function readLineWindow(filePath: string, size: number, startLine: number, limit: number, maxLineChars: number, signal: AbortSignal): Promise<LineWindow> {
  const lines: string[] = []
  let totalLines = 0
  const stream = createReadStream(filePath, { encoding: 'utf8', signal })
  const reader = createInterface({ input: stream, crlfDelay: Infinity })
  try {
    for await (const raw of reader) {
      totalLines++
      if (totalLines < startLine || totalLines >= startLine + limit) continue
      const line = totalLines === 1 ? stripBom(raw) : raw
      lines.push(line.length > maxLineChars ? `${line.slice(0, maxLineChars)}… [line cut at ${maxLineChars} characters]` : line)
    }
  } finally {
    reader.close()
    stream.destroy()
  }
  // A final newline starts one more (empty) line, as splitting the text on newlines gives.
  if (size > 0 && (await lastByte(filePath, size)) === 0x0a) {
    totalLines++
    if (totalLines >= startLine && totalLines < startLine + limit) lines.push('')
  }
  return { lines, totalLines }
}

async function lastByte(filePath: string, size: number): Promise<number | undefined> {
  const handle = await open(filePath, 'r')
  try {
    const buffer = Buffer.alloc(1)
    const { bytesRead } = await handle.read(buffer, 0, 1, size - 1)
    return bytesRead === 1 ? buffer[0] : undefined
  } finally {
    await handle.close()
  }
}

/** The text the model reads for a window of a file (also used when the file is read through an editor). */
export function readContent(filePath: string, window: LineWindow, startLine: number): string {
  if (window.totalLines === 0) return `(${filePath} exists but is empty.)`
  if (window.lines.length === 0) {
    return `(${filePath} has ${window.totalLines} lines; offset ${startLine} is past the end.)`
  }
  // Claude Code's numbering: the line number, a tab, the line.
  const numbered = window.lines.map((line, i) => `${startLine + i}\t${line}`).join('\n')
  const lastLine = startLine + window.lines.length - 1
  if (lastLine >= window.totalLines && startLine === 1) return numbered
  return `${numbered}\n\n(Showing lines ${startLine}-${lastLine} of ${window.totalLines}. Use offset and limit to read other lines.)`
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}

export const readTool = createReadTool()
