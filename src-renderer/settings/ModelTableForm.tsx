// Context windows and prices per model (models/table, models/set), and automatic compaction
// (compaction/set). A blank field falls back to Seam's default, shown as the placeholder; the
// context meter and session costs use what is saved here from the next request on.
import { useEffect, useState, type FormEvent } from 'react'
import type { ModelInfo, ModelTableRow, ModelTableView } from '../../src-shared/model-table'
import { errorText, fieldErrorOf } from '../app/errors'
import { useHost } from '../app/host-context'
import { useDraftPart } from './section-form'

const FIELDS = [
  { key: 'contextWindow', label: 'Context window', unit: 'tokens' },
  { key: 'input', label: 'Input', unit: 'USD / M tokens' },
  { key: 'cachedInput', label: 'Cached input', unit: 'USD / M tokens' },
  { key: 'cacheWrite', label: 'Cache write', unit: 'USD / M tokens' },
  { key: 'output', label: 'Output', unit: 'USD / M tokens' }
] as const
type FieldKey = (typeof FIELDS)[number]['key']
type Draft = Record<FieldKey, string>

export function ModelTableForm() {
  const host = useHost()
  const [view, setView] = useState<ModelTableView | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [adding, setAdding] = useState('')
  const [extra, setExtra] = useState<string[]>([])

  useEffect(() => {
    let live = true
    host.invoke('models/table', {}).then(
      (table) => live && setView(table),
      (e: unknown) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [host])

  if (!view) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>

  const known = new Set(view.models.map((row) => row.model))
  const rows: ModelTableRow[] = [
    ...view.models,
    ...extra.filter((model) => !known.has(model)).map((model) => ({ model, defaults: {}, override: null, effective: {}, inUse: false }))
  ]
  const addModel = (event: FormEvent) => {
    event.preventDefault()
    const name = adding.trim()
    if (name && !known.has(name)) setExtra([...extra, name])
    setAdding('')
  }

  return (
    <div className="model-table">
      <CompactionForm view={view} onSaved={setView} />
      {rows.map((row) => (
        <ModelRow key={row.model} row={row} onSaved={setView} />
      ))}
      <form className="model-add" onSubmit={addModel}>
        <label className="field inline">
          <span className="field-label">Another model</span>
          <input value={adding} onChange={(e) => setAdding(e.target.value)} placeholder="model name as the provider spells it" />
        </label>
        <button type="submit" disabled={!adding.trim()}>
          Add
        </button>
      </form>
    </div>
  )
}

function CompactionForm({ view, onSaved }: { view: ModelTableView; onSaved: (view: ModelTableView) => void }) {
  const host = useHost()
  const savedPercent = String(Math.round(view.compaction.threshold * 100))
  const [auto, setAuto] = useState(view.compaction.auto)
  const [percent, setPercent] = useState(savedPercent)
  const [error, setError] = useState<{ field: string | undefined; text: string } | null>(null)
  const save = async (): Promise<boolean> => {
    setError(null)
    const threshold = Number(percent) / 100
    if (!Number.isFinite(threshold) || threshold <= 0 || threshold > 1) {
      setError({ field: 'threshold', text: `${THRESHOLD_LABEL}: a percentage above 0 and at most 100` })
      return false
    }
    try {
      const next = await host.invoke('compaction/set', { auto, threshold })
      onSaved(next)
      setAuto(next.compaction.auto)
      setPercent(String(Math.round(next.compaction.threshold * 100)))
      return true
    } catch (e) {
      setError(fieldErrorOf(e, { auto: 'Compact automatically', threshold: THRESHOLD_LABEL }))
      return false
    }
  }
  const discard = () => {
    setAuto(view.compaction.auto)
    setPercent(savedPercent)
    setError(null)
  }
  const { saveSection } = useDraftPart({ dirty: auto !== view.compaction.auto || percent !== savedPercent, save, discard })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    saveSection()
  }
  return (
    <form className="compaction-form" aria-label="Automatic compaction" onSubmit={submit}>
      <label className="field inline">
        <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.target.checked)} />
        <span className="field-label">Compact automatically</span>
      </label>
      <label className="field inline">
        <span className="field-label">{THRESHOLD_LABEL}</span>
        <input type="number" min={1} max={100} step={1} value={percent} aria-invalid={error?.field === 'threshold' ? true : undefined} onChange={(e) => setPercent(e.target.value)} />
      </label>
      {error && <p className="form-error" role="alert">{error.text}</p>}
    </form>
  )
}

const THRESHOLD_LABEL = 'when a request would fill more than (% of the context window)'

function ModelRow({ row, onSaved }: { row: ModelTableRow; onSaved: (view: ModelTableView) => void }) {
  const host = useHost()
  const [draft, setDraft] = useState<Draft>(() => draftOf(row.override))
  const [error, setError] = useState<{ field: string | undefined; text: string } | null>(null)
  const defaults = draftOf(row.defaults)
  const savedDraft = draftOf(row.override)
  const blank = FIELDS.every(({ key }) => draft[key].trim() === '')

  const save = async (): Promise<boolean> => {
    setError(null)
    // Every field blank: back to Seam's defaults (the override goes).
    const info = blank ? null : infoOf(draft, row.defaults)
    if (typeof info === 'string') {
      setError({ field: FIELDS.find(({ label }) => info.startsWith(`${label}:`))?.key, text: info })
      return false
    }
    try {
      const view = await host.invoke('models/set', { model: row.model, info })
      const saved = view.models.find((r) => r.model === row.model)
      setDraft(draftOf(saved?.override ?? null))
      onSaved(view)
      return true
    } catch (e) {
      setError(fieldErrorOf(e, { 'info.contextWindow': 'Context window', 'info.prices.input': 'Input', 'info.prices.output': 'Output', model: 'Model' }))
      return false
    }
  }
  const dirty = FIELDS.some(({ key }) => draft[key] !== savedDraft[key]) && !(blank && row.override === null)
  const { saveSection } = useDraftPart({ dirty, save, discard: () => (setDraft(savedDraft), setError(null)) })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    saveSection()
  }

  return (
    <form className="model-row" aria-label={`Model ${row.model}`} onSubmit={submit}>
      <h4 className="model-name">
        {row.model}
        {row.inUse && <span className="badge">in use</span>}
        {row.override && <span className="badge">your values</span>}
        {dirty && <span className="badge warn">unsaved</span>}
      </h4>
      <div className="model-fields">
        {FIELDS.map(({ key, label, unit }) => (
          <label key={key} className="field">
            <span className="field-label">
              {label} <span className="muted">({unit})</span>
            </span>
            <input
              inputMode="decimal"
              value={draft[key]}
              placeholder={defaults[key] || 'not set'}
              aria-invalid={error?.field === key || error?.field === `info.prices.${key}` || error?.field === `info.${key}` ? true : undefined}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            />
          </label>
        ))}
      </div>
      {row.override && !blank && (
        <div className="model-actions">
          <button type="button" onClick={() => setDraft(draftOf(null))}>
            Clear to the defaults
          </button>
        </div>
      )}
      {error && <p className="form-error" role="alert">{error.text}</p>}
    </form>
  )
}

function draftOf(info: ModelInfo | null): Draft {
  const text = (value: number | undefined) => (value === undefined ? '' : String(value))
  return {
    contextWindow: text(info?.contextWindow),
    input: text(info?.prices?.input),
    cachedInput: text(info?.prices?.cachedInput),
    cacheWrite: text(info?.prices?.cacheWrite),
    output: text(info?.prices?.output)
  }
}

/** The entry to save, or a message naming the field that is not a number. Prices go as a whole: blanks take the defaults. */
export function infoOf(draft: Draft, defaults: ModelInfo): ModelInfo | string {
  const numbers: Partial<Record<FieldKey, number>> = {}
  for (const { key, label } of FIELDS) {
    const text = draft[key].trim()
    if (text === '') continue
    const value = Number(text)
    if (!Number.isFinite(value) || value < 0) return `${label}: "${text}" is not a number of 0 or more`
    if (key === 'contextWindow' && (!Number.isInteger(value) || value === 0)) return `${label}: a whole number of tokens above 0`
    numbers[key] = value
  }
  const info: ModelInfo = {}
  if (numbers.contextWindow !== undefined) info.contextWindow = numbers.contextWindow
  const priceKeys = ['input', 'cachedInput', 'cacheWrite', 'output'] as const
  if (priceKeys.some((key) => numbers[key] !== undefined)) {
    const input = numbers.input ?? defaults.prices?.input
    const output = numbers.output ?? defaults.prices?.output
    if (input === undefined) return 'Input: a price is needed when other prices are set'
    if (output === undefined) return 'Output: a price is needed when other prices are set'
    info.prices = { input, output }
    const cachedInput = numbers.cachedInput ?? defaults.prices?.cachedInput
    const cacheWrite = numbers.cacheWrite ?? defaults.prices?.cacheWrite
    if (cachedInput !== undefined) info.prices.cachedInput = cachedInput
    if (cacheWrite !== undefined) info.prices.cacheWrite = cacheWrite
  }
  return info
}
