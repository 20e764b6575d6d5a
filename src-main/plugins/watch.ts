// Live patch files: watch the folders that hold them (editors often replace a file rather than
// write it, which a watch on the file itself would lose), recompose on change, and keep the
// last good tree when an edit does not compose.
import { watch, type FSWatcher } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { composeProfile, type PatchLayer } from './compose'
import { layerPaths, loadLayers, type LayerSources } from './layers'
import type { ProfileLoader, ReloadSummary } from './loader'
import type { ComposedEntry, PluginCatalog, ProfileEntry } from './profile'

export interface PatchWatchOptions {
  /** Quiet time after the last change before `onChange` runs. Default 100 ms. */
  debounceMs?: number
}

/**
 * Calls `onChange` (debounced) whenever one of `paths` is created, written, replaced or
 * deleted. A folder that does not exist yet is watched through its nearest existing ancestor,
 * and the watch moves down once it appears. Returns a function that stops watching.
 */
export type StopWatching = (() => void) & {
  /** Resolves once the first watches are in place (changes before that may be missed). */
  ready: Promise<void>
}

export function watchPatchFiles(paths: readonly string[], onChange: () => void, options: PatchWatchOptions = {}): StopWatching {
  const debounceMs = options.debounceMs ?? 100
  const targets = paths.map((p) => path.resolve(p))
  const watchers = new Map<string, FSWatcher>()
  let timer: NodeJS.Timeout | undefined
  let closed = false

  const schedule = () => {
    if (closed) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      void rearm().then(() => {
        if (!closed) onChange()
      })
    }, debounceMs)
  }

  /** Watch, for every target, the deepest existing folder on its way; drop watches no longer needed. */
  const rearm = async () => {
    const wanted = new Map<string, Set<string>>()
    for (const target of targets) {
      const { dir, next } = await nearestExisting(target)
      let names = wanted.get(dir)
      if (!names) wanted.set(dir, (names = new Set()))
      names.add(next)
    }
    if (closed) return
    for (const [dir, watcher] of watchers) {
      if (!wanted.has(dir)) {
        watcher.close()
        watchers.delete(dir)
      }
    }
    for (const [dir, names] of wanted) {
      const existing = watchers.get(dir)
      if (existing) {
        ;(existing as FSWatcher & { names?: Set<string> }).names = names
        continue
      }
      try {
        const watcher = watch(dir, { persistent: false }, (_event, filename) => {
          const current = (watcher as FSWatcher & { names?: Set<string> }).names
          // Some platforms omit the file name; then any change in the folder counts.
          if (!filename || current?.has(filename.toString())) schedule()
        }) as FSWatcher & { names?: Set<string> }
        watcher.names = names
        // A watched folder that is deleted or renamed reports an error; look again from higher up.
        watcher.on('error', () => {
          watcher.close()
          watchers.delete(dir)
          schedule()
        })
        watchers.set(dir, watcher)
      } catch {
        // The folder vanished between the stat and the watch; the next rearm finds its parent.
        schedule()
      }
    }
  }

  const ready = rearm()
  const stop = () => {
    closed = true
    if (timer) clearTimeout(timer)
    for (const watcher of watchers.values()) watcher.close()
    watchers.clear()
  }
  return Object.assign(stop, { ready })
}

/** The deepest existing folder on the way to `target`, and the name of the next step below it. */
async function nearestExisting(target: string): Promise<{ dir: string; next: string }> {
  let child = target
  let dir = path.dirname(target)
  for (;;) {
    try {
      if ((await stat(dir)).isDirectory()) return { dir, next: path.basename(child) }
    } catch {
      // Missing (or unreadable): try the parent.
    }
    const parent = path.dirname(dir)
    if (parent === dir) return { dir, next: path.basename(child) }
    child = dir
    dir = parent
  }
}

export interface ProfileWatchOptions extends PatchWatchOptions {
  sources: LayerSources
  base: readonly ProfileEntry[]
  /** The catalog to compose against (read on every change, so it may grow). */
  catalog: () => PluginCatalog
  loader: ProfileLoader
  /** The layers the running tree was composed from, so saves that change nothing do not reload. */
  layers?: readonly PatchLayer[]
  onReload?: (entries: ComposedEntry[], summary: ReloadSummary) => void
  /** A bad edit: nothing is reloaded, so the loader keeps the last good tree. */
  onError: (error: Error) => void
}

/** Recompose and reload whenever a layer file changes. Returns a function that stops watching. */
export function watchProfile(options: ProfileWatchOptions): StopWatching {
  let lastTexts = options.layers ? JSON.stringify(options.layers) : undefined
  let running = Promise.resolve()
  const recompose = async () => {
    let layers: PatchLayer[]
    let entries: ComposedEntry[]
    try {
      layers = await loadLayers(options.sources)
      const texts = JSON.stringify(layers)
      // Saves that do not change any text (touch, editor swap files) do not reload.
      if (texts === lastTexts) return
      lastTexts = texts
      entries = composeProfile(options.base, layers, options.catalog())
    } catch (error) {
      options.onError(error instanceof Error ? error : new Error(String(error)))
      return
    }
    const summary = options.loader.reload(entries, options.catalog())
    options.onReload?.(entries, summary)
  }
  // Serialise recompositions so two quick edits apply in order.
  return watchPatchFiles(layerPaths(options.sources), () => {
    running = running.then(recompose)
  }, options)
}
