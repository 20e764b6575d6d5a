// A plugin's components as counts ("2 commands, 1 hook"), each group's names one click away.
export interface ComponentGroup {
  /** Singular and plural, e.g. ['command', 'commands']. */
  label: readonly [string, string]
  names: readonly string[]
}

export function countText(group: ComponentGroup): string {
  return `${group.names.length} ${group.names.length === 1 ? group.label[0] : group.label[1]}`
}

export function ComponentCounts({ plugin, groups }: { plugin: string; groups: readonly ComponentGroup[] }) {
  const present = groups.filter((g) => g.names.length > 0)
  if (present.length === 0) return <span className="muted">none</span>
  return (
    <details className="plugin-components">
      <summary aria-label={`Components of ${plugin}: ${present.map(countText).join(', ')}`}>{present.map(countText).join(', ')}</summary>
      <dl>
        {present.map((group) => (
          <div key={group.label[1]} className="plugin-component-group">
            <dt>{group.label[1]}</dt>
            {group.names.map((name) => (
              <dd key={name} className="path small">{name}</dd>
            ))}
          </div>
        ))}
      </dl>
    </details>
  )
}
