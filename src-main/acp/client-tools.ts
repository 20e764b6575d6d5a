// The `acp-tools` profile entry: a tools/execute wrapper (S13) of an ACP session. It marks every
// call that reaches dispatch `in_progress`, and when the editor offered `fs/*` or `terminal/*`,
// Read, Write, Edit and Bash run through the editor (so unsaved buffers are read and written and
// the command shows in the editor's terminal) instead of Seam's own tools. The pipeline around it
// (policies, approval, guards, timeouts, post-execute) is unchanged; the results have the same
// text and structured fields as the built-in tools'.
import type { ToolCallContent } from '@agentclientprotocol/sdk'
import { definePlugin } from '../../src-shared/kernel'
import type { JsonValue, SealedCall, ToolResult } from '../../src-shared/host/tools'
import '../../src-shared/host/tools'
import type { BackgroundTaskService } from '../../src-shared/host/background-tasks'
import { BACKGROUND_UNAVAILABLE, backgroundOutput, bashOutput, movesToBackground } from '../tools/builtin/bash'
import { replaceExact } from '../tools/builtin/edit'
import { structuredPatch } from '../tools/builtin/line-diff'
import { resolveBuiltinToolOptions } from '../tools/builtin/options'
import { resolveToolPath } from '../tools/builtin/paths'
import { readContent } from '../tools/builtin/read'
import { shellPath } from '../tools/builtin/shell-process'
import { exitCodeOf, terminalCommand, type EditorTerminal } from './terminal-task'

export interface EditorCapabilities {
  readTextFile: boolean
  writeTextFile: boolean
  terminal: boolean
}

/** What the wrapper needs from the ACP session: the editor's methods and the session's state. */
export interface EditorSide {
  capabilities: EditorCapabilities
  readTextFile(path: string, signal: AbortSignal): Promise<string>
  writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void>
  /** Starts a command in an editor terminal (`terminal/create`); whoever opens it releases it. */
  openTerminal(command: { command: string; args: string[]; cwd: string; env: Record<string, string>; outputByteLimit: number }, signal: AbortSignal): Promise<EditorTerminal>
  /** Extra environment the session's hooks exported (CLAUDE_ENV_FILE), for commands. */
  env(): Readonly<Record<string, string>>
  /** The call reached dispatch: `in_progress`, with content to show while it runs. */
  started(call: SealedCall, content?: ToolCallContent[]): void
}

const OPTIONS = resolveBuiltinToolOptions({})

export function acpToolsPlugin(side: () => EditorSide | undefined) {
  return definePlugin({
    name: 'acp-tools',
    apply(ctx) {
      ctx.on('tools/execute', async (call, control, next) => {
        const editor = side()
        if (!editor) return next()
        const route = routeFor(call, editor.capabilities)
        if (!route) {
          editor.started(call)
          return next()
        }
        if (route !== 'Bash') editor.started(call)
        try {
          switch (route) {
            case 'Read':
              return await readThroughEditor(call, editor, control.signal)
            case 'Write':
              return await writeThroughEditor(call, editor, control.signal)
            case 'Edit':
              return await editThroughEditor(call, editor, control.signal)
            case 'Bash':
              return await bashInEditorTerminal(call, editor, control.signal, ctx.maybe('backgroundTasks'))
          }
        } catch (error) {
          const message = (error as Error)?.message ?? String(error)
          return { content: `${call.name} failed in the editor: ${message}`, isError: true }
        }
      })
    }
  })
}

type Route = 'Read' | 'Write' | 'Edit' | 'Bash'

function routeFor(call: SealedCall, caps: EditorCapabilities): Route | undefined {
  switch (call.name) {
    case 'Read':
      return caps.readTextFile ? 'Read' : undefined
    case 'Write':
      return caps.writeTextFile ? 'Write' : undefined
    case 'Edit':
      // An edit is a read and a write of the same buffer: both must go through the editor.
      return caps.readTextFile && caps.writeTextFile ? 'Edit' : undefined
    case 'Bash':
      return caps.terminal ? 'Bash' : undefined
    default:
      return undefined
  }
}

function text(call: SealedCall, key: string): string {
  const value = call.args[key]
  return typeof value === 'string' ? value : ''
}

function splitLines(content: string): string[] {
  if (content === '') return []
  const lines = content.split(/\r?\n/)
  if (lines[lines.length - 1] === '') lines.pop()
  if (lines.length > 0) lines[0] = lines[0].replace(/^\uFEFF/, '')
  return lines
}

async function readThroughEditor(call: SealedCall, editor: EditorSide, signal: AbortSignal): Promise<ToolResult> {
  const filePath = resolveToolPath(call.cwd, text(call, 'file_path'))
  const all = splitLines(await editor.readTextFile(filePath, signal))
  const startLine = typeof call.args.offset === 'number' ? call.args.offset : 1
  const limit = typeof call.args.limit === 'number' ? call.args.limit : OPTIONS.readDefaultLimit
  const lines = all
    .slice(startLine - 1, startLine - 1 + limit)
    .map((line) => (line.length > OPTIONS.maxLineChars ? `${line.slice(0, OPTIONS.maxLineChars)}… [line cut at ${OPTIONS.maxLineChars} characters]` : line))
  const window = { lines, totalLines: all.length }
  const structured = { type: 'text', file: { filePath, content: lines.join('\n'), numLines: lines.length, startLine, totalLines: all.length } }
  return { content: readContent(filePath, window, startLine), isError: false, structured }
}

/** The buffer's text, or null when the editor cannot read it (a file that does not exist yet). */
async function currentText(editor: EditorSide, filePath: string, signal: AbortSignal): Promise<string | null> {
  if (!editor.capabilities.readTextFile) return null
  try {
    return await editor.readTextFile(filePath, signal)
  } catch {
    if (signal.aborted) throw signal.reason
    return null
  }
}

async function writeThroughEditor(call: SealedCall, editor: EditorSide, signal: AbortSignal): Promise<ToolResult> {
  const filePath = resolveToolPath(call.cwd, text(call, 'file_path'))
  const content = text(call, 'content')
  const originalFile = await currentText(editor, filePath, signal)
  await editor.writeTextFile(filePath, content, signal)
  const type = originalFile === null ? 'create' : 'update'
  const structured = {
    type,
    filePath,
    content,
    originalFile,
    structuredPatch: (originalFile === null ? [] : structuredPatch(originalFile, content)) as unknown as JsonValue,
    userModified: false
  }
  return {
    content: type === 'create' ? `File created successfully at: ${filePath}` : `The file ${filePath} has been updated successfully.`,
    isError: false,
    structured
  }
}

async function editThroughEditor(call: SealedCall, editor: EditorSide, signal: AbortSignal): Promise<ToolResult> {
  const filePath = resolveToolPath(call.cwd, text(call, 'file_path'))
  const oldString = text(call, 'old_string')
  const newString = text(call, 'new_string')
  const replaceAll = call.args.replace_all === true
  const failure = (content: string): ToolResult => ({ content, isError: true })
  if (oldString === newString) return failure('No changes to make: old_string and new_string are identical.')
  const original = await currentText(editor, filePath, signal)
  let updated: string
  if (oldString === '') {
    if (original !== null && original !== '') {
      return failure(`old_string is empty but ${filePath} already has content. Give the exact text to replace, or use Write to replace the whole file.`)
    }
    updated = newString
  } else {
    if (original === null) return failure(`File does not exist: ${filePath}`)
    const replaced = replaceExact(original, oldString, newString, replaceAll)
    if (typeof replaced !== 'string') return failure(replaced.problem)
    updated = replaced
  }
  await editor.writeTextFile(filePath, updated, signal)
  const originalFile = original ?? ''
  const structured = {
    filePath,
    oldString,
    newString,
    originalFile,
    replaceAll,
    structuredPatch: structuredPatch(originalFile, updated) as unknown as JsonValue,
    userModified: false
  }
  return {
    content: original === null ? `File created successfully at: ${filePath}` : `The file ${filePath} has been updated successfully.`,
    isError: false,
    structured
  }
}

/**
 * Bash in the editor's terminal, as Bash runs locally: `run_in_background` hands the terminal to
 * the background-tasks service at once, and a foreground command that reaches its timeout is
 * handed over then (terminal-task.ts) instead of killed, except where Bash would kill it
 * (`sleep`, git, the running-task cap, the plugin disabled).
 */
async function bashInEditorTerminal(call: SealedCall, editor: EditorSide, signal: AbortSignal, tasks: BackgroundTaskService | undefined): Promise<ToolResult> {
  const command = text(call, 'command')
  const timeoutMs = typeof call.args.timeout === 'number' ? call.args.timeout : OPTIONS.bashDefaultTimeoutMs
  const inBackground = call.args.run_in_background === true
  if (inBackground) {
    if (!tasks) return { content: BACKGROUND_UNAVAILABLE, isError: true }
    const refused = tasks.refusal(call.sessionId)
    if (refused) return { content: refused, isError: true }
  }
  const terminal = await editor.openTerminal(
    { command: shellPath(), args: ['-c', command], cwd: call.cwd, env: { ...editor.env() }, outputByteLimit: OPTIONS.maxOutputChars * 4 },
    signal
  )
  let handedOver = false
  const handOver = async (movedAfterTimeoutMs?: number): Promise<ToolResult> => {
    const soFar = movedAfterTimeoutMs === undefined ? '' : (await terminal.currentOutput().catch(() => ({ output: '' }))).output
    const task = tasks!.adopt({
      sessionId: call.sessionId,
      command,
      ...(typeof call.args.description === 'string' ? { description: call.args.description } : {}),
      outputSoFar: soFar,
      running: terminalCommand(terminal, soFar),
      ...(movedAfterTimeoutMs !== undefined ? { movedAfterTimeoutMs } : {})
    })
    handedOver = true
    const output = backgroundOutput({ stdout: soFar, stderr: '', output: soFar }, task, command)
    return { content: output.content, isError: false, structured: output.structured as JsonValue }
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    editor.started(call, [{ type: 'terminal', terminalId: terminal.id }])
    if (inBackground) return await handOver()
    const aborted = new Promise<'aborted'>((resolve) => {
      if (signal.aborted) resolve('aborted')
      else signal.addEventListener('abort', () => resolve('aborted'), { once: true })
    })
    const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(resolve, timeoutMs, 'deadline')))
    const exit = await Promise.race([terminal.waitForExit(), aborted, deadline])
    if (exit === 'deadline' && tasks && movesToBackground(command) && tasks.refusal(call.sessionId) === undefined) return await handOver(timeoutMs)
    if (exit === 'aborted' || exit === 'deadline') await terminal.kill().catch(() => undefined)
    const output = await terminal.currentOutput()
    // The deadline (here, or tool-timeout's) is a timeout; a cancelled turn is an abort.
    const interruptedBy = exit === 'deadline' || (exit === 'aborted' && (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError') ? 'timeout' : exit === 'aborted' ? 'abort' : undefined
    const exitCode = exitCodeOf(typeof exit === 'string' ? output.exitStatus : exit)
    const result = bashOutput({ stdout: output.output, stderr: '', exitCode, interruptedBy }, timeoutMs, OPTIONS.maxOutputChars, command)
    return { content: result.content, isError: result.isError === true, structured: result.structured as JsonValue }
  } finally {
    clearTimeout(timer)
    if (!handedOver) await terminal.release().catch(() => undefined)
  }
}
