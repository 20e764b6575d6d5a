// Ordered listener and guard lists with copy-on-write arrays, so a dispatch snapshots its list
// for free (S26) and a registration never disturbs a dispatch in flight.
//
// Order is stable across plugin restarts: every entry carries the path of its owning plugin
// (its position in the plugin tree) plus its index within that plugin, and lists are kept
// sorted by that key. A plugin that restarts re-registers with the same keys, so its
// listeners land exactly where they were instead of moving to the end.

export type OrderKey = readonly number[]

export interface Entry<F> {
  readonly callback: F
  readonly key: OrderKey
  readonly prepend: boolean
  /** Name of the owning plugin, for error reports. */
  readonly owner: string
}

export function compareKeys(a: OrderKey, b: OrderKey): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i]
  }
  return a.length - b.length
}

/** Prepended entries first (the most recently keyed first), then the rest in key order. */
function comesBefore<F>(a: Entry<F>, b: Entry<F>): boolean {
  if (a.prepend !== b.prepend) return a.prepend
  const c = compareKeys(a.key, b.key)
  return a.prepend ? c > 0 : c < 0
}

export class OrderedLists<F> {
  private readonly lists = new Map<string, readonly Entry<F>[]>()
  private static readonly empty: readonly never[] = Object.freeze([])

  get(name: string): readonly Entry<F>[] {
    return this.lists.get(name) ?? OrderedLists.empty
  }

  add(name: string, entry: Entry<F>): () => void {
    const current = this.get(name)
    let at = current.length
    while (at > 0 && comesBefore(entry, current[at - 1])) at--
    const next = current.slice()
    next.splice(at, 0, entry)
    this.lists.set(name, next)
    return () => this.remove(name, entry)
  }

  private remove(name: string, entry: Entry<F>): void {
    const current = this.get(name)
    const at = current.indexOf(entry)
    if (at < 0) return
    const next = current.slice()
    next.splice(at, 1)
    if (next.length) this.lists.set(name, next)
    else this.lists.delete(name)
  }

  count(name: string): number {
    return this.get(name).length
  }
}
