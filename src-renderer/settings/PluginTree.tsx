// The composed plugin tree (plugins/tree) as a tree view: built-in entries and bundles, each with
// its state (failed with the reason), the layer that decided it, and the tools it registered; a
// switch per entry disables or enables it (written to the user's patch layer, applied live). The
// YAML of the whole tree (config/dump) is behind "View as YAML".
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { PluginTreeEntry } from '../../src-shared/contract/ipc'
import { isSafetyEntry } from '../../src-shared/host/safety-entries'
import { errorText } from '../app/errors'
import { SafetyConfirm } from '../app/SafetyConfirm'
import { useHost } from '../app/host-context'
import { useHostQuery } from '../app/use-host-query'
import { treeMove, type TreeNode } from './tree-nav'
import { ChevronDown, ChevronRight } from '../app/icons'

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

/** One visible row of the tree (it is rendered flat: levels and positions go in aria-level/setsize/posinset). */
interface Row extends TreeNode {
  level: number
  setsize: number
  posinset: number
  group?: { label: string; count: number }
  entry?: PluginTreeEntry
  tool?: string
}

function TreeView({ entries, onChanged }: { entries: readonly PluginTreeEntry[]; onChanged(): Promise<void> }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(GROUPS.map((g) => g.key)))
  const [active, setActive] = useState<string>(GROUPS[0].key)
  const items = useRef(new Map<string, HTMLLIElement>())
  const groups = GROUPS.map((group) => ({ ...group, entries: entries.filter((e) => e.kind === group.kind) })).filter((g) => g.entries.length > 0)

  const rows: Row[] = []
  groups.forEach((group, g) => {
    rows.push({ key: group.key, parent: null, branch: true, level: 1, setsize: groups.length, posinset: g + 1, group: { label: group.label, count: group.entries.length } })
    if (!open.has(group.key)) return
    group.entries.forEach((entry, e) => {
      const key = entryKey(entry)
      rows.push({ key, parent: group.key, branch: entry.tools.length > 0, level: 2, setsize: group.entries.length, posinset: e + 1, entry })
      if (!open.has(key)) return
      entry.tools.forEach((tool, t) => rows.push({ key: `${key}/tool:${tool}`, parent: key, branch: false, level: 3, setsize: entry.tools.length, posinset: t + 1, tool }))
    })
  })
  const current = rows.some((row) => row.key === active) ? active : (rows[0]?.key ?? '')

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    // Keys typed on a control inside an item (the switch) are that control's.
    if ((event.target as HTMLElement).getAttribute('role') !== 'treeitem') return
    const move = treeMove(rows, current, event.key, (key) => open.has(key))
    if (!move) return
    event.preventDefault()
    if ('focus' in move) {
      setActive(move.focus)
      items.current.get(move.focus)?.focus()
    } else {
      toggleOpen(move.expand, move.open)
    }
  }
  const toggleOpen = (key: string, value = !open.has(key)) => {
    const next = new Set(open)
    if (value) next.add(key)
    else next.delete(key)
    setOpen(next)
  }

  return (
    <ul role="tree" aria-label="Plugin tree" className="tree" onKeyDown={onKeyDown}>
      {rows.map((row) => (
        <li
          key={row.key}
          role="treeitem"
          aria-level={row.level}
          aria-setsize={row.setsize}
          aria-posinset={row.posinset}
          aria-expanded={row.branch ? open.has(row.key) : undefined}
          aria-selected={row.key === current}
          tabIndex={row.key === current ? 0 : -1}
          className={`tree-item level-${row.level}${row.entry ? ` state-${row.entry.state}` : ''}`}
          ref={(el) => {
            if (el) items.current.set(row.key, el)
            else items.current.delete(row.key)
          }}
          onFocus={(event) => {
            if (event.target === event.currentTarget) setActive(row.key)
          }}
        >
          {row.group && (
            <div className="tree-line" onClick={() => toggleOpen(row.key)}>
              <Twisty open={open.has(row.key)} />
              <strong>{row.group.label}</strong> <span className="muted">({row.group.count})</span>
            </div>
          )}
          {row.entry && (
            <EntryLine entry={row.entry} open={open.has(row.key)} tabbable={row.key === current} onToggleOpen={() => toggleOpen(row.key)} onChanged={onChanged} />
          )}
          {row.tool && (
            <div className="tree-line"><span className="twisty" aria-hidden="true" /><code>{row.tool}</code> <span className="muted small">tool</span></div>
          )}
        </li>
      ))}
    </ul>
  )
}

function EntryLine({ entry, open, tabbable, onToggleOpen, onChanged }: {
  entry: PluginTreeEntry
  open: boolean
  tabbable: boolean
  onToggleOpen(): void
  onChanged(): Promise<void>
}) {
  const host = useHost()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const enabled = entry.state !== 'disabled'
  const toggle = async () => {
    setBusy(true)
    setError(null)
    try {
      await host.invoke(enabled ? 'plugins/disable' : 'plugins/enable', { name: entry.id })
    } catch (e) {
      setError(errorText(e))
      throw e
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
        <strong>{entry.id}</strong>
        <span className="tree-state">
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
            if (enabled && isSafetyEntry(entry.id)) setConfirming(true)
            else void toggle().catch(() => undefined)
          }}
        >
          {enabled ? 'On' : 'Off'}
        </button>
      </div>
      {confirming && <SafetyConfirm id={entry.id} onConfirm={toggle} onClose={() => setConfirming(false)} />}
      {entry.error && <p className="small form-error tree-detail">{entry.error}</p>}
      {error && <p className="small form-error tree-detail" role="alert">{error}</p>}
    </>
  )
}

function Twisty({ open }: { open: boolean }) {
  return <span className="twisty" aria-hidden="true">{open ? <ChevronDown className="icon-inline" /> : <ChevronRight className="icon-inline" />}</span>
}

function entryKey(entry: PluginTreeEntry): string {
  return `entry:${entry.id}`
}
