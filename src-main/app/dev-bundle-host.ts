// The running Host's side of `seam plugin dev`: loads each registered dev bundle from its folder
// (over an installed bundle of the same name, with a notice), and on every new build re-imports
// its host entry, swaps the plugin in (its old instance is disposed, its tools registered again,
// its seams attached again) and gives its client entry a new URL (the renderer re-imports it and
// its slots render again). A build that failed, a host entry that throws at import, or a plugin
// that fails to activate is reported (terminal, plugin manager, log) and the last good build stays.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from '../../src-shared/kernel'
import { errorText } from '../../src-shared/kernel'
import { loadBundleHost } from '../plugins/bundles/host-entry'
import { readManifest } from '../plugins/bundles/manifest'
import {
  isAlive,
  readRegistered,
  registeredPath,
  removeHostState,
  writeHostState,
  type DevEntry,
  type HostReport
} from '../plugins/bundles/dev-bundles'
import { watchPatchFiles, type StopWatching } from '../plugins/watch'
import type { ShelfBundle } from './bundle-shelf'
import type { HostRuntime } from './runtime'

export class DevBundleHost {
  /** What this Host did with each dev bundle's latest build, by name. */
  private readonly reports = new Map<string, HostReport>()
  /** The last good build of each dev bundle, by name. */
  private readonly good = new Map<string, ShelfBundle>()
  /** Dev bundles handed over in this process (`seam run --plugin-dev`), by folder. */
  private readonly local = new Map<string, DevEntry>()
  private stopWatching?: StopWatching
  private queue: Promise<void> = Promise.resolve()
  private closed = false

  constructor(
    private readonly runtime: HostRuntime,
    private readonly sdkVersion: string
  ) {}

  /** Loads the registered dev bundles and watches the registry for new builds. */
  async start(): Promise<void> {
    await this.sync()
    this.stopWatching = watchPatchFiles([registeredPath(this.runtime.paths.home)], () => void this.sync(), { debounceMs: 50 })
    await this.stopWatching.ready
  }

  /** What this Host made of the latest build of `name`. */
  reportOf(name: string): HostReport | undefined {
    return this.reports.get(name)
  }

  /** A build of a dev bundle served by this process itself. */
  update(entry: DevEntry): Promise<void> {
    this.local.set(entry.dir, entry)
    return this.sync()
  }

  /** Re-reads the registry and applies what changed; calls run one after another. */
  sync(): Promise<void> {
    const run = this.queue.then(() => this.syncNow())
    this.queue = run.catch((error: unknown) => this.log('error', `dev bundles: ${errorText(error)}`))
    return this.queue
  }

  async close(): Promise<void> {
    this.closed = true
    this.stopWatching?.()
    await this.queue
    if (this.published) await removeHostState(this.runtime.paths.home, process.pid).catch(() => undefined)
  }

  private async syncNow(): Promise<void> {
    if (this.closed) return
    let registered: DevEntry[]
    try {
      registered = await readRegistered(this.runtime.paths.home)
    } catch (error) {
      this.log('error', `dev bundles: ${errorText(error)}`)
      return
    }
    const wanted = new Map<string, DevEntry>()
    for (const entry of [...registered.filter((e) => isAlive(e.pid)), ...this.local.values()]) wanted.set(entry.name, entry)
    let changed = false
    for (const name of [...this.reports.keys()]) {
      if (wanted.has(name)) continue
      this.reports.delete(name)
      this.good.delete(name)
      this.runtime.bundles.setDev(name, undefined)
      this.log('info', `dev bundle ${name} ended${this.runtime.bundles.installed(name) ? '; the installed bundle is back' : ''}`)
      changed = true
    }
    const loaded: string[] = []
    for (const entry of wanted.values()) {
      const report = this.reports.get(entry.name)
      if (report && report.build === entry.build && report.dir === entry.dir) continue
      if (await this.load(entry)) changed = true
      loaded.push(entry.name)
    }
    if (changed) await this.runtime.recomposeAll()
    // Activation runs in the recompose: a plugin that failed there goes back to its last good build.
    if (this.treesStarted) for (const name of loaded) await this.checkActivated(name)
    await this.publish()
  }

  private treesStarted = false

  /** The window's tree runs: check the builds loaded before it started. */
  treesReady(): Promise<void> {
    const run = this.queue.then(async () => {
      this.treesStarted = true
      for (const name of [...this.candidates.keys()]) await this.checkActivated(name)
      await this.publish()
    })
    this.queue = run.catch((error: unknown) => this.log('error', `dev bundles: ${errorText(error)}`))
    return this.queue
  }

  /** Imports a build and puts it on the shelf; true when it did. A failure keeps the last good build. */
  private async load(entry: DevEntry): Promise<boolean> {
    if (!entry.ok) {
      this.fail(entry, entry.error ?? 'the build failed')
      return true
    }
    // Stacks of code imported from now on point into the bundle's sources (its build writes source maps).
    process.setSourceMapsEnabled(true)
    let bundle: ShelfBundle
    try {
      const manifest = await readManifest(entry.dir, this.sdkVersion)
      if (manifest.name !== entry.name) throw new Error(`package.json names "${manifest.name}", the dev session "${entry.name}"`)
      let plugin: Plugin | undefined
      if (manifest.host) {
        plugin = locatedPlugin(await loadBundleHost(entry.dir, manifest, { query: `seam-dev=${entry.build}`, locate: withLocation }), entry.dir)
      }
      bundle = { manifest, dir: entry.dir, source: `dev: ${entry.dir}`, enabled: true, plugin, dev: { build: entry.build } }
    } catch (error) {
      this.fail(entry, errorText(withLocation(error, entry.dir)))
      return true
    }
    const installed = this.runtime.bundles.installed(entry.name)
    if (!this.good.has(entry.name) && installed) {
      this.log('warn', `dev bundle ${entry.name} (${entry.dir}) takes precedence over the installed ${entry.name}@${installed.manifest.version} while \`seam plugin dev\` runs`)
    }
    this.runtime.bundles.setDev(entry.name, bundle)
    this.reports.set(entry.name, { name: entry.name, dir: entry.dir, build: entry.build, state: 'loaded', at: new Date().toISOString() })
    this.candidates.set(entry.name, bundle)
    return true
  }

  /** Builds put on the shelf by this sync, not yet known to activate. */
  private readonly candidates = new Map<string, ShelfBundle>()

  /** Reports a build that cannot run; the last good build (if any) stays, showing the error. */
  private fail(entry: DevEntry, error: string): void {
    this.reports.set(entry.name, { name: entry.name, dir: entry.dir, build: entry.build, state: 'failed', error, at: new Date().toISOString() })
    const good = this.good.get(entry.name)
    this.runtime.bundles.setDev(
      entry.name,
      good
        ? { ...good, error: `build ${entry.build}: ${error}`, dev: { build: good.dev!.build, failedBuild: entry.build } }
        : { manifest: { name: entry.name, version: '?', engines: '?' }, dir: entry.dir, source: `dev: ${entry.dir}`, enabled: true, error, dev: { build: entry.build } }
    )
    this.log('error', `dev bundle ${entry.name} build ${entry.build} not loaded${good ? ` (build ${good.dev?.build} stays)` : ''}: ${error}`)
  }

  /** After the recompose that activated `name`'s new build: keep it, or go back to the last good one. */
  private async checkActivated(name: string): Promise<void> {
    const candidate = this.candidates.get(name)
    this.candidates.delete(name)
    if (!candidate) return
    const build = candidate.dev!.build
    const row = this.runtime.plugins.list().find((p) => p.name === name && p.kind === 'bundle')
    if (row?.state !== 'failed') {
      this.good.set(name, candidate)
      this.log('info', `dev bundle ${name} build ${build} loaded`)
      return
    }
    const error = row.error ?? 'the plugin failed to activate'
    this.reports.set(name, { ...this.reports.get(name)!, state: 'failed', error })
    const good = this.good.get(name)
    this.log('error', `dev bundle ${name} build ${build} failed to activate${good ? ` (build ${good.dev?.build} stays)` : ''}: ${error}`)
    if (!good) return
    this.runtime.bundles.setDev(name, { ...good, error: `build ${build}: ${error}`, dev: { build: good.dev!.build, failedBuild: build } })
    await this.runtime.recomposeAll()
  }

  /** Whether this Host has written its state file (a Seam that never saw a dev bundle writes none). */
  private published = false

  private async publish(): Promise<void> {
    if (this.reports.size === 0 && !this.published) return
    this.published = true
    await writeHostState(this.runtime.paths.home, {
      version: 1,
      pid: process.pid,
      mode: this.runtime.options.mode,
      bundles: [...this.reports.values()]
    }).catch((error: unknown) => this.log('warn', `dev bundles: cannot write this host's state: ${errorText(error)}`))
  }

  private log(level: 'info' | 'warn' | 'error', message: string): void {
    this.runtime.log({ level, plugin: 'plugin-dev', message, time: Date.now() })
  }
}

/**
 * The plugin with errors thrown by `apply` carrying where in the bundle's sources they came from
 * (the first stack frame inside its folder, mapped through the build's source map).
 */
function locatedPlugin(plugin: Plugin, dir: string): Plugin {
  if (typeof plugin === 'function') return plugin
  const apply = plugin.apply.bind(plugin) as (...args: unknown[]) => unknown
  return {
    ...plugin,
    apply(...args: unknown[]) {
      try {
        const result = apply(...args)
        if (result instanceof Promise) return result.catch((error: unknown) => Promise.reject(withLocation(error, dir)))
        return result
      } catch (error) {
        throw withLocation(error, dir)
      }
    }
  } as Plugin
}

/** `error` with " (at src/host.ts:12:5)" added: the first frame of its stack inside `dir`. */
export function withLocation(error: unknown, dir: string): unknown {
  if (!(error instanceof Error)) return error
  const where = sourceLocation(error, dir)
  if (where && !error.message.includes(where)) error.message = `${error.message} (at ${where})`
  return error
}

export function sourceLocation(error: Error, dir: string): string | undefined {
  const root = dir.endsWith(path.sep) ? dir : dir + path.sep
  for (const line of (error.stack ?? '').split('\n').slice(1)) {
    const match = /((?:file:\/\/|\/)[^\s()]+?):(\d+):(\d+)\)?$/.exec(line.trim())
    if (!match) continue
    let file = match[1]
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(new URL(file))
      } catch {
        continue
      }
    }
    if (file.startsWith(root)) return `${path.relative(dir, file)}:${match[2]}:${match[3]}`
  }
  return undefined
}
