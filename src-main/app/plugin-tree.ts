// The plugin tree as the settings page shows it: every composed entry with its state (and why it
// failed or waits), the layer that last decided it, its config and the tools it registered; then
// installed bundles that have no entry because they are disabled or failed to load.
import { stringify } from 'yaml'
import type { PluginTreeEntry } from '../../src-shared/contract/ipc'
import { BASE_PROFILE } from '../plugins/compose'
import type { EntryStatus } from '../plugins/loader'
import type { ComposedEntry } from '../plugins/profile'
import type { ShelfBundle } from './bundle-shelf'

export interface PluginTreeInput {
  entries: readonly ComposedEntry[]
  states: readonly EntryStatus[]
  /** The running plugin's name for an entry (what tool owners are named by), when it runs. */
  pluginNameOf(id: string): string | undefined
  isBundle(pluginKey: string): boolean
  toolOwners: ReadonlyArray<{ name: string; owner: string }>
  /** The layer files in order: the user's, the workspace's (when trusted), `--patch`. */
  layers: { user: string; workspace?: string; file?: string }
  bundles: readonly ShelfBundle[]
}

export function pluginTree(input: PluginTreeInput): PluginTreeEntry[] {
  const states = new Map(input.states.map((state) => [state.id, state]))
  const toolsOf = new Map<string, string[]>()
  for (const { name, owner } of input.toolOwners) toolsOf.set(owner, [...(toolsOf.get(owner) ?? []), name])
  const entries = input.entries.map((entry): PluginTreeEntry => {
    const state = states.get(entry.id)
    const bundle = input.isBundle(entry.plugin)
    const running = entry.disabled ? undefined : input.pluginNameOf(entry.id)
    const out: PluginTreeEntry = {
      id: entry.id,
      plugin: entry.plugin,
      kind: bundle ? 'bundle' : 'builtin',
      state: entry.disabled ? 'disabled' : (state?.state ?? 'failed'),
      missing: state?.missing ?? [],
      origin: entry.origin,
      layer: layerOf(entry.origin, bundle, input.layers),
      tools: running !== undefined ? [...(toolsOf.get(running) ?? [])].sort() : []
    }
    if (state?.error !== undefined) out.error = state.error
    if (entry.config !== undefined && !isEmptyObject(entry.config)) out.config = stringify(entry.config, { lineWidth: 0 }).trimEnd()
    return out
  })
  const listed = new Set(entries.map((entry) => entry.id))
  const idle = input.bundles
    .filter((b) => !listed.has(b.manifest.name) && (!b.enabled || b.error !== undefined))
    .map((b): PluginTreeEntry => {
      const out: PluginTreeEntry = {
        id: b.manifest.name,
        plugin: `bundle:${b.manifest.name}`,
        kind: 'bundle',
        state: b.enabled ? 'failed' : 'disabled',
        missing: [],
        origin: b.source,
        layer: 'bundle',
        tools: []
      }
      if (b.enabled && b.error !== undefined) out.error = b.error
      return out
    })
  return [...entries, ...idle]
}

function layerOf(origin: string, bundle: boolean, layers: PluginTreeInput['layers']): PluginTreeEntry['layer'] {
  if (origin.startsWith(BASE_PROFILE)) return bundle ? 'bundle' : 'base'
  const file = origin.replace(/:\d+$/, '')
  if (file === layers.user) return 'user'
  if (file === layers.workspace) return 'workspace'
  return 'file'
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
}
