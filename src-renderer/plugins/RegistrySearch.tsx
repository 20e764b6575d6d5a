// Search the npm registry (the one the user's npm is set up for) for bundles: packages with the
// `seam-plugin` keyword, each with its latest version and whether a version of it fits this Seam
// (engines.seam against the plugin API's version). Install hands the name to the install box.
import { useState, type FormEvent } from 'react'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'

type SearchResult = MethodOutput<'plugins/registry-search'>

export function RegistrySearch({ onInstall, busy }: { onInstall: (spec: string) => void; busy: boolean }) {
  const host = useHost()
  const [query, setQuery] = useState('')
  const [result, setResult] = useState<SearchResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [searching, setSearching] = useState(false)

  const search = async (event: FormEvent) => {
    event.preventDefault()
    setSearching(true)
    setError(null)
    try {
      setResult(await host.invoke('plugins/registry-search', { query: query.trim() }))
    } catch (e) {
      setResult(null)
      setError(errorText(e))
    } finally {
      setSearching(false)
    }
  }

  return (
    <div className="registry-search">
      <form className="row" role="search" aria-label="Registry search" onSubmit={(e) => void search(e)}>
        <label className="field grow">
          <span className="field-label">Search the registry</span>
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="bundles with the seam-plugin keyword" spellCheck={false} />
        </label>
        <button type="submit" disabled={searching}>{searching ? 'Searching…' : 'Search'}</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
      {result && result.hits.length === 0 && <p className="muted" role="status">No bundles found in {result.registry}.</p>}
      {result && result.hits.length > 0 && (
        <table className="plugin-table" aria-label="Registry bundles">
          <thead>
            <tr><th>Name</th><th>Description</th><th>Version</th><th>This Seam</th><th><span className="sr-only">Actions</span></th></tr>
          </thead>
          <tbody>
            {result.hits.map((hit) => (
              <tr key={hit.name} aria-label={hit.name}>
                <td><code>{hit.name}</code></td>
                <td>{hit.description ?? ''}</td>
                <td>{hit.version}</td>
                <td data-fits={hit.fits ? 'yes' : 'no'}>
                  {hit.problem ? `unknown: ${hit.problem}` : hit.fits ? `fits${hit.fitVersion && hit.fitVersion !== hit.version ? ` (${hit.fitVersion})` : ''}` : `does not fit (needs Seam ${hit.engines ?? '?'})`}
                </td>
                <td>
                  <button type="button" disabled={!hit.fits || busy} aria-label={`Install ${hit.name}`} onClick={() => onInstall(hit.name)}>Install</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
