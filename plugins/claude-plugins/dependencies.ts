// Who needs whom among installed plugins, from each copy's `dependencies`: a bare name is a plugin of
// the declaring plugin's own marketplace, `marketplace` names another. Used to say who depends on a
// plugin being turned off or removed, and to find the dependencies installed automatically that
// nothing needs any more (`seam plugin prune`).
import { readPluginFolder, type Dependency } from './manifest'
import { pluginId, type InstalledRecord } from './store'

/** `name@marketplace` of a dependency declared by a plugin of `declaringMarketplace`. */
export function dependencyId(dependency: Dependency, declaringMarketplace: string): string {
  return pluginId(dependency.name, dependency.marketplace ?? declaringMarketplace)
}

/** The plugin ids each installed plugin's copy names in its `dependencies`; `undefined` where the copy cannot be read. */
export function dependencyGraph(installed: Readonly<Record<string, InstalledRecord>>): Map<string, string[] | undefined> {
  const graph = new Map<string, string[] | undefined>()
  for (const [id, record] of Object.entries(installed)) {
    try {
      graph.set(id, readPluginFolder(record.installPath, { name: record.name }).dependencies.map((dependency) => dependencyId(dependency, record.marketplace)))
    } catch {
      graph.set(id, undefined)
    }
  }
  return graph
}

/** The installed plugins (other than `id`) whose `dependencies` name `id`, from whichever marketplace. */
export function dependentsOf(id: string, graph: ReadonlyMap<string, string[] | undefined>): string[] {
  return [...graph].filter(([other, needs]) => other !== id && needs?.includes(id) === true).map(([other]) => other)
}

export class UnreadableDependenciesError extends Error {}

/**
 * The plugins installed as dependencies (`auto`) that no plugin the user installed needs, directly
 * or through other dependencies; in the order they can go (a dependent before what it needs). A
 * needed plugin whose copy cannot be read makes it impossible to tell, so that refuses rather than
 * guesses.
 */
export function orphanedDependencies(installed: Readonly<Record<string, InstalledRecord>>): string[] {
  const graph = dependencyGraph(installed)
  const needed = new Set<string>()
  const walk = (id: string) => {
    if (needed.has(id) || installed[id] === undefined) return
    needed.add(id)
    const needs = graph.get(id)
    if (needs === undefined) throw new UnreadableDependenciesError(`cannot tell what ${id} depends on: its copy ${installed[id].installPath} cannot be read (reinstall or uninstall it first)`)
    for (const dependency of needs) walk(dependency)
  }
  for (const [id, record] of Object.entries(installed)) if (record.auto !== true) walk(id)
  const orphans = Object.keys(installed).filter((id) => !needed.has(id))
  // Dependents first: an orphan that another orphan needs goes after it.
  const ordered: string[] = []
  const visit = (id: string, seen: Set<string>) => {
    if (ordered.includes(id) || seen.has(id)) return
    seen.add(id)
    for (const [other, needs] of graph) if (orphans.includes(other) && needs?.includes(id) === true) visit(other, seen)
    ordered.push(id)
  }
  for (const id of orphans) visit(id, new Set())
  return ordered
}
