// Limits of the agent loop and the hook runner (settings/get, settings/set), a draft of the
// Advanced section (saved with its Save bar); a refused value is marked and named.
import type { FormEvent } from 'react'
import type { Settings } from '../../src-shared/contract/ipc'
import { fieldErrorOf } from '../app/errors'
import { useDraftPart } from './section-form'
import { useSettingsDraft } from './settings-draft'

type LimitKey = 'maxParallelToolCalls' | 'maxSteps' | 'hookConcurrency'

const FIELDS: Array<{ key: LimitKey; label: string; max: number }> = [
  { key: 'maxParallelToolCalls', label: 'Max parallel tool calls', max: 64 },
  { key: 'maxSteps', label: 'Max steps per turn', max: 1000 },
  { key: 'hookConcurrency', label: 'Hook processes at once', max: 64 }
]
const LABELS = Object.fromEntries(FIELDS.map(({ key, label }) => [key, label]))

export function LimitsForm() {
  const { host, saved, draft: values, setDraft: setValues, keep, error, setError } = useSettingsDraft(asText)

  const dirty = saved !== null && values !== null && FIELDS.some(({ key }) => saved[key] !== values[key])
  const save = async (): Promise<boolean> => {
    if (!values) return true
    setError(null)
    try {
      const patch = Object.fromEntries(FIELDS.map(({ key }) => [key, Number(values[key])])) as Pick<Settings, LimitKey>
      keep(asText(await host.invoke('settings/set', patch)))
      return true
    } catch (e) {
      setError(fieldErrorOf(e, LABELS))
      return false
    }
  }
  const { saveSection } = useDraftPart({ dirty, save, discard: () => saved && setValues(saved) })

  if (!values) return error ? <p className="form-error" role="alert">{error.text}</p> : <p className="muted">Loading…</p>

  const submit = (event: FormEvent) => {
    event.preventDefault()
    saveSection()
  }

  return (
    <form className="limits-form" aria-label="Limits" onSubmit={submit}>
      {FIELDS.map(({ key, label, max }) => (
        <label key={key} className="field inline">
          <span className="field-label">{label}</span>
          <input
            type="number"
            min={1}
            max={max}
            step={1}
            value={values[key]}
            aria-invalid={error?.field === key ? true : undefined}
            onChange={(e) => setValues({ ...values, [key]: e.target.value })}
          />
        </label>
      ))}
      {error && <p className="form-error" role="alert">{error.text}</p>}
    </form>
  )
}

function asText(settings: Settings): Record<LimitKey, string> {
  return { maxParallelToolCalls: String(settings.maxParallelToolCalls), maxSteps: String(settings.maxSteps), hookConcurrency: String(settings.hookConcurrency) }
}
