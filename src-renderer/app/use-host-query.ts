// Calls a host method with no input when the component mounts (and when `deps` change), keeping
// the last answer and the last error; `reload()` asks again.
import { useCallback, useEffect, useState } from 'react'
import type { MethodInput, MethodName, MethodOutput } from '../../src-shared/contract/ipc'
import { errorText } from './errors'
import { useHost } from './host-context'

type NoInputMethod = { [M in MethodName]: Record<string, never> extends MethodInput<M> ? M : never }[MethodName]

export function useHostQuery<M extends NoInputMethod>(
  method: M,
  deps: readonly unknown[] = []
): { data: MethodOutput<M> | null; error: string | null; setError(error: string | null): void; reload(): Promise<void> } {
  const host = useHost()
  const [data, setData] = useState<MethodOutput<M> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const reload = useCallback(async () => {
    try {
      setData(await host.invoke(method, {} as never))
      setError(null)
    } catch (e) {
      setError(errorText(e))
    }
  }, [host, method])
  useEffect(() => {
    void reload()
  }, [reload, ...deps])
  return { data, error, setError, reload }
}
