// Limits of the agent loop and the hook runner (settings/get, settings/set).
import { useEffect, useState, type FormEvent } from 'react'
import type { Settings } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'

type LimitKey = 'maxParallelToolCalls' | 'maxSteps' | 'hookConcurrency'

const FIELDS: Array<{ key: LimitKey; label: string; max: number }> = [
  { key: 'maxParallelToolCalls', label: 'Max parallel tool calls', max: 64 },
  { key: 'maxSteps', label: 'Max steps per turn', max: 1000 },
  { key: 'hookConcurrency', label: 'Hook processes at once', max: 64 }
]

export function LimitsForm() {
  const host = useHost()
  const [values, setValues] = useState<Record<LimitKey, string> | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    host.invoke('settings/get', {}).then(
      (settings) => live && setValues(asText(settings)),
      (e: unknown) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [host])

  if (!values) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setMessage(null)
    try {
      const patch = Object.fromEntries(FIELDS.map(({ key }) => [key, Number(values[key])])) as Pick<Settings, LimitKey>
      setValues(asText(await host.invoke('settings/set', patch)))
      setMessage('Limits saved.')
    } catch (e) {
      setError(errorText(e))
    }
  }

  return (
    <form className="limits-form" onSubmit={(e) => void submit(e)}>
      {FIELDS.map(({ key, label, max }) => (
        <label key={key} className="field inline">
          <span className="field-label">{label}</span>
          <input type="number" min={1} max={max} step={1} value={values[key]} onChange={(e) => setValues({ ...values, [key]: e.target.value })} />
        </label>
      ))}
      <button type="submit">Save limits</button>
      {message && <p className="muted" role="status">{message}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  )
}

function asText(settings: Settings): Record<LimitKey, string> {
  return { maxParallelToolCalls: String(settings.maxParallelToolCalls), maxSteps: String(settings.maxSteps), hookConcurrency: String(settings.hookConcurrency) }
}
