// The sidebar's search: titles filter at once as the user types; the host's title-and-content
// search (sessions/search) runs once typing pauses and then replaces the title filter, each
// session with a snippet of where it matched. An answer to an older query is dropped.
import { useEffect, useRef, useState } from 'react'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { filterSessions, type SessionSearchResult, type SessionSummary } from './sessions-store'

export const SEARCH_DEBOUNCE_MS = 200

export interface SessionSearchState {
  shown: readonly (SessionSummary | SessionSearchResult)[]
  /** The query's words, lowercased (what the opened session marks). */
  words: readonly string[]
  /** The content search for the current query has not answered yet. */
  pending: boolean
  error: string | null
  /** For screen readers: how many sessions match, once the content search answered. */
  status: string
}

export function useSessionSearch(query: string, list: readonly SessionSummary[]): SessionSearchState {
  const host = useHost()
  const trimmed = query.trim()
  const [answer, setAnswer] = useState<{ query: string; results: SessionSearchResult[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const requests = useRef(0)

  useEffect(() => {
    if (!trimmed) {
      setAnswer(null)
      setError(null)
      return
    }
    const request = ++requests.current
    // The list changes as sessions grow: search again (after the same pause) so results stay current.
    const timer = setTimeout(() => {
      host.invoke('sessions/search', { query: trimmed }).then(
        (results) => {
          if (request !== requests.current) return
          setAnswer({ query: trimmed, results })
          setError(null)
        },
        (e: unknown) => {
          if (request === requests.current) setError(errorText(e))
        }
      )
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [host, trimmed, list])

  const words = [...new Set(trimmed.toLowerCase().split(/\s+/).filter(Boolean))]
  if (!trimmed) return { shown: list, words, pending: false, error: null, status: '' }
  if (answer?.query === trimmed) {
    const count = answer.results.length
    return { shown: answer.results, words, pending: false, error, status: `${count} ${count === 1 ? 'session matches' : 'sessions match'}` }
  }
  return { shown: filterSessions(list, trimmed), words, pending: true, error, status: '' }
}
