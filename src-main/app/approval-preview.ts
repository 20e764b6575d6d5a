// What an approval dialog shows of a file-changing call before it runs: the target's absolute
// path and its current content, so the UI can show the diff the call would apply. Read-only,
// bounded: a file past PREVIEW_MAX_BYTES is cut (and said to be), a missing file is null.
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'

export const PREVIEW_MAX_BYTES = 512 * 1024

/** Tools whose `file_path` argument names the file they change (Claude Code's names). */
const FILE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit'])

export function filePreview(tool: string, args: Readonly<Record<string, unknown>>, cwd: string | undefined): ApprovalRequestPublic['file'] {
  const target = args.file_path
  if (!FILE_TOOLS.has(tool) || typeof target !== 'string' || target === '') return undefined
  if (!isAbsolute(target) && cwd === undefined) return undefined
  const path = isAbsolute(target) ? target : resolve(cwd!, target)
  try {
    const stat = statSync(path)
    if (!stat.isFile()) return { path, before: null, truncated: false }
    const size = Math.min(stat.size, PREVIEW_MAX_BYTES)
    const buffer = Buffer.alloc(size)
    const fd = openSync(path, 'r')
    try {
      readSync(fd, buffer, 0, size, 0)
    } finally {
      closeSync(fd)
    }
    return { path, before: buffer.toString('utf8'), truncated: stat.size > PREVIEW_MAX_BYTES }
  } catch {
    return { path, before: null, truncated: false }
  }
}
