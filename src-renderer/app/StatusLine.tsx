// The bottom line: host version, the transport in use, and client plugins' status items.
import { StatusItems } from '../plugins/StatusItems'
import { useAppStore } from './app-store'

export function StatusLine() {
  const version = useAppStore((state) => state.status?.version)
  const transport = useAppStore((state) => state.transport)
  const statusError = useAppStore((state) => state.statusError)
  const lastError = useAppStore((state) => state.logs.findLast((record) => record.level === 'error'))
  return (
    <footer className="status-line" data-testid="status-line">
      <span>Seam {version ? `v${version}` : '…'}</span>
      <span>transport: {transport ?? '…'}</span>
      {statusError && <span className="form-error">{statusError}</span>}
      {lastError && (
        <span className="status-error" title={lastError.detail ?? lastError.message}>
          {lastError.plugin}: {lastError.message}
        </span>
      )}
      <span className="status-items">
        <StatusItems />
      </span>
    </footer>
  )
}
