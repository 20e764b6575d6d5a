// The exact hook commands a workspace declares, as the trust decision shows them: for an item
// that changed since it was approved, the old text above the new one.
import type { TrustPreview } from './trust-preview'

const STATUS_LABEL = { approved: 'approved', new: 'new', changed: 'changed' } as const

export function TrustCommands({ items, showStatus = false }: { items: TrustPreview['items']; showStatus?: boolean }) {
  if (items.length === 0) return <p className="muted">This workspace declares no hook commands or MCP servers.</p>
  return (
    <table className="trust-commands" aria-label="Workspace hook commands">
      <thead>
        <tr>
          <th>Source</th>
          <th>Event</th>
          <th>Command</th>
          <th>File</th>
          {showStatus && <th>Status</th>}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.hash}>
            <td>{item.source}</td>
            <td>{item.event}</td>
            <td>
              {item.status === 'changed' && item.previous !== undefined ? (
                <>
                  <div className="trust-old" aria-label="Approved before">was: <code>{item.previous}</code></div>
                  <div className="trust-new" aria-label="Now">now: <code>{item.command}</code></div>
                </>
              ) : (
                <code>{item.command}</code>
              )}
            </td>
            <td className="path">{item.file}</td>
            {showStatus && <td><span className={`badge ${item.status === 'approved' ? '' : 'warn'}`}>{STATUS_LABEL[item.status]}</span></td>}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
