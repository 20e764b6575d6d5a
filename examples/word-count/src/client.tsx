// The client part: loaded by Seam's UI as an ES module. It renders WordCount results as a small
// table and adds a "Word count" sidebar panel that asks the host part (RPC `stats`) how often the
// tool ran. `react` and `react/jsx-runtime` are the app's own instances: the build maps them to
// shims that read globalThis.__seamShared, so no React is bundled into dist/client.js.
import { useCallback, useEffect, useState } from 'react'
import { z } from 'zod/mini'
import type { WordCountResult, WordCountStats } from './host'
import type { ClientContext, Disposer, ToolResultProps } from '@seam/sdk/client'

const TOOL_NAME = 'WordCount'

// What arrives from the host is checked before it is shown.
const resultSchema = z.object({ file: z.string(), lines: z.number(), words: z.number(), chars: z.number(), bytes: z.number() })
const statsSchema = z.object({ runs: z.number(), lastFile: z.optional(z.string()) })

export function WordCountResultView({ result }: ToolResultProps) {
  const parsed = result.isError ? undefined : resultSchema.safeParse(result.structured)
  if (!parsed?.success) {
    return (
      <div data-testid="word-count-result" className="word-count-result word-count-error">
        {result.content}
      </div>
    )
  }
  const counts: WordCountResult = parsed.data
  const rows: Array<[string, number]> = [
    ['Lines', counts.lines],
    ['Words', counts.words],
    ['Characters', counts.chars],
    ['Bytes', counts.bytes]
  ]
  return (
    <table data-testid="word-count-result" className="word-count-result">
      <caption>{counts.file}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td data-field={label.toLowerCase()}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Tells mounted panels that the tool ran, so they fetch the stats again. */
class Changes {
  private readonly listeners = new Set<() => void>()
  subscribe(listener: () => void): Disposer {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
  notify(): void {
    for (const listener of [...this.listeners]) listener()
  }
  clear(): void {
    this.listeners.clear()
  }
}

interface PanelProps {
  load: () => Promise<WordCountStats>
  changes: Changes
}

export function WordCountPanel({ load, changes }: PanelProps) {
  const [state, setState] = useState<{ stats?: WordCountStats; error?: string }>({})
  const [generation, setGeneration] = useState(0)
  const refresh = useCallback(() => setGeneration((g) => g + 1), [])
  useEffect(() => changes.subscribe(refresh), [changes, refresh])
  useEffect(() => {
    let live = true
    load().then(
      (stats) => live && setState({ stats }),
      (error: unknown) => live && setState({ error: error instanceof Error ? error.message : String(error) })
    )
    return () => {
      live = false
    }
  }, [load, generation])
  const { stats, error } = state
  return (
    <section data-testid="word-count-panel" className="word-count-panel">
      {error ? (
        <p role="alert">Could not read the stats: {error}</p>
      ) : stats ? (
        <p>
          WordCount ran <strong data-testid="word-count-runs">{stats.runs}</strong> {stats.runs === 1 ? 'time' : 'times'} since Seam started.
        </p>
      ) : (
        <p>Loading…</p>
      )}
      {stats?.lastFile ? (
        <p>
          Last file: <code>{stats.lastFile}</code>
        </p>
      ) : null}
      <button type="button" onClick={refresh}>
        Refresh
      </button>
    </section>
  )
}

export default function activate(ctx: ClientContext): Disposer {
  const changes = new Changes()
  const load = async (): Promise<WordCountStats> => {
    const parsed = statsSchema.safeParse(await ctx.rpc('stats'))
    if (!parsed.success) throw new Error(`stats: unexpected answer from the host part (${parsed.error.issues[0]?.message ?? 'invalid'})`)
    return parsed.data
  }
  ctx.slots.toolResultRenderer(TOOL_NAME, (props) => <WordCountResultView {...props} />)
  ctx.slots.sidebarPanel({ id: 'word-count', title: 'Word count', render: () => <WordCountPanel load={load} changes={changes} /> })
  ctx.onSessionEvent((event) => {
    if (event.type === 'tool/result' && (event as { name?: unknown }).name === TOOL_NAME) changes.notify()
  })
  // Slots and listeners are removed by Seam when the plugin goes; this only drops our own state.
  return () => changes.clear()
}
