// The model picker in the chat header: a native select (a combobox with a listbox of options,
// grouped by provider preset) showing the model in use. Picking one switches the open session's
// model (logged in the session as model/switched); with no session open, the provider in use.
// Models that accept images say so; providers Seam cannot reach (no key, no address) are listed
// with the reason and cannot be picked.
import { useEffect, useState } from 'react'
import { useAppStore } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useSessionStore } from '../transcript/session-store'
import { modelActions, useModelStore } from './model-store'

const SEP = '\n'

export function ModelPicker() {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const provider = useAppStore((state) => state.status?.provider)
  const options = useModelStore((state) => state.options)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    void modelActions.refresh(host, sessionId)
  }, [host, sessionId, provider?.provider, provider?.model, provider?.baseUrl])

  if (!options?.current) return null
  const value = `${options.current.provider}${SEP}${options.current.model}`
  const change = async (next: string) => {
    const [id, model] = next.split(SEP) as [typeof options.providers[number]['id'], string]
    setError(null)
    try {
      await modelActions.select(host, sessionId, id, model)
    } catch (e) {
      setError(errorText(e))
    }
  }
  return (
    <span className="model-picker">
      <label className="sr-only" htmlFor="model-picker">Model</label>
      <select
        id="model-picker"
        value={value}
        title={`${options.current.model}${options.current.vision ? ' (accepts images)' : ''}`}
        aria-describedby={error ? 'model-picker-error' : undefined}
        onChange={(e) => void change(e.target.value)}
      >
        {options.providers
          .filter((p) => p.models.length > 0)
          .map((p) => (
            <optgroup key={p.id} label={p.available ? p.label : `${p.label} (${p.reason ?? 'unavailable'})`}>
              {p.models.map((m) => (
                <option key={m.model} value={`${p.id}${SEP}${m.model}`} disabled={!p.available}>
                  {m.model}{m.vision ? ' · images' : ''}
                </option>
              ))}
            </optgroup>
          ))}
      </select>
      {error && <span id="model-picker-error" className="form-error small" role="alert">{error}</span>}
    </span>
  )
}
