// The exact hook commands a workspace declares, as the trust decision shows them.
import type { TrustPreview } from './trust-preview'

export function TrustCommands({ items }: { items: TrustPreview['items'] }) {
  if (items.length === 0) return <p className="muted">This workspace declares no hook commands or MCP servers.</p>
  return (
    <table className="trust-commands" aria-label="Workspace hook commands">
      <thead>
        <tr><th>Source</th><th>Event</th><th>Command</th><th>File</th></tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          <tr key={i}>
            <td>{item.source}</td>
            <td>{item.event}</td>
            <td><code>{item.command}</code></td>
            <td className="path">{item.file}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
