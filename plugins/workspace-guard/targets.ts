// Which paths a file-tool call touches, read from its (sealed) arguments the way the built-in
// tools read them. Tools not listed here are not file tools and are left alone.
import type { SealedCall } from '@seam/sdk'
import { hasParentSegment, resolveToolPath, splitGlob } from '@seam/sdk/node'

export interface PathTarget {
  /** The argument the path came from, e.g. `file_path`. */
  arg: string
  /** Absolute, lexically normalized path, as the tool will use it. */
  path: string
}

export interface FileToolAccess {
  writes: boolean
  targets: PathTarget[]
}

/** Claude Code's file tools: name -> the argument naming the file, and whether the tool writes. */
const FILE_ARGUMENT: Readonly<Record<string, { arg: string; writes: boolean }>> = {
  Read: { arg: 'file_path', writes: false },
  Write: { arg: 'file_path', writes: true },
  Edit: { arg: 'file_path', writes: true },
  MultiEdit: { arg: 'file_path', writes: true },
  NotebookEdit: { arg: 'notebook_path', writes: true }
}

export function fileToolTargets(call: SealedCall): FileToolAccess | undefined {
  const args = call.args
  const fileArg = FILE_ARGUMENT[call.name]
  if (fileArg) {
    const value = args[fileArg.arg]
    // A non-string path fails the tool's own argument validation; nothing to confine.
    return { writes: fileArg.writes, targets: typeof value === 'string' ? [{ arg: fileArg.arg, path: resolveToolPath(call.cwd, value) }] : [] }
  }
  if (call.name !== 'Glob' && call.name !== 'Grep') return undefined
  const base = typeof args.path === 'string' ? resolveToolPath(call.cwd, args.path) : call.cwd
  const targets: PathTarget[] = [{ arg: 'path', path: base }]
  if (call.name === 'Glob' && typeof args.pattern === 'string') {
    // The pattern's static prefix can leave `path` (`../x/*`, `/etc/*`): its root is checked too.
    const { root, pattern } = splitGlob(base, args.pattern)
    targets.push({ arg: 'pattern', path: hasParentSegment(pattern) ? '/' : root })
  }
  return { writes: false, targets }
}

export function describeEscape(input: { tool: string; target: PathTarget; real: string; roots: string[]; readOnlyOutside: boolean }): string {
  const { tool, target, real, roots } = input
  const via = real !== target.path ? ` (it resolves through a symbolic link to ${real})` : ''
  const rule = input.readOnlyOutside ? 'Outside the workspace, files may only be read.' : `${tool} may only use paths inside ${roots.join(', ')}.`
  return `workspace-guard: ${tool} refused: ${target.arg} ${target.path} is outside the workspace${via}. ${rule} To allow it, add the directory to extraRoots in the workspace-guard config or to permissions.additionalDirectories in Claude Code settings.`
}
