// Applies a composed profile to a kernel, one plugin per enabled entry in profile order, and
// reloads a new composition by touching only what changed: a new config restarts the entry in
// place (`update`), a new plugin, a new position or a re-enable re-applies it, a disable or a
// removal disposes it. Everything else keeps running untouched.
import { errorText, type Kernel, type Plugin, type PluginRuntime } from '../../src-shared/kernel'
import type { PluginCatalog, ProfileEntry } from './profile'

export type EntryState = 'active' | 'waiting' | 'failed' | 'disabled'

export interface EntryStatus {
  id: string
  plugin: string
  state: EntryState
  error?: string
  /** Services the entry waits for. */
  missing: string[]
}

interface Slot {
  entry: ProfileEntry
  plugin?: Plugin
  handle?: PluginRuntime
  /** Set when applying failed before the kernel had a runtime (e.g. config rejected by the schema). */
  error?: string
}

export interface ReloadSummary {
  applied: string[]
  updated: string[]
  disposed: string[]
  unchanged: string[]
}

export class ProfileLoader {
  private slots: Slot[] = []

  /** Applies every enabled entry of `entries` at once. */
  constructor(
    private readonly kernel: Kernel,
    private catalog: PluginCatalog,
    entries: readonly ProfileEntry[]
  ) {
    this.slots = entries.map((entry) => this.apply(entry))
  }

  /**
   * Moves to a new composition (and optionally a new catalog, e.g. after a bundle install).
   * Entries re-applied here register after the ones left running, so their listeners run after
   * those until the next full start (the kernel orders by application).
   */
  reload(entries: readonly ProfileEntry[], catalog: PluginCatalog = this.catalog): ReloadSummary {
    this.catalog = catalog
    const summary: ReloadSummary = { applied: [], updated: [], disposed: [], unchanged: [] }
    const old = new Map(this.slots.map((slot) => [slot.entry.id, slot]))
    const next = new Map(entries.map((entry) => [entry.id, entry]))
    // Running entries that are still enabled with the same plugin object may stay, unless they moved.
    const candidates = this.slots.filter((slot) => {
      const entry = next.get(slot.entry.id)
      return slot.handle && entry && !entry.disabled && this.catalog.get(entry.plugin)?.plugin === slot.plugin
    })
    const kept = keptInOrder(
      candidates.map((slot) => slot.entry.id),
      entries.map((entry) => entry.id)
    )

    // Dispose first (removed, disabled, plugin swapped, moved), last first, so a re-applied entry never overlaps its old self.
    const survivors = new Map<string, PluginRuntime>()
    for (const slot of [...this.slots].reverse()) {
      if (!slot.handle) continue
      if (kept.has(slot.entry.id)) survivors.set(slot.entry.id, slot.handle)
      else {
        slot.handle.dispose()
        summary.disposed.push(slot.entry.id)
      }
    }
    this.slots = entries.map((entry) => {
      const slot = old.get(entry.id)
      const handle = survivors.get(entry.id)
      if (slot && handle) {
        if (sameConfig(slot.entry.config, entry.config)) return { ...slot, entry }
        summary.updated.push(entry.id)
        try {
          handle.update(entry.config)
          return { ...slot, entry, error: undefined }
        } catch (error) {
          // The runtime keeps its old config when the new one is rejected; show why.
          return { ...slot, entry, error: errorText(error) }
        }
      }
      const fresh = this.apply(entry)
      if (fresh.handle || fresh.error) summary.applied.push(entry.id)
      return fresh
    })
    const touched = new Set([...summary.applied, ...summary.updated, ...summary.disposed])
    summary.unchanged = entries.map((e) => e.id).filter((id) => !touched.has(id))
    return summary
  }

  states(): EntryStatus[] {
    return this.slots.map(({ entry, handle, error }) => {
      const base = { id: entry.id, plugin: entry.plugin }
      if (error !== undefined && (!handle || handle.state !== 'failed')) {
        return { ...base, state: handle ? stateOf(handle) : 'failed', error, missing: handle?.missing ?? [] }
      }
      if (!handle) return { ...base, state: 'disabled', missing: [] }
      const status: EntryStatus = { ...base, state: stateOf(handle), missing: handle.missing }
      if (handle.error && handle.state === 'failed') status.error = handle.error.message
      return status
    })
  }

  /** The runtime of an applied entry (undefined when disabled or not applied). */
  handle(id: string): PluginRuntime | undefined {
    return this.slots.find((slot) => slot.entry.id === id)?.handle
  }

  /** Disposes every entry, last first. */
  dispose(): void {
    for (const slot of [...this.slots].reverse()) slot.handle?.dispose()
    this.slots = this.slots.map(({ entry }) => ({ entry }))
  }

  private apply(entry: ProfileEntry): Slot {
    if (entry.disabled) return { entry }
    const plugin = this.catalog.get(entry.plugin)?.plugin
    if (!plugin) return { entry, error: `plugin "${entry.plugin}" is not in the catalog` }
    try {
      return { entry, plugin, handle: this.kernel.plugin(plugin, entry.config) }
    } catch (error) {
      return { entry, plugin, error: errorText(error) }
    }
  }
}

function stateOf(handle: PluginRuntime): EntryState {
  return handle.state === 'disposed' ? 'disabled' : handle.state
}

/**
 * The running ids that can stay where they are: the longest run of them that appears in the
 * same relative order in the old and the new profile (a longest common subsequence). Anything
 * outside it moved and is re-applied.
 */
function keptInOrder(running: readonly string[], newOrder: readonly string[]): Set<string> {
  const a = running
  const inA = new Set(a)
  const b = newOrder.filter((id) => inA.has(id))
  const n = a.length
  const m = b.length
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1])
    }
  }
  const kept = new Set<string>()
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) {
      kept.add(a[i])
      i++
      j++
    } else if (table[i + 1][j] >= table[i][j + 1]) i++
    else j++
  }
  return kept
}

/** Structural equality for YAML-shaped values (plain objects, arrays, scalars). */
export function sameConfig(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameConfig((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}
