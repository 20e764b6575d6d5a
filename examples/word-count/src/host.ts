// The host part: runs inside Seam's main process. It registers the `WordCount` tool and an RPC
// method `stats` that the client part's sidebar panel calls. Written against the plugin SDK
// (`@seam/sdk`); zod and the SDK's two helpers are bundled into dist/host.js by the build
// (scripts/build-example.mjs); Node built-ins stay imports.
import { readFile, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { countText, type TextCounts } from './count'
import { definePlugin, defineTool, type ToolDefinition, type ToolOutput } from '@seam/sdk'

export const PLUGIN_NAME = 'seam-example-word-count'
export const TOOL_NAME = 'WordCount'
/** Larger files are refused: the tool reads the whole file into memory. */
export const MAX_BYTES = 5 * 1024 * 1024

const inputSchema = z.strictObject({
  file_path: z.string().min(1, 'file_path cannot be empty').describe('Path of a text file in the workspace (absolute, or relative to the workspace)')
})
type WordCountArgs = z.infer<typeof inputSchema>

/** What the tool result carries besides its text; the client renderer reads this. */
export interface WordCountResult extends TextCounts {
  /** The file, relative to the workspace, with forward slashes. */
  file: string
  bytes: number
}

export interface WordCountStats {
  /** WordCount executions since the plugin started (failed ones included). */
  runs: number
  /** The last file counted successfully, relative to the workspace. */
  lastFile?: string
}

/** The file's real path, or an error message when it is outside the workspace or not a file. */
async function workspaceFile(cwd: string, filePath: string): Promise<{ file: string } | { error: string }> {
  const root = await realpath(cwd)
  let file: string
  try {
    file = await realpath(path.resolve(root, filePath))
  } catch {
    return { error: `${filePath}: no such file` }
  }
  const relative = path.relative(root, file)
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return { error: `${filePath}: not inside the workspace ${root}` }
  }
  const info = await stat(file)
  if (!info.isFile()) return { error: `${filePath}: not a regular file` }
  if (info.size > MAX_BYTES) return { error: `${filePath}: ${info.size} bytes is more than the ${MAX_BYTES} this tool reads` }
  return { file }
}

function wordCountTool(stats: WordCountStats): ToolDefinition<WordCountArgs> {
  return defineTool({
    name: TOOL_NAME,
    description: 'Counts the lines, words and characters of a text file in the workspace.',
    inputSchema,
    concurrent: true,
    sideEffects: false,
    async execute(args, exec): Promise<ToolOutput> {
      stats.runs++
      const found = await workspaceFile(exec.cwd, args.file_path)
      if ('error' in found) return { content: found.error, isError: true }
      const data = await readFile(found.file, { signal: exec.signal })
      const counts = countText(data.toString('utf8'))
      const file = path.relative(await realpath(exec.cwd), found.file).split(path.sep).join('/')
      stats.lastFile = file
      const structured: WordCountResult = { file, ...counts, bytes: data.length }
      return { content: `${file}: ${counts.lines} lines, ${counts.words} words, ${counts.chars} characters`, structured }
    }
  })
}

const plugin = definePlugin({
  name: PLUGIN_NAME,
  inject: ['tools', 'rpc'],
  apply(ctx) {
    const stats: WordCountStats = { runs: 0 }
    ctx.tools.register(wordCountTool(stats))
    ctx.get('rpc').register(ctx, 'stats', (): WordCountStats => ({ ...stats }))
    ctx.logger.info(`${TOOL_NAME} registered`)
  }
})

export default plugin
