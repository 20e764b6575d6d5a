// The built-in tools, named and shaped like Claude Code's so hook matchers (`Bash`, `Edit|Write`)
// and scripts reading `tool_input.command` / `tool_input.file_path` work unchanged.
import type { ToolDefinition } from '../../../src-shared/host/tools'
import type { KeyGuard } from '../../security/keys'
import { createBashTool, type BackgroundTasksAccess } from './bash'
import { createEditTool } from './edit'
import { createGlobTool } from './glob'
import { createGrepTool } from './grep'
import { resolveBuiltinToolOptions, type BuiltinToolOptionsInput } from './options'
import { createReadTool } from './read'
import { createWriteTool } from './write'

export { bashTool, createBashTool, bashInputSchema, movesToBackground, type BashArgs, type BashStructured, type BackgroundTasksAccess } from './bash'
export { readTool, createReadTool, ReadInputSchema, type ReadArgs, type ReadStructured } from './read'
export { writeTool, createWriteTool, WriteInputSchema, type WriteArgs, type WriteStructured } from './write'
export { editTool, createEditTool, EditInputSchema, replaceExact, type EditArgs, type EditStructured } from './edit'
export { globTool, createGlobTool, GlobInputSchema, type GlobArgs, type GlobStructured } from './glob'
export { grepTool, createGrepTool, GrepInputSchema, GREP_FILE_TYPES, type GrepArgs, type GrepStructured } from './grep'
export { BuiltinToolOptionsSchema, resolveBuiltinToolOptions, type BuiltinToolOptions, type BuiltinToolOptionsInput } from './options'
export { resolveToolPath, splitGlob, isWithin } from './paths'
export type { PatchHunk } from './line-diff'

/**
 * Bash, Read, Write, Edit, Glob and Grep, built with `options` (validated; throws naming the bad
 * field). `keys` keeps provider keys out of Bash's environment; `background` is where Bash hands
 * background commands.
 */
export function builtinTools(options: BuiltinToolOptionsInput = {}, keys?: Pick<KeyGuard, 'childEnv'>, background?: BackgroundTasksAccess): ToolDefinition[] {
  const resolved = resolveBuiltinToolOptions(options)
  return [
    createBashTool(resolved, keys, background),
    createReadTool(resolved),
    createWriteTool(),
    createEditTool(),
    createGlobTool(resolved),
    createGrepTool(resolved)
  ]
}
