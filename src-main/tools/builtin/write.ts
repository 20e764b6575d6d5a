// Write: creates or replaces a whole file, atomically, creating missing parent directories.
import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import type { ToolDefinition, ToolExec, ToolOutput } from '../../../src-shared/host/tools'
import { writeFileAtomic } from './atomic-write'
import { writeFaultHook, writeTempTag } from './interrupted-writes'
import { structuredPatch, type PatchHunk } from './line-diff'
import { resolveToolPath } from './paths'
import { bufferLooksBinary, describeFsError, errnoCode } from './text-files'

export const WriteInputSchema = z.object({
  file_path: z.string().min(1).describe('Absolute path of the file to write (a relative path is resolved against the working directory).'),
  content: z.string().describe('The complete new content of the file.')
})

export type WriteArgs = z.output<typeof WriteInputSchema>

/** Claude Code's Write tool_response fields. `originalFile` is null for a new file. */
export interface WriteStructured {
  type: 'create' | 'update'
  filePath: string
  content: string
  originalFile: string | null
  structuredPatch: PatchHunk[]
  userModified: false
}

export function createWriteTool(): ToolDefinition<WriteArgs> {
  return {
    name: 'Write',
    description: [
      'Writes a whole file: creates it (and any missing parent directories) or replaces its entire content.',
      '- To change part of an existing file prefer Edit, which sends only the changed text.',
      '- Read an existing file before overwriting it so nothing in it is lost by accident.',
      '- The write is atomic: readers see the old or the new file, never a partial one.'
    ].join('\n'),
    inputSchema: WriteInputSchema,
    sideEffects: true,
    concurrent: false,
    changedFiles: (args: WriteArgs, cwd: string) => [resolveToolPath(cwd, args.file_path)],
    async execute(args: WriteArgs, exec: ToolExec): Promise<ToolOutput> {
      const filePath = resolveToolPath(exec.cwd, args.file_path)
      let originalFile: string | null
      try {
        originalFile = await readExisting(filePath)
      } catch (error) {
        return failure(error instanceof WriteRefused ? error.message : describeFsError(error, filePath))
      }
      try {
        await fs.mkdir(path.dirname(filePath), { recursive: true })
        await writeFileAtomic(filePath, args.content, { tempTag: writeTempTag(exec.token), beforeRename: writeFaultHook() })
      } catch (error) {
        return failure(describeFsError(error, filePath))
      }
      const type = originalFile === null ? 'create' : 'update'
      const structured: WriteStructured = {
        type,
        filePath,
        content: args.content,
        structuredPatch: originalFile === null ? [] : structuredPatch(originalFile, args.content),
        originalFile,
        userModified: false
      }
      const content = type === 'create' ? `File created successfully at: ${filePath}` : `The file ${filePath} has been updated successfully.`
      return { content, structured }
    }
  }
}

class WriteRefused extends Error {}

/** The current text of the file, or null when it does not exist yet. */
async function readExisting(filePath: string): Promise<string | null> {
  let buffer: Buffer
  try {
    const info = await fs.stat(filePath)
    if (info.isDirectory()) throw new WriteRefused(`${filePath} is a directory; Write only writes files.`)
    if (!info.isFile()) throw new WriteRefused(`${filePath} is not a regular file.`)
    buffer = await fs.readFile(filePath)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null
    throw error
  }
  // A binary original cannot be shown as a text diff; the UI gets no original instead of garbage.
  return bufferLooksBinary(buffer) ? '' : buffer.toString('utf8')
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}

export const writeTool = createWriteTool()
