// `@path` mentions in a message: each mentioned file of the workspace is read with the Read tool's
// own logic (its line window, long-line cut and binary refusal apply) and goes to the model right
// after the message, as Claude Code attaches a mentioned file. What cannot be attached (missing,
// outside the workspace, a directory, binary) is logged with the reason for the user, and the
// message itself goes as typed: nothing is lost.
import { realpath, stat } from 'node:fs/promises'
import type { ToolDefinition, ToolExec } from '../../src-shared/host/tools'
import { errorText } from '../../src-shared/kernel'
import type { MentionedFile } from '../../src-shared/session/mention-events'
import { parseMentions } from '../../src-shared/mentions'
import { isWithin, resolveToolPath } from '../tools/builtin/paths'

export { mentionToken, parseMentions } from '../../src-shared/mentions'

/** Files attached from one message at most; later mentions are reported, not read. */
export const MAX_MENTIONS = 20

export interface MentionContext {
  workspace: string
  sessionId: string
  /** The Read tool in use, or undefined when none is offered (a bare deny rule, a disabled plugin). */
  read: ToolDefinition<unknown> | undefined
  /** Why a deny rule refuses reading `path` (a `Read(...)` rule), or undefined. */
  denied?: (path: string) => string | undefined
  signal: AbortSignal
}

/** Reads every file `text` mentions; one entry per mention, attached (`content`) or not (`error`). */
export async function expandMentions(text: string, context: MentionContext): Promise<MentionedFile[]> {
  const mentions = parseMentions(text)
  const files: MentionedFile[] = []
  for (const [index, mention] of mentions.entries()) {
    const path = resolveToolPath(context.workspace, mention)
    if (index >= MAX_MENTIONS) files.push({ mention, path, error: `not attached: a message attaches at most ${MAX_MENTIONS} files` })
    else files.push(await attach(mention, path, context))
  }
  return files
}

async function attach(mention: string, path: string, context: MentionContext): Promise<MentionedFile> {
  const refuse = (why: string): MentionedFile => ({ mention, path, error: why })
  if (!isWithin(context.workspace, path)) return refuse(`not attached: ${path} is outside the workspace`)
  let real: string
  try {
    real = await realpath(path)
    if (!(await stat(real)).isFile()) return refuse(`not attached: ${path} is not a file`)
  } catch {
    return refuse(`not attached: no file ${mention} in the workspace`)
  }
  // A link inside the workspace that points out of it is refused like a path outside it.
  if (!isWithin(await realpath(context.workspace).catch(() => context.workspace), real)) return refuse(`not attached: ${path} leads outside the workspace`)
  if (!context.read) return refuse('not attached: the Read tool is not available in this session')
  // A deny rule on the path as mentioned or as it resolves (a link) refuses it, as it refuses the model's Read.
  const denial = context.denied?.(path) ?? (real !== path ? context.denied?.(real) : undefined)
  if (denial) return refuse(`not attached: ${denial}`)
  const exec: ToolExec = {
    signal: context.signal,
    token: `mention:${path}`,
    cwd: context.workspace,
    sessionId: context.sessionId,
    env: {},
    progress: () => {}
  }
  try {
    const args = context.read.inputSchema.parse({ file_path: path })
    const out = await context.read.execute(args, exec)
    if (out.isError) return refuse(`not attached: ${typeof out.content === 'string' ? out.content : 'Read failed'}`)
    if (typeof out.content !== 'string') return refuse('not attached: Read returned no text')
    return { mention, path, content: out.content }
  } catch (error) {
    return refuse(`not attached: ${errorText(error)}`)
  }
}
