// Client plugins' status-line items.
import { useSlotsStore } from './slots-store'
import { PluginRender, SlotBoundary } from './SlotBoundary'

export function StatusItems() {
  const items = useSlotsStore((state) => state.statusItems)
  return (
    <>
      {items.map((item) => (
        <span key={item.uid} className="status-item" data-plugin={item.plugin}>
          <SlotBoundary plugin={item.plugin} slot={`status item "${item.id}"`}>
            <PluginRender render={item.render} />
          </SlotBoundary>
        </span>
      ))}
    </>
  )
}
