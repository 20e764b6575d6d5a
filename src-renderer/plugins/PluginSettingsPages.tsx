// Client plugins' settings pages, shown as sections of the settings page.
import { useSlotsStore } from './slots-store'
import { PluginRender, SlotBoundary } from './SlotBoundary'

export function PluginSettingsPages() {
  const pages = useSlotsStore((state) => state.settingsPages)
  return (
    <>
      {pages.map((page) => (
        <section key={page.uid} className="settings-section" aria-label={page.title}>
          <h2>{page.title}</h2>
          <SlotBoundary plugin={page.plugin} slot={`settings page "${page.title}"`}>
            <PluginRender render={page.render} />
          </SlotBoundary>
        </section>
      ))}
    </>
  )
}
