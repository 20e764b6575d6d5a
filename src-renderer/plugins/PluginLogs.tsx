// Recent log records from plugins (logs/recent + the `log` push), newest first.
import { useAppStore } from '../app/app-store'

export function PluginLogs() {
  const logs = useAppStore((state) => state.logs)
  if (logs.length === 0) return <p className="muted">Nothing logged.</p>
  return (
    <ul className="log-list" aria-label="Plugin log">
      {[...logs].reverse().slice(0, 100).map((record, i) => (
        <li key={i} className={`log-${record.level}`}>
          <span className="muted">{new Date(record.time).toLocaleTimeString()}</span> <span className="log-level">{record.level}</span>{' '}
          <strong>{record.plugin}</strong> {record.message}
          {record.detail && <pre className="code-block small">{record.detail}</pre>}
        </li>
      ))}
    </ul>
  )
}
