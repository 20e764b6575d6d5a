// Searching the registry for bundles: npm's search API (`/-/v1/search`) with the `seam-plugin`
// keyword, then each hit's packument to say whether any version fits this Seam (search results
// carry no engines). Registries that ignore the `keywords:` qualifier (verdaccio 5 matches it as
// plain text and finds nothing) are asked again with the bare query, and only packages whose
// keywords include `seam-plugin` are kept. A query that starts with a scope (`@acme/…`, `@acme`)
// asks that scope's registry (`@acme:registry` in .npmrc) when one is set.
import npmFetch from 'npm-registry-fetch'
import semver from 'semver'
import { z } from 'zod'
import type { MethodOutput } from '../../../src-shared/contract/ipc'
import { errorText } from '../../../src-shared/kernel'
import { formatZodError } from '../../../src-shared/validation'
import { BundleError, fitsSeam } from './manifest'
import { enginesSeam, fetchPackument } from './registry-client'
import { publicUrl, type NpmOptions } from './registry-config'

export const BUNDLE_KEYWORD = 'seam-plugin'

const searchSchema = z.object({
  objects: z.array(
    z.object({
      package: z.object({
        name: z.string(),
        version: z.string().optional(),
        description: z.string().nullish(),
        keywords: z.array(z.string()).nullish(),
        'dist-tags': z.record(z.string(), z.string()).optional()
      })
    })
  )
})

/** The contract's own types (src-shared/contract/ipc.ts): one definition for the host and the UI. */
export type SearchResult = MethodOutput<'plugins/registry-search'>
export type SearchHit = SearchResult['hits'][number]

export async function searchRegistry(query: string, npm: NpmOptions, seamVersion: string, size = 20): Promise<SearchResult> {
  const scope = /^(@[a-z0-9][\w.-]*)(?:\/|\s|$)/i.exec(query.trim())?.[1]
  const scoped = scope !== undefined ? npm[`${scope.toLowerCase()}:registry`] : undefined
  const chosen = typeof scoped === 'string' ? scoped : npm.registry
  const registry = typeof chosen === 'string' ? (chosen.endsWith('/') ? chosen : `${chosen}/`) : 'https://registry.npmjs.org/'
  const shown = publicUrl(registry)
  const ask = async (text: string) => {
    let raw: unknown
    try {
      raw = await npmFetch.json(`${registry}-/v1/search`, { ...npm, query: { text, size: String(size) } })
    } catch (error) {
      throw new BundleError(`searching ${shown} failed: ${errorText(error)}`)
    }
    const parsed = searchSchema.safeParse(raw)
    if (!parsed.success) throw new BundleError(formatZodError(`the search answer of ${shown}`, parsed.error))
    return parsed.data.objects.map((o) => o.package)
  }
  const trimmed = query.trim()
  const tagged = (p: { keywords?: string[] | null }) => (p.keywords ?? []).includes(BUNDLE_KEYWORD)
  let found = (await ask(`keywords:${BUNDLE_KEYWORD}${trimmed ? ` ${trimmed}` : ''}`)).filter((p) => !p.keywords || tagged(p))
  if (found.length === 0) found = (await ask(trimmed)).filter(tagged)
  const hits = await mapLimit(found.slice(0, size), 4, async (pkg): Promise<SearchHit> => {
    const latest = pkg.version ?? pkg['dist-tags']?.latest ?? '?'
    const hit: SearchHit = { name: pkg.name, version: latest, fits: false }
    if (pkg.description) hit.description = pkg.description
    try {
      const packument = await fetchPackument(pkg.name, npm)
      const latestVersion = packument.versions[packument['dist-tags'].latest ?? latest]
      if (latestVersion) {
        hit.version = latestVersion.version
        const engines = enginesSeam(latestVersion)
        if (engines !== undefined) hit.engines = engines
      }
      const best = Object.values(packument.versions)
        .filter((v) => semver.valid(v.version) !== null && semver.prerelease(v.version) === null)
        .filter((v) => {
          const range = enginesSeam(v)
          return range !== undefined && fitsSeam(range, seamVersion)
        })
        .sort((a, b) => semver.rcompare(a.version, b.version))[0]
      if (best) {
        hit.fits = true
        hit.fitVersion = best.version
      }
    } catch (error) {
      hit.problem = errorText(error)
    }
    return hit
  })
  return { registry: shown, hits }
}

async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
