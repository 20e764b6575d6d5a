// `@seam/client`: the client SDK a bundle's client entry is written against. The app shares this
// module instance (and its React) with bundles through globalThis.__seamShared (see README.md).
import type { ReactNode } from 'react'
import type { SessionEvent } from '../../src-shared/session/events'

/** The version of this contract; bumped when a field changes incompatibly. */
export const SDK_VERSION = 1

/** Undoes one registration; calling it twice is harmless. */
export type Disposer = () => void

export interface PanelContribution {
  /** Unique within the plugin. */
  id: string
  title: string
  render: () => ReactNode
}

export interface StatusItemContribution {
  id: string
  render: () => ReactNode
}

/** A tool call as its card shows it: sealed arguments. */
export interface ToolCallView {
  name: string
  callId: string
  token?: string
  args: Record<string, unknown>
}

export interface ToolResultData {
  content: string
  isError: boolean
  code?: string
  structured?: unknown
  durationMs: number
}

export interface ToolResultProps {
  call: ToolCallView
  result: ToolResultData
}

export type ToolResultRenderer = (props: ToolResultProps) => ReactNode

export interface ClientSlots {
  sidebarPanel(panel: PanelContribution): Disposer
  settingsPage(page: PanelContribution): Disposer
  /** Renders results of `toolName` in its tool cards (the raw result stays one click away). */
  toolResultRenderer(toolName: string, render: ToolResultRenderer): Disposer
  statusItem(item: StatusItemContribution): Disposer
}

/** What a client entry's `activate` receives. Everything it registers goes when the plugin goes. */
export interface ClientContext {
  /** The bundle's name. */
  readonly plugin: string
  readonly slots: ClientSlots
  /** Calls `method` of this bundle's own host part (host `plugins/call`, namespaced by the host). */
  rpc<T = unknown>(method: string, input?: unknown): Promise<T>
  /** Every event appended to any session the host has open. */
  onSessionEvent(listener: (event: SessionEvent, sessionId: string) => void): Disposer
}

/** A client entry's default export. A returned function runs when the plugin is deactivated. */
export type ClientActivate = (ctx: ClientContext) => void | Disposer | Promise<void | Disposer>

/** Identity helper that gives a bundle's activate function its type. */
export function defineClientPlugin(activate: ClientActivate): ClientActivate {
  return activate
}
