// The composed plugin tree (`config/dump`): base profile plus patch layers, and its error.
import { useHostQuery } from '../app/use-host-query'

export function PluginTree() {
  const { data: dump, error, reload: load } = useHostQuery('config/dump')
  return (
    <div className="plugin-tree">
      {dump?.error && <p className="form-error" role="alert">{dump.error}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {dump && <pre className="code-block" tabIndex={0} aria-label="Plugin tree">{dump.text}</pre>}
      <button type="button" className="link" onClick={() => void load()}>Refresh</button>
    </div>
  )
}
