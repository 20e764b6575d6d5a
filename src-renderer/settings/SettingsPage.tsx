// Settings: a nav of sections (settings/sections.tsx, then the pages client plugins contribute)
// and the section shown. Each section saves as one form (section-form.tsx): one Save bar, the
// unsaved state shown, and leaving with unsaved changes (another section, another page, closing
// the window) asks first.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { appActions, setLeaveGuard, useAppStore } from '../app/app-store'
import { ConfirmDialog } from '../app/ConfirmDialog'
import { EmptyState } from '../app/EmptyState'
import { SearchX } from '../app/icons'
import { useSlotsStore } from '../plugins/slots-store'
import { PluginRender, SlotBoundary } from '../plugins/SlotBoundary'
import { SaveBar, useSectionForm } from './section-form'
import { SETTINGS_SECTIONS, type SettingsSectionDef } from './sections'
import './settings.css'

function usePluginSections(): SettingsSectionDef[] {
  const pages = useSlotsStore((state) => state.settingsPages)
  // Made once per list, so a page's component keeps its identity (and its state) across renders.
  return useMemo(() => pages.map((page) => ({
    id: `plugin:${page.uid}`,
    title: page.title,
    component: function PluginSettingsPage() {
      return (
        <SlotBoundary plugin={page.plugin} slot={`settings page "${page.title}"`}>
          <PluginRender render={page.render} />
        </SlotBoundary>
      )
    }
  })), [pages])
}

export function SettingsPage() {
  const chosen = useAppStore((state) => state.settingsSection)
  const sections = [...SETTINGS_SECTIONS, ...usePluginSections()]
  const current = sections.find((s) => s.id === chosen)
  return (
    <div className="settings-page">
      <h1 className="settings-title">Settings</h1>
      <SectionNav sections={sections} current={current?.id ?? null} />
      {current ? <SectionPanel key={current.id} section={current} /> : <UnknownSection id={chosen} first={sections[0]!} />}
    </div>
  )
}

/** A link (`#/settings/<id>`) to a section there is not: say so, beside the sections there are. */
function UnknownSection({ id, first }: { id: string; first: SettingsSectionDef }) {
  return (
    <section className="settings-panel" aria-label="Unknown settings section">
      <h2>No such section</h2>
      <div className="settings-panel-body">
        <EmptyState
          icon={SearchX}
          title={`There is no settings section “${id}”.`}
          action={<button type="button" onClick={() => appActions.openSettings(first.id)}>Open {first.title}</button>}
        >
          The link names a section Seam does not have: it may be mistyped, or belong to a plugin that is not enabled. Choose one
          of the sections listed.
        </EmptyState>
      </div>
    </section>
  )
}

const tabId = (id: string) => `settings-tab-${id.replace(/[^\w-]/g, '-')}`
const panelId = 'settings-panel'

/** The section tabs: one tab stop (roving tabindex); arrows, Home and End move, Enter or Space opens. */
function SectionNav({ sections, current }: { sections: readonly SettingsSectionDef[]; current: string | null }) {
  // No section shown (an unknown link): the first tab is the one tab stop.
  const fallback = current ?? sections[0]!.id
  const [focused, setFocused] = useState(fallback)
  const refs = useRef(new Map<string, HTMLButtonElement>())
  useEffect(() => setFocused(fallback), [fallback])
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = sections.findIndex((s) => s.id === focused)
    const last = sections.length - 1
    const next =
      event.key === 'ArrowDown' || event.key === 'ArrowRight' ? (index >= last ? 0 : index + 1)
      : event.key === 'ArrowUp' || event.key === 'ArrowLeft' ? (index <= 0 ? last : index - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null
    if (next === null) return
    event.preventDefault()
    const id = sections[next]!.id
    setFocused(id)
    refs.current.get(id)?.focus()
  }
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <div role="tablist" aria-orientation="vertical" aria-label="Settings sections" onKeyDown={onKeyDown}>
        {sections.map((section) => (
          <button
            key={section.id}
            ref={(el) => {
              if (el) refs.current.set(section.id, el)
              else refs.current.delete(section.id)
            }}
            type="button"
            role="tab"
            id={tabId(section.id)}
            aria-selected={section.id === current}
            aria-controls={section.id === current ? panelId : undefined}
            tabIndex={section.id === focused ? 0 : -1}
            className="settings-tab"
            onFocus={() => setFocused(section.id)}
            onClick={() => appActions.openSettings(section.id)}
          >
            {section.title}
          </button>
        ))}
      </div>
    </nav>
  )
}

function SectionPanel({ section }: { section: SettingsSectionDef }) {
  const { handle, Provider } = useSectionForm()
  const [pending, setPending] = useState<(() => void) | null>(null)
  const dirty = useRef(handle.dirty)
  dirty.current = handle.dirty

  useEffect(
    () =>
      setLeaveGuard((proceed) => {
        if (!dirty.current) return false
        setPending(() => proceed)
        return true
      }),
    []
  )
  useEffect(() => {
    if (!handle.dirty) return
    // Closing or reloading the window with unsaved changes: the browser asks.
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [handle.dirty])

  const Component = section.component
  return (
    <section className="settings-panel" role="tabpanel" id={panelId} aria-labelledby={tabId(section.id)} data-section={section.id}>
      <h2>{section.title}</h2>
      <div className="settings-panel-body">
        <Provider>
          <Component />
        </Provider>
      </div>
      <SaveBar title={section.title} form={handle} />
      {pending && (
        <ConfirmDialog
          label="Discard unsaved changes?"
          confirm="Discard changes"
          danger
          onConfirm={() => {
            handle.discard()
            dirty.current = false
            pending()
          }}
          onClose={() => setPending(null)}
        >
          <p>The changes in {section.title} are not saved. Save them first, or discard them.</p>
        </ConfirmDialog>
      )}
    </section>
  )
}
