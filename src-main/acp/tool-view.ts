// How a Seam tool call looks in an editor: ACP's kind, a one-line title and the file locations
// the editor can follow. Derived from the call's arguments alone, so a replayed session shows
// the same cards as the live one.
import { isAbsolute, relative } from 'node:path'
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk'
import { resolveToolPath } from '../tools/builtin/paths'

export interface ToolView {
  kind: ToolKind
  title: string
  locations: ToolCallLocation[]
}

const KIND_BY_TOOL: Record<string, ToolKind> = {
  Read: 'read',
  Write: 'edit',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Bash: 'execute',
  Glob: 'search',
  Grep: 'search',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
  TodoWrite: 'think'
}

export function toolView(name: string, args: Readonly<Record<string, unknown>>, cwd: string): ToolView {
  const kind = KIND_BY_TOOL[name] ?? 'other'
  const text = (key: string): string | undefined => (typeof args[key] === 'string' && args[key] !== '' ? (args[key] as string) : undefined)
  const file = text('file_path') ?? text('notebook_path')
  const absolute = file ? resolveToolPath(cwd, file) : undefined
  const shown = absolute ? displayPath(cwd, absolute) : undefined
  switch (name) {
    case 'Read': {
      const offset = typeof args.offset === 'number' ? args.offset : undefined
      const limit = typeof args.limit === 'number' ? args.limit : undefined
      const range = offset !== undefined ? ` (from line ${offset}${limit !== undefined ? `, ${limit} lines` : ''})` : ''
      return { kind, title: `Read ${shown ?? 'a file'}${range}`, locations: absolute ? [{ path: absolute, line: offset ?? 1 }] : [] }
    }
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return { kind, title: `${name === 'Write' ? 'Write' : 'Edit'} ${shown ?? 'a file'}`, locations: absolute ? [{ path: absolute }] : [] }
    case 'Bash': {
      const command = text('command') ?? ''
      const description = text('description')
      return { kind, title: description ?? `\`${oneLine(command, 120)}\``, locations: [] }
    }
    case 'Glob': {
      const root = text('path')
      return {
        kind,
        title: `Find ${text('pattern') ?? 'files'}${root ? ` in ${displayPath(cwd, resolveToolPath(cwd, root))}` : ''}`,
        locations: root ? [{ path: resolveToolPath(cwd, root) }] : []
      }
    }
    case 'Grep': {
      const root = text('path')
      return {
        kind,
        title: `Search for "${oneLine(text('pattern') ?? '', 80)}"${root ? ` in ${displayPath(cwd, resolveToolPath(cwd, root))}` : ''}`,
        locations: root ? [{ path: resolveToolPath(cwd, root) }] : []
      }
    }
    case 'WebFetch':
      return { kind, title: `Fetch ${text('url') ?? ''}`.trim(), locations: [] }
    case 'Agent':
    case 'Task':
      // A subagent is ACP's `think`: work the agent does by itself, shown with its progress.
      return { kind: 'think', title: `${text('subagent_type') ?? 'general-purpose'}: ${oneLine(text('description') ?? 'subagent', 120)}`, locations: [] }
    default:
      return { kind, title: absolute ? `${name} ${shown}` : name, locations: absolute ? [{ path: absolute }] : [] }
  }
}

/** A path inside the workspace as a relative one (shorter in a title); others stay absolute. */
function displayPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute)
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? absolute : rel
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ')
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
