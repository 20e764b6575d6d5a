// The running host's side of installing bundles by name: npm's settings read for the current
// workspace (its project .npmrc) and environment, then src-main/plugins/bundles/registry-*.
// Those (and npm's own client libraries under them: npm-registry-fetch, @npmcli/config, cacache)
// are imported on first use: every `seam` command and the app's start loaded them before, about a
// quarter of the CLI's start-up CPU, for the few commands that talk to a registry.
import type { MethodOutput } from '../../src-shared/contract/ipc'
import type { BundleShelf } from './bundle-shelf'
import type { NpmOptions } from '../plugins/bundles/registry-config'
import type { UpdateReport } from '../plugins/bundles/registry-install'
import type { SearchResult } from '../plugins/bundles/registry-search'

/** The contract's types (src-shared/contract/ipc.ts), shared with the UI. */
export type RegistryResolution = MethodOutput<'plugins/registry-resolve'>
export type RegistryInstalled = MethodOutput<'plugins/registry-install'>

export interface RegistryContext {
  shelf: BundleShelf
  /** Where a project .npmrc is looked for: the workspace, else the current directory. */
  cwd: string
  env: NodeJS.ProcessEnv
}

async function npmConfig(context: RegistryContext): Promise<NpmOptions> {
  const { loadNpmConfig } = await import('../plugins/bundles/registry-config')
  return loadNpmConfig({ cwd: context.cwd, env: context.env })
}

export async function resolveBundle(context: RegistryContext, spec: string): Promise<RegistryResolution> {
  const [{ resolveFromRegistry }, { enginesSeam }] = await Promise.all([import('../plugins/bundles/registry-install'), import('../plugins/bundles/registry-client')])
  const { packument, choice } = await resolveFromRegistry(spec, await npmConfig(context), context.shelf.seamVersion)
  const resolution: RegistryResolution = {
    name: packument.name,
    version: choice.version.version,
    range: choice.range,
    registry: packument.registry,
    engines: enginesSeam(choice.version) ?? ''
  }
  if (choice.version.description) resolution.description = choice.version.description
  return resolution
}

export async function installBundleByName(context: RegistryContext, spec: string, options: { force?: boolean } = {}): Promise<RegistryInstalled> {
  const { installFromRegistry } = await import('../plugins/bundles/registry-install')
  const { result, resolved, notes } = await installFromRegistry(spec, await npmConfig(context), context.shelf.seamVersion, (file, fromRegistry) =>
    context.shelf.install(file, { force: options.force, fromRegistry })
  )
  return { ...result, registry: resolved.packument.registry, range: resolved.choice.range, notes }
}

export async function updateBundles(context: RegistryContext, name?: string): Promise<UpdateReport[]> {
  const { updateFromRegistry } = await import('../plugins/bundles/registry-install')
  return updateFromRegistry(context.shelf.seamHome, name, await npmConfig(context), context.shelf.seamVersion, (file, fromRegistry) =>
    context.shelf.install(file, { fromRegistry, keepEnabledState: true })
  )
}

export async function searchBundles(context: RegistryContext, query: string): Promise<SearchResult> {
  const { searchRegistry } = await import('../plugins/bundles/registry-search')
  return searchRegistry(query, await npmConfig(context), context.shelf.seamVersion)
}
