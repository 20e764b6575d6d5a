// What the terminal approval of `seam run` shows of a call, as people read it: Bash as its command
// line with the folder it runs in, Write/Edit/MultiEdit as a unified diff against the file as it is
// now (coloured on a terminal), anything else as its JSON; a dangerous call's risks first.
import { structuredPatch } from 'diff'
import type { ApprovalRequest } from '../../src-shared/host/tools'
import { callRisks } from '../../src-shared/host/call-risks'
import { proposedContent } from '../../src-shared/host/proposed-content'
import { filePreview } from '../app/approval-preview'
import { subagentLabel } from '../../src-shared/subagent-label'

/** Diff lines shown before the rest is summed up (a long Write would bury the question). */
export const DIFF_MAX_LINES = 120

export interface ApprovalTextOptions {
  color: boolean
  workspace?: string | null
}

type Paint = (text: string) => string

export function approvalText(request: Pick<ApprovalRequest, 'tool' | 'args' | 'reason' | 'cwd' | 'agent'>, options: ApprovalTextOptions): string {
  const paint = painter(options.color)
  const lines: string[] = []
  const risks = callRisks(request.tool, request.args, { workspace: options.workspace ?? null, ...(request.cwd !== undefined ? { cwd: request.cwd } : {}) })
  lines.push(`? ${paint.bold(request.tool)} wants to run${risks.length > 0 ? ` ${paint.danger('(DANGEROUS)')}` : ''}`)
  for (const risk of risks) lines.push(`  ${paint.danger(`! ${risk.text}`)}`)
  if (request.agent) lines.push(`  asked by ${paint.bold(subagentLabel(request.agent))}`)
  lines.push(...callBody(request, paint))
  lines.push(`  reason: ${request.reason}`)
  return lines.join('\n') + '\n'
}

function callBody(request: Pick<ApprovalRequest, 'tool' | 'args' | 'cwd'>, paint: Painter): string[] {
  const { tool, args, cwd } = request
  if (tool === 'Bash' && typeof args.command === 'string') {
    const out = args.command.split('\n').map((line, i) => `  ${i === 0 ? '$' : '>'} ${paint.bold(line)}`)
    if (typeof args.description === 'string' && args.description) out.push(`  ${paint.dim(`# ${args.description}`)}`)
    if (cwd) out.push(`  in ${cwd}`)
    return out
  }
  const file = filePreview(tool, args, cwd)
  const after = file ? proposedContent(tool, args, file.before ?? '') : null
  if (file && after !== null) {
    return [`  ${file.before === null ? 'new file' : 'file'}: ${file.path}`, ...unifiedDiff(file.path, file.before ?? '', after, paint).map((line) => `  ${line}`), ...(file.truncated ? ['  (the file is large: the diff covers its first 512 KB)'] : [])]
  }
  return [`  ${JSON.stringify(args)}`]
}

/** A unified diff (3 lines of context), at most DIFF_MAX_LINES lines. */
export function unifiedDiff(path: string, before: string, after: string, paint: Painter = painter(false)): string[] {
  const patch = structuredPatch(path, path, before, after, '', '', { context: 3 })
  const out = [paint.danger(`--- ${before === '' ? '/dev/null' : path}`), paint.added(`+++ ${path}`)]
  for (const hunk of patch.hunks) {
    out.push(paint.hunk(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`))
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) out.push(paint.dim(line))
      else if (line.startsWith('+')) out.push(paint.added(line))
      else if (line.startsWith('-')) out.push(paint.danger(line))
      else out.push(line)
    }
  }
  if (patch.hunks.length === 0) out.push(paint.dim('(no change)'))
  if (out.length <= DIFF_MAX_LINES) return out
  return [...out.slice(0, DIFF_MAX_LINES), paint.dim(`… ${out.length - DIFF_MAX_LINES} more diff lines`)]
}

export interface Painter {
  bold: Paint
  dim: Paint
  danger: Paint
  added: Paint
  hunk: Paint
}

export function painter(color: boolean): Painter {
  const sgr = (open: string): Paint => (color ? (text) => `\u001b[${open}m${text}\u001b[0m` : (text) => text)
  return { bold: sgr('1'), dim: sgr('2'), danger: sgr('31'), added: sgr('32'), hunk: sgr('36') }
}

/** Colour on a terminal unless NO_COLOR is set (https://no-color.org), or FORCE_COLOR asks for it. */
export function wantsColor(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return (stream as { isTTY?: boolean }).isTTY === true
}
