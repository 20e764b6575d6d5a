// The model provider: preset, base URL, model, API key. The key field is never pre-filled (the
// host never sends a stored key back); an empty field keeps the stored key. In Settings it is a
// draft of its section (saved by the section's Save bar); on the setup screen it has its own Save.
import { consumeKeyFocus, providerHealthActions } from '../app/provider-health'
import { useEffect, useId, useState, type FormEvent } from 'react'
import type { MethodOutput, ProviderInput, ProviderPublic } from '../../src-shared/contract/ipc'
import { errorText, fieldErrorOf } from '../app/errors'
import { useHost } from '../app/host-context'
import { useDraftPart } from '../settings/section-form'

type Presets = MethodOutput<'provider/presets'>
type Kind = ProviderInput['provider']
type TestResult = MethodOutput<'provider/test'>

const LABELS = { provider: 'Provider', baseUrl: 'Base URL', model: 'Model', apiKey: 'API key' }

export function ProviderForm() {
  const host = useHost()
  const selectId = useId()
  const [presets, setPresets] = useState<Presets>([])
  const [saved, setSaved] = useState<ProviderPublic | null>(null)
  const [form, setForm] = useState<{ provider: Kind; baseUrl: string; model: string } | null>(null)
  const [apiKey, setApiKey] = useState('')
  const [test, setTest] = useState<TestResult | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [invalid, setInvalid] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState<'test' | 'save' | null>(null)

  useEffect(() => {
    let live = true
    Promise.all([host.invoke('provider/presets', {}), host.invoke('provider/get', {})]).then(
      ([list, current]) => {
        if (!live) return
        setPresets(list)
        setSaved(current)
        const first = list[0]
        if (current) setForm({ provider: current.provider, baseUrl: current.baseUrl, model: current.model })
        else if (first) setForm({ provider: first.id, baseUrl: first.baseUrl, model: first.model })
      },
      (e: unknown) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [host])

  const input = (fields: NonNullable<typeof form>): ProviderInput => ({ ...fields, ...(apiKey ? { apiKey } : {}) })

  const pick = (id: Kind) => {
    const next = presets.find((p) => p.id === id)
    setForm(saved?.provider === id ? { provider: id, baseUrl: saved.baseUrl, model: saved.model } : { provider: id, baseUrl: next?.baseUrl ?? '', model: next?.model ?? '' })
    setApiKey('')
    setTest(null)
  }

  const run = async (what: 'test' | 'save', keyOverride?: string): Promise<boolean> => {
    if (!form) return true
    setBusy(what)
    setError(null)
    setInvalid(undefined)
    setMessage(null)
    if (what === 'test') setTest(null)
    try {
      if (what === 'test') setTest(await host.invoke('provider/test', input(form)))
      else {
        const value = keyOverride === undefined ? input(form) : { ...form, apiKey: keyOverride }
        const next = await host.invoke('provider/set', value)
        setSaved(next)
        if (next) setForm({ provider: next.provider, baseUrl: next.baseUrl, model: next.model })
        providerHealthActions.reset()
        setApiKey('')
        setMessage(keyOverride === '' ? 'Key removed.' : 'Saved.')
      }
      return true
    } catch (e) {
      const { field, text } = fieldErrorOf(e, LABELS)
      setInvalid(field)
      setError(text)
      return false
    } finally {
      setBusy(null)
    }
  }
  const dirty = apiKey !== '' || (saved !== null && form !== null && (form.provider !== saved.provider || form.baseUrl !== saved.baseUrl || form.model !== saved.model))
  const discard = () => {
    if (saved) setForm({ provider: saved.provider, baseUrl: saved.baseUrl, model: saved.model })
    setApiKey('')
    setError(null)
    setInvalid(undefined)
  }
  const { inSection, saveSection } = useDraftPart({ dirty, save: () => run('save'), discard })

  if (!form) return <div className="provider-form">{error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading providers…</p>}</div>

  const preset = presets.find((p) => p.id === form.provider)
  const hasKey = saved?.hasKey === true && saved.provider === form.provider

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (inSection) saveSection()
    else void run('save')
  }

  return (
    <form className="provider-form" onSubmit={submit}>
      <div className="field">
        <label className="field-label" htmlFor={selectId}>Provider</label>
        <select id={selectId} value={form.provider} onChange={(e) => pick(e.target.value as Kind)}>
          {presets.map((p) => (
            <option key={p.id} value={p.id}>{p.label}</option>
          ))}
        </select>
      </div>
      <label className="field">
        <span className="field-label">Base URL</span>
        <input type="url" aria-invalid={invalid === 'baseUrl' ? true : undefined} value={form.baseUrl} onChange={(e) => setForm({ ...form, baseUrl: e.target.value })} spellCheck={false} />
      </label>
      <label className="field">
        <span className="field-label">Model</span>
        <input type="text" aria-invalid={invalid === 'model' ? true : undefined} value={form.model} onChange={(e) => setForm({ ...form, model: e.target.value })} spellCheck={false} />
      </label>
      <label className="field">
        <span className="field-label">API key</span>
        <input
          type="password"
          aria-invalid={invalid === 'apiKey' ? true : undefined}
          ref={(el) => {
            // "Fix in settings" asked for the key: put the cursor in it.
            if (el && consumeKeyFocus()) el.focus()
          }}
          value={apiKey}
          autoComplete="off"
          onChange={(e) => setApiKey(e.target.value)}
          placeholder={hasKey ? 'a key is stored (leave empty to keep it)' : preset?.needsKey ? 'required by this provider' : 'optional'}
        />
      </label>
      {!hasKey && saved?.keyProblem && saved.provider === form.provider && (
        <p className="form-error key-note" role="alert">The stored key cannot be used: {saved.keyProblem}.</p>
      )}
      {hasKey && (
        <p className="muted key-note">
          A key is stored.{' '}
          <button type="button" className="link" onClick={() => void run('save', '')} disabled={busy !== null}>Forget the stored key</button>
        </p>
      )}
      <div className="row">
        <button type="button" onClick={() => void run('test')} disabled={busy !== null}>{busy === 'test' ? 'Testing…' : 'Test connection'}</button>
        {!inSection && <button type="submit" className="primary" disabled={busy !== null}>Save</button>}
      </div>
      {test && (
        <p className={test.ok ? 'test-result ok' : 'test-result failed'} role="status" aria-label="Connection test result">
          {test.message}
        </p>
      )}
      {message && <p className="muted" role="status">{message}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  )
}
