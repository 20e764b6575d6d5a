// The composed plugin tree (`config/dump`): base profile plus patch layers, and its error.
import { useCallback, useEffect, useState } from 'react'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'

export function PluginTree() {
  const host = useHost()
  const [dump, setDump] = useState<MethodOutput<'config/dump'> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setDump(await host.invoke('config/dump', {}))
      setError(null)
    } catch (e) {
      setError(errorText(e))
    }
  }, [host])
  useEffect(() => {
    void load()
  }, [load])
  return (
    <div className="plugin-tree">
      {dump?.error && <p className="form-error" role="alert">{dump.error}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {dump && <pre className="code-block" aria-label="Plugin tree">{dump.text}</pre>}
      <button type="button" className="link" onClick={() => void load()}>Refresh</button>
    </div>
  )
}
