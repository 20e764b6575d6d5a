// Loading a bundle's host entry. Host entries are trusted code: they run in the host process
// with its full powers (the install dialog says so). What is checked here is only the shape of
// the default export, so a wrong export fails at load with a clear message.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin } from '../../../src-shared/kernel'
import { BundleError, type BundleManifest } from './manifest'

export interface HostLoadOptions {
  /** Added to the module URL: a new query imports a fresh instance (dev builds). */
  query?: string
  /** Rewrites an import error first (dev bundles add where in their sources it was thrown). */
  locate?: (error: unknown, dir: string) => unknown
}

export async function loadBundleHost(dir: string, manifest: BundleManifest, options: HostLoadOptions = {}): Promise<Plugin> {
  const label = `bundle ${manifest.name}@${manifest.version}`
  if (!manifest.host) throw new BundleError(`${label} has no host entry (seam.host)`)
  const file = path.join(dir, manifest.host)
  let module: Record<string, unknown>
  try {
    const url = pathToFileURL(file)
    if (options.query) url.search = options.query
    module = (await import(/* @vite-ignore */ url.href)) as Record<string, unknown>
  } catch (caught) {
    const error = options.locate ? options.locate(caught, dir) : caught
    const message = error instanceof Error ? error.message : String(error)
    throw new BundleError(`${label}: importing the host entry ${manifest.host} failed: ${message}`)
  }
  const plugin = module.default
  const problem = pluginShapeProblem(plugin)
  if (problem) throw new BundleError(`${label}: the host entry ${manifest.host} must export default a plugin (${problem})`)
  return plugin as Plugin
}

function pluginShapeProblem(value: unknown): string | undefined {
  if (value === undefined) return 'it has no default export'
  const isFunction = typeof value === 'function'
  if (!isFunction && (typeof value !== 'object' || value === null)) return `got ${value === null ? 'null' : typeof value}`
  const plugin = value as { name?: unknown; apply?: unknown; schema?: unknown; inject?: unknown }
  if (!isFunction) {
    if (typeof plugin.name !== 'string' || plugin.name === '') return 'an object plugin needs a string name'
    if (typeof plugin.apply !== 'function') return 'an object plugin needs an apply(ctx, config) function'
  }
  if (plugin.schema !== undefined && typeof (plugin.schema as { safeParse?: unknown }).safeParse !== 'function') {
    return 'schema must be a zod schema'
  }
  if (plugin.inject !== undefined && !(Array.isArray(plugin.inject) && plugin.inject.every((s) => typeof s === 'string'))) {
    return 'inject must be a list of service names'
  }
  return undefined
}
