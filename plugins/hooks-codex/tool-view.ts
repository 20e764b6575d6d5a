// Seam's tool calls as Codex presents them to hooks (codex-hooks.md §4): Bash as `Bash` with
// `{command}` only, Write and Edit as `apply_patch` with `{command: <patch>}` (matched also as
// `Edit`/`Write` through the library's aliases), MCP tools and every other tool under their own
// name with their arguments. Also the way back: a hook's `updatedInput` into the tool's arguments.
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import type { JsonObject, ToolResult } from '@seam/sdk'
import { addFilePatch, hunkSides, parsePatch, updateFilePatch } from './apply-patch'

export type ToolKind = 'bash' | 'apply_patch' | 'mcp' | 'function'

export interface CodexToolView {
  kind: ToolKind
  toolName: string
  toolInput: Record<string, unknown>
  /** apply_patch: the path as written in the patch, to keep the call's own path when a rewrite keeps it. */
  patchPath?: string
}

/** An existing file shown as a whole-file update is read only up to this size. */
const MAX_PRESENTED_FILE_BYTES = 256 * 1024

export function presentToolCall(name: string, args: Readonly<JsonObject>, cwd: string): CodexToolView {
  if (name === 'Bash') return { kind: 'bash', toolName: 'Bash', toolInput: { command: stringArg(args.command) } }
  if ((name === 'Write' || name === 'Edit') && typeof args.file_path === 'string') {
    const patchPath = displayPath(args.file_path, cwd)
    const command = name === 'Write' ? writePatch(patchPath, path.resolve(cwd, args.file_path), stringArg(args.content)) : editPatch(patchPath, args)
    return { kind: 'apply_patch', toolName: 'apply_patch', toolInput: { command }, patchPath }
  }
  return { kind: name.startsWith('mcp__') ? 'mcp' : 'function', toolName: name, toolInput: { ...args } }
}

/** `Command blocked by PreToolUse hook: …` in Codex's exact wording (spec §5.1). */
export function blockedText(view: CodexToolView, reason: string): string {
  if (view.kind === 'bash' || view.kind === 'apply_patch') return `Command blocked by PreToolUse hook: ${reason}. Command: ${stringArg(view.toolInput.command)}`
  return `Tool call blocked by PreToolUse hook: ${reason}. Tool: ${view.toolName}`
}

/** Codex's `tool_response` for PostToolUse. */
export function presentToolResponse(view: CodexToolView, result: Readonly<ToolResult>): unknown {
  const structured = result.structured
  switch (view.kind) {
    case 'bash':
      // One string of the captured output, stdout and stderr in the order they arrived, no exit code.
      if (isRecord(structured) && typeof structured.output === 'string') return structured.output
      return result.content
    case 'apply_patch':
      return result.content
    case 'mcp':
      return { content: [{ type: 'text', text: result.content }], structuredContent: structured ?? null, isError: result.isError }
    case 'function':
      return structured ?? result.content
  }
}

/** PostToolUse does not run for a failed patch or an MCP error result (spec §4). */
export function postToolUseRuns(view: CodexToolView, result: Readonly<ToolResult>): boolean {
  return !(result.isError && (view.kind === 'apply_patch' || view.kind === 'mcp'))
}

/**
 * A hook's `updatedInput` replaces the whole `tool_input` (spec §5.1). Returns the arguments to
 * run the same Seam tool with, or why they cannot be expressed.
 */
export function applyUpdatedInput(
  name: string,
  args: Readonly<JsonObject>,
  view: CodexToolView,
  updated: Record<string, unknown>,
  cwd: string
): { ok: true; args: JsonObject } | { ok: false; error: string } {
  if (view.kind === 'bash') {
    if (typeof updated.command !== 'string') return { ok: false, error: 'updatedInput.command must be a string for Bash' }
    // Only `command` is exposed to hooks, so only it is replaced (extra keys are ignored, as in Codex).
    return { ok: true, args: { ...args, command: updated.command } }
  }
  if (view.kind === 'apply_patch') {
    if (typeof updated.command !== 'string') return { ok: false, error: 'updatedInput.command must be the patch text for apply_patch' }
    return patchToArgs(name, args, view, updated.command, cwd)
  }
  if (!isJsonObject(updated)) return { ok: false, error: 'updatedInput must be a JSON object' }
  return { ok: true, args: updated }
}

function patchToArgs(name: string, args: Readonly<JsonObject>, view: CodexToolView, patch: string, cwd: string): { ok: true; args: JsonObject } | { ok: false; error: string } {
  const parsed = parsePatch(patch)
  if (!parsed.ok) return { ok: false, error: `updatedInput.command is not a patch: ${parsed.error}` }
  if (parsed.ops.length !== 1) return { ok: false, error: `the rewritten patch changes ${parsed.ops.length} files; a ${name} call changes exactly one` }
  const op = parsed.ops[0]
  if (op.kind === 'delete') return { ok: false, error: `a ${name} call cannot delete a file` }
  if (op.kind === 'update' && op.moveTo !== undefined) return { ok: false, error: `a ${name} call cannot move a file` }
  const filePath = op.path === view.patchPath ? stringArg(args.file_path) : path.isAbsolute(op.path) ? op.path : path.resolve(cwd, op.path)
  if (op.kind === 'add') {
    const content = joinLines(op.lines, true)
    return name === 'Write' ? { ok: true, args: { file_path: filePath, content } } : { ok: true, args: { ...args, file_path: filePath, old_string: '', new_string: content } }
  }
  if (op.hunks.length !== 1) return { ok: false, error: `the rewritten patch has ${op.hunks.length} hunks; a ${name} call makes exactly one change` }
  const { before, after } = hunkSides(op.hunks[0])
  if (name === 'Write') return { ok: true, args: { file_path: filePath, content: joinLines(after, true) } }
  const oldString = stringArg(args.old_string)
  const trailing = oldString.endsWith('\n')
  return { ok: true, args: { ...args, file_path: filePath, old_string: joinLines(before, trailing), new_string: joinLines(after, trailing) } }
}

function writePatch(patchPath: string, absolute: string, content: string): string {
  const existing = readSmallFile(absolute)
  return existing === undefined ? addFilePatch(patchPath, content) : updateFilePatch(patchPath, existing, content)
}

function editPatch(patchPath: string, args: Readonly<JsonObject>): string {
  const oldString = stringArg(args.old_string)
  const newString = stringArg(args.new_string)
  return oldString === '' ? addFilePatch(patchPath, newString) : updateFilePatch(patchPath, oldString, newString)
}

function readSmallFile(file: string): string | undefined {
  try {
    const info = statSync(file)
    if (!info.isFile() || info.size > MAX_PRESENTED_FILE_BYTES) return undefined
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** Paths inside the working directory are shown relative to it, as Codex's model writes them. */
function displayPath(filePath: string, cwd: string): string {
  const absolute = path.resolve(cwd, filePath)
  const relative = path.relative(cwd, absolute)
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute
}

function joinLines(lines: readonly string[], trailingNewline: boolean): string {
  if (lines.length === 0) return ''
  return lines.join('\n') + (trailingNewline ? '\n' : '')
}

function stringArg(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isJsonObject(value: unknown): value is JsonObject {
  if (!isRecord(value)) return false
  try {
    return JSON.stringify(value) !== undefined
  } catch {
    return false
  }
}
