// Edit: exact string replacement in an existing file, written atomically.
import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import type { ToolDefinition, ToolExec, ToolOutput } from '../../../src-shared/host/tools'
import { writeFileAtomic } from './atomic-write'
import { writeFaultHook, writeTempTag } from './interrupted-writes'
import { structuredPatch, type PatchHunk } from './line-diff'
import { resolveToolPath } from './paths'
import { bufferLooksBinary, describeFsError, errnoCode } from './text-files'

export const EditInputSchema = z.object({
  file_path: z.string().min(1).describe('Absolute path of the file to change (a relative path is resolved against the working directory).'),
  old_string: z.string().describe('The exact text to replace, including whitespace and indentation. Empty only to create a new file.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z.boolean().default(false).describe('Replace every occurrence of old_string instead of exactly one (default false).')
})

/** The model may omit replace_all; the sealed call always has it (false by default). */
export type EditArgs = z.input<typeof EditInputSchema>

/** Claude Code's Edit tool_response fields. `originalFile` lets the UI show a diff. */
export interface EditStructured {
  filePath: string
  oldString: string
  newString: string
  originalFile: string
  replaceAll: boolean
  structuredPatch: PatchHunk[]
  userModified: false
}

export function createEditTool(): ToolDefinition<EditArgs> {
  return {
    name: 'Edit',
    description: [
      'Replaces exact text in a file.',
      '- old_string must match the file exactly, including indentation and line breaks. Copy it from Read output without the line-number prefix (the number and the tab before the text).',
      '- old_string must occur exactly once unless replace_all is true; if it occurs more often, add surrounding lines to make it unique.',
      '- Use replace_all to rename something throughout the file.',
      '- An empty old_string creates a new file containing new_string (the file must not exist or be empty).',
      '- Read the file first so old_string reflects its current content.'
    ].join('\n'),
    inputSchema: EditInputSchema,
    sideEffects: true,
    concurrent: false,
    changedFiles: (args: EditArgs, cwd: string) => [resolveToolPath(cwd, args.file_path)],
    async execute(args: EditArgs, exec: ToolExec): Promise<ToolOutput> {
      const filePath = resolveToolPath(exec.cwd, args.file_path)
      const replaceAll = args.replace_all ?? false
      if (args.old_string === args.new_string) {
        return failure('No changes to make: old_string and new_string are identical.')
      }
      let original: string | null
      try {
        original = await readText(filePath)
      } catch (error) {
        return failure(error instanceof EditRefused ? error.message : describeFsError(error, filePath))
      }

      let updated: string
      if (args.old_string === '') {
        if (original !== null && original !== '') {
          return failure(`old_string is empty but ${filePath} already has content. Give the exact text to replace, or use Write to replace the whole file.`)
        }
        updated = args.new_string
      } else {
        if (original === null) return failure(`File does not exist: ${filePath}`)
        const replaced = replaceExact(original, args.old_string, args.new_string, replaceAll)
        if (typeof replaced !== 'string') return failure(replaced.problem)
        updated = replaced
      }

      try {
        if (original === null) await fs.mkdir(path.dirname(filePath), { recursive: true })
        await writeFileAtomic(filePath, updated, { tempTag: writeTempTag(exec.token), beforeRename: writeFaultHook() })
      } catch (error) {
        return failure(describeFsError(error, filePath))
      }
      const originalFile = original ?? ''
      const structured: EditStructured = {
        filePath,
        oldString: args.old_string,
        newString: args.new_string,
        originalFile,
        structuredPatch: structuredPatch(originalFile, updated),
        userModified: false,
        replaceAll
      }
      const content =
        original === null ? `File created successfully at: ${filePath}` : `The file ${filePath} has been updated successfully.`
      return { content, structured }
    }
  }
}

/**
 * Replaces `oldString` with `newString` (once, or everywhere). When the file uses CRLF line
 * endings and the strings use LF, both are matched and written with CRLF.
 */
export function replaceExact(text: string, oldString: string, newString: string, replaceAll: boolean): string | { problem: string } {
  let search = oldString
  let replacement = newString
  let count = countOccurrences(text, search)
  if (count === 0 && text.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    search = oldString.replace(/\n/g, '\r\n')
    replacement = newString.replace(/\r?\n/g, '\r\n')
    count = countOccurrences(text, search)
  }
  if (count === 0) {
    return { problem: `String to replace not found in file. Check whitespace and indentation against a fresh Read.\nString: ${oldString}` }
  }
  if (count > 1 && !replaceAll) {
    return {
      problem: `old_string occurs ${count} times in the file and replace_all is false. Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to replace all ${count}.\nString: ${oldString}`
    }
  }
  // split/join and slicing, never String.replace: `$&` and friends in new_string must stay literal.
  if (replaceAll) return text.split(search).join(replacement)
  const at = text.indexOf(search)
  return text.slice(0, at) + replacement + text.slice(at + search.length)
}

function countOccurrences(text: string, search: string): number {
  let count = 0
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++
  return count
}

class EditRefused extends Error {}

/** The file's text, or null when it does not exist. */
async function readText(filePath: string): Promise<string | null> {
  let buffer: Buffer
  try {
    const info = await fs.stat(filePath)
    if (info.isDirectory()) throw new EditRefused(`${filePath} is a directory, not a file.`)
    if (!info.isFile()) throw new EditRefused(`${filePath} is not a regular file.`)
    buffer = await fs.readFile(filePath)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null
    throw error
  }
  if (bufferLooksBinary(buffer)) throw new EditRefused(`${filePath} is a binary file; Edit only changes text files.`)
  return buffer.toString('utf8')
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}

export const editTool = createEditTool()
