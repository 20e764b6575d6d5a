// A client plugin's renderer for one tool's results, inside its tool card.
import type { ToolCardItem } from '../transcript/transcript-types'
import type { ToolRendererEntry } from './slots-store'
import { SlotBoundary } from './SlotBoundary'

export function ToolResultSlot({ entry, card }: { entry: ToolRendererEntry; card: ToolCardItem }) {
  if (!card.result) return null
  const call = { name: card.name, callId: card.callId, args: card.args, ...(card.token ? { token: card.token } : {}) }
  const { content, isError, code, structured, durationMs } = card.result
  const result = { content, isError, durationMs, ...(code !== undefined ? { code } : {}), ...(structured !== undefined ? { structured } : {}) }
  return (
    <div className="tool-plugin-result">
      <SlotBoundary plugin={entry.plugin} slot={`the ${card.name} result`}>
        <RenderWith entry={entry} call={call} result={result} />
      </SlotBoundary>
    </div>
  )
}

function RenderWith({ entry, call, result }: { entry: ToolRendererEntry } & Parameters<ToolRendererEntry['render']>[0]) {
  return <>{entry.render({ call, result })}</>
}
