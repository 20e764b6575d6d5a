// Client plugins' sidebar panels, each inside its own error boundary.
import { useSlotsStore } from './slots-store'
import { PluginRender, SlotBoundary } from './SlotBoundary'

export function SidebarPanels() {
  const panels = useSlotsStore((state) => state.sidebarPanels)
  if (panels.length === 0) return null
  return (
    <div className="sidebar-panels">
      {panels.map((panel) => (
        <section key={panel.uid} className="sidebar-panel" aria-label={panel.title}>
          <h2 className="panel-title">{panel.title}</h2>
          <SlotBoundary plugin={panel.plugin} slot={`sidebar panel "${panel.title}"`}>
            <PluginRender render={panel.render} />
          </SlotBoundary>
        </section>
      ))}
    </div>
  )
}
