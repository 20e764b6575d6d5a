// A settings form's saved values and the user's draft of them, read once from the host's settings
// (`settings/get`); a failed read is the form's error. `keep` takes what `settings/set` answered.
import { useEffect, useState } from 'react'
import type { Settings } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'

export type FormError = { field: string | undefined; text: string }

export function useSettingsDraft<T>(read: (settings: Settings) => T) {
  const host = useHost()
  const [saved, setSaved] = useState<T | null>(null)
  const [draft, setDraft] = useState<T | null>(null)
  const [error, setError] = useState<FormError | null>(null)
  const keep = (values: T) => {
    setSaved(values)
    setDraft(values)
  }

  useEffect(() => {
    let live = true
    host.invoke('settings/get', {}).then(
      (settings) => {
        if (live) keep(read(settings))
      },
      (e: unknown) => live && setError({ field: undefined, text: errorText(e) })
    )
    return () => {
      live = false
    }
    // `read` is a module-level function in every form: the settings are read once per host.
  }, [host])

  return { host, saved, draft, setDraft, keep, error, setError }
}
