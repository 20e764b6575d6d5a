// What client plugins contribute to the UI, by slot. Each entry remembers its plugin so the
// runtime can remove all of a plugin's entries, and a uid so one registration can be undone.
import { create } from 'zustand'
import type { PanelContribution, StatusItemContribution, ToolResultRenderer } from './sdk'

interface Owned { uid: number; plugin: string }
export type PanelEntry = Owned & PanelContribution
export type StatusEntry = Owned & StatusItemContribution
export type ToolRendererEntry = Owned & { toolName: string; render: ToolResultRenderer }

export interface SlotsState {
  sidebarPanels: PanelEntry[]
  settingsPages: PanelEntry[]
  statusItems: StatusEntry[]
  toolResultRenderers: ToolRendererEntry[]
}

type SlotName = keyof SlotsState

export const useSlotsStore = create<SlotsState>()(() => ({ sidebarPanels: [], settingsPages: [], statusItems: [], toolResultRenderers: [] }))

let nextUid = 1

export const slotsActions = {
  add<S extends SlotName>(slot: S, entry: Omit<SlotsState[S][number], 'uid'>): number {
    const uid = nextUid++
    useSlotsStore.setState((state) => ({ [slot]: [...state[slot], { ...entry, uid }] }) as Partial<SlotsState>)
    return uid
  },
  remove(uid: number): void {
    useSlotsStore.setState((state) => filterAll(state, (entry) => entry.uid !== uid))
  },
  removePlugin(plugin: string): void {
    useSlotsStore.setState((state) => filterAll(state, (entry) => entry.plugin !== plugin))
  },
  reset(): void {
    useSlotsStore.setState({ sidebarPanels: [], settingsPages: [], statusItems: [], toolResultRenderers: [] })
  }
}

function filterAll(state: SlotsState, keep: (entry: Owned) => boolean): SlotsState {
  return {
    sidebarPanels: state.sidebarPanels.filter(keep),
    settingsPages: state.settingsPages.filter(keep),
    statusItems: state.statusItems.filter(keep),
    toolResultRenderers: state.toolResultRenderers.filter(keep)
  }
}

/** The renderer for a tool's results: the latest registration wins. */
export function useToolResultRenderer(toolName: string): ToolRendererEntry | undefined {
  return useSlotsStore((state) => state.toolResultRenderers.findLast((entry) => entry.toolName === toolName))
}
