// The composed plugin tree (plugins/tree) as a tree view: built-in entries and bundles, each with
// its state (failed with the reason), the layer that decided it, and the tools it registered; a
// switch per entry disables or enables it (written to the user's patch layer, applied live). The
// YAML of the whole tree (config/dump) is behind "View as YAML".
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { PluginTreeEntry } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useHostQuery } from '../app/use-host-query'
import { treeMove, type TreeNode } from './tree-nav'

const GROUPS: Array<{ key: string; label: string; kind: PluginTreeEntry['kind'] }> = [
  { key: 'group:builtin', label: 'Built-in', kind: 'builtin' },
  { key: 'group:bundle', label: 'Bundles', kind: 'bundle' }
]

const STATE_TEXT: Record<PluginTreeEntry['state'], string> = { active: 'loaded', waiting: 'waiting', failed: 'failed', disabled: 'disabled' }

const LAYER_TEXT: Record<PluginTreeEntry['layer'], string> = {
  base: 'built-in profile',
  bundle: 'installed bundle',
  user: 'your patch file',
  workspace: "the workspace's patch file",
  file: 'the --patch file'
}

export function PluginTree() {
  const host = useHost()
  const { data, error, reload } = useHostQuery('plugins/tree')
  const [yaml, setYaml] = useState(false)
  useEffect(() => host.on('plugins/changed', () => void reload()), [host, reload])

  return (
    <div className="plugin-tree">
      <div className="row">
        <button type="button" aria-pressed={yaml} onClick={() => setYaml(!yaml)}>View as YAML</button>
        <button type="button" className="link" onClick={() => void reload()}>Refresh</button>
      </div>
      {data?.error && <p className="form-error" role="alert">{data.error}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {yaml ? <TreeYaml /> : data && <TreeView entries={data.entries} onChanged={reload} />}
      {data && (
        <p className="muted small">
          Switching an entry off or on writes a row to <code className="path">{data.userLayer}</code>; it applies at once and after a restart.
        </p>
      )}
    </div>
  )
}

function TreeYaml() {
  const { data: dump, error } = useHostQuery('config/dump')
  return (
    <>
      {dump?.error && <p className="form-error" role="alert">{dump.error}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {dump && <pre className="code-block" tabIndex={0} aria-label="Plugin tree as YAML">{dump.text}</pre>}
    </>
  )
}

function TreeView({ entries, onChanged }: { entries: readonly PluginTreeEntry[]; onChanged(): Promise<void> }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(GROUPS.map((g) => g.key)))
  const [active, setActive] = useState<string>(GROUPS[0].key)
  const items = useRef(new Map<string, HTMLLIElement>())
  const groups = GROUPS.map((group) => ({ ...group, entries: entries.filter((e) => e.kind === group.kind) })).filter((g) => g.entries.length > 0)

  const visible: TreeNode[] = []
  for (const group of groups) {
    visible.push({ key: group.key, parent: null, branch: true })
    if (!open.has(group.key)) continue
    for (const entry of group.entries) {
      const key = entryKey(entry)
      visible.push({ key, parent: group.key, branch: entry.tools.length > 0 })
      if (open.has(key)) for (const tool of entry.tools) visible.push({ key: `${key}/tool:${tool}`, parent: key, branch: false })
    }
  }
  const current = visible.some((node) => node.key === active) ? active : (visible[0]?.key ?? '')

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    // Keys typed on a control inside an item (the switch) are that control's.
    if ((event.target as HTMLElement).getAttribute('role') !== 'treeitem') return
    const move = treeMove(visible, current, event.key, (key) => open.has(key))
    if (!move) return
    event.preventDefault()
    if ('focus' in move) {
      setActive(move.focus)
      items.current.get(move.focus)?.focus()
    } else {
      const next = new Set(open)
      if (move.open) next.add(move.expand)
      else next.delete(move.expand)
      setOpen(next)
    }
  }

  const itemProps = (key: string, level: number, branch: boolean) => ({
    role: 'treeitem' as const,
    'aria-level': level,
    'aria-expanded': branch ? open.has(key) : undefined,
    'aria-selected': key === current,
    tabIndex: key === current ? 0 : -1,
    ref: (el: HTMLLIElement | null) => {
      if (el) items.current.set(key, el)
      else items.current.delete(key)
    },
    onFocus: (event: { target: EventTarget; currentTarget: EventTarget }) => {
      if (event.target === event.currentTarget) setActive(key)
    }
  })
  const toggleOpen = (key: string) => {
    const next = new Set(open)
    if (next.has(key)) next.delete(key)
    else next.add(key)
    setOpen(next)
  }

  return (
    <ul role="tree" aria-label="Plugin tree" className="tree" onKeyDown={onKeyDown}>
      {groups.map((group) => (
        <li key={group.key} {...itemProps(group.key, 1, true)} aria-label={`${group.label} (${group.entries.length})`} className="tree-item">
          <div className="tree-line" onClick={() => toggleOpen(group.key)}>
            <Twisty open={open.has(group.key)} />
            <strong>{group.label}</strong> <span className="muted">({group.entries.length})</span>
          </div>
          {open.has(group.key) && (
            <ul role="group">
              {group.entries.map((entry) => {
                const key = entryKey(entry)
                return (
                  <li key={key} {...itemProps(key, 2, entry.tools.length > 0)} aria-labelledby={`${key}-name`} aria-describedby={`${key}-state`} className={`tree-item state-${entry.state}`}>
                    <EntryLine entry={entry} id={key} open={open.has(key)} tabbable={key === current} onToggleOpen={() => toggleOpen(key)} onChanged={onChanged} />
                    {open.has(key) && entry.tools.length > 0 && (
                      <ul role="group">
                        {entry.tools.map((tool) => (
                          <li key={tool} {...itemProps(`${key}/tool:${tool}`, 3, false)} aria-label={`Tool ${tool}`} className="tree-item">
                            <div className="tree-line"><span className="twisty" aria-hidden="true" /><code>{tool}</code> <span className="muted small">tool</span></div>
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                )
              })}
            </ul>
          )}
        </li>
      ))}
    </ul>
  )
}

function EntryLine({ entry, id, open, tabbable, onToggleOpen, onChanged }: {
  entry: PluginTreeEntry
  id: string
  open: boolean
  tabbable: boolean
  onToggleOpen(): void
  onChanged(): Promise<void>
}) {
  const host = useHost()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const enabled = entry.state !== 'disabled'
  const toggle = async () => {
    setBusy(true)
    setError(null)
    try {
      await host.invoke(enabled ? 'plugins/disable' : 'plugins/enable', { name: entry.id })
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
      await onChanged()
    }
  }
  const where = `from ${LAYER_TEXT[entry.layer]}${entry.layer === 'base' ? '' : ` (${entry.origin})`}`
  return (
    <>
      <div className="tree-line" onClick={entry.tools.length > 0 ? onToggleOpen : undefined}>
        {entry.tools.length > 0 ? <Twisty open={open} /> : <span className="twisty" aria-hidden="true" />}
        <strong id={`${id}-name`}>{entry.id}</strong>
        <span id={`${id}-state`} className="tree-state">
          <span className={`badge plugin-${entry.state}`}>{STATE_TEXT[entry.state]}</span>{' '}
          <span className="muted small">
            {where}
            {entry.tools.length > 0 && ` · ${entry.tools.length} ${entry.tools.length === 1 ? 'tool' : 'tools'}`}
            {entry.missing.length > 0 && ` · waiting for ${entry.missing.join(', ')}`}
          </span>
        </span>
        <button
          type="button"
          role="switch"
          className="tree-switch"
          aria-checked={enabled}
          aria-label={`${entry.id} enabled`}
          tabIndex={tabbable ? 0 : -1}
          disabled={busy}
          onClick={(event) => {
            event.stopPropagation()
            void toggle()
          }}
        >
          {enabled ? 'On' : 'Off'}
        </button>
      </div>
      {entry.error && <p className="small form-error tree-detail">{entry.error}</p>}
      {error && <p className="small form-error tree-detail" role="alert">{error}</p>}
    </>
  )
}

function Twisty({ open }: { open: boolean }) {
  return <span className="twisty" aria-hidden="true">{open ? '▾' : '▸'}</span>
}

function entryKey(entry: PluginTreeEntry): string {
  return `entry:${entry.id}`
}
