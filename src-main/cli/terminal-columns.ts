// `seam run` on a terminal: the terminal's width is where a session's subagent rows would be
// drawn, so it is the `columns` a Claude Code plugin's `subagentStatusLine` command gets (the
// subagentStatusLines service), told again on every resize. Not a terminal (a pipe, a file):
// nothing is told and the command gets the plugin's default.
import type { Kernel } from '../../src-shared/kernel'
import '../../src-shared/host/extensions'

type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number }

/** Follows `stdout`'s width for `sessionId` while it is a terminal; returns the stop. */
export function followTerminalColumns(kernel: Kernel, sessionId: string, stdout: Output): () => void {
  const service = kernel.getService('subagentStatusLines')
  const setColumns = service?.setColumns?.bind(service)
  if (stdout.isTTY !== true || setColumns === undefined) return () => undefined
  const tell = () => {
    if (typeof stdout.columns === 'number' && stdout.columns > 0) setColumns(sessionId, stdout.columns)
  }
  tell()
  stdout.on('resize', tell)
  return () => void stdout.off('resize', tell)
}
