// The row a Claude Code plugin's `subagentStatusLine` command drew for a subagent, as its card and
// its task row show it: the text with its colours, and which plugin drew it on hover.
import type { SubagentStatusLineView } from '../../src-shared/contract/subagents'
import { plainStatusLine, StatusLineText } from './StatusLineText'

export function StatusLineRow({ line }: { line: SubagentStatusLineView }) {
  return (
    <p className="subagent-status-line small" aria-label="Subagent status line" title={`Drawn by the ${line.plugin} plugin's subagentStatusLine: ${plainStatusLine(line.content)}`}>
      <StatusLineText content={line.content} />
    </p>
  )
}
