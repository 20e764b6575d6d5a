// Settings' one save model: every section saves as one form. The editable parts of a section
// (the provider form, each model row, the approval mode, the limits…) hold a draft and register
// here with `useDraftPart`; the section's one Save bar says when something is unsaved and saves
// every changed part (each through its zod-validated host method, each showing its own error
// next to its fields). Actions that are not settings values (Trust, Revoke, Restart, a plugin's
// switch) act at once, as buttons named for what they do.
import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react'

export interface DraftPart {
  /** The draft differs from what is saved. */
  dirty: boolean
  /** Writes the draft; false when it was refused (the part shows why). */
  save(): Promise<boolean>
  /** Back to what is saved. */
  discard(): void
}

interface Registry {
  add(id: string, part: { current: DraftPart }): () => void
  setDirty(id: string, dirty: boolean): void
  saveAll(): Promise<void>
}

const SectionFormContext = createContext<Registry | null>(null)

/**
 * Registers an editable part with the section around it. Returns whether there is one: outside
 * Settings (the first-run setup screen) the part keeps a Save button of its own.
 */
export function useDraftPart(part: DraftPart): { inSection: boolean; saveSection(): void } {
  const registry = useContext(SectionFormContext)
  const id = useId()
  const ref = useRef(part)
  ref.current = part
  useEffect(() => registry?.add(id, ref), [registry, id])
  useEffect(() => registry?.setDirty(id, part.dirty), [registry, id, part.dirty])
  return { inSection: registry !== null, saveSection: () => void registry?.saveAll() }
}

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; count: number }

export interface SectionFormHandle {
  dirty: boolean
  state: SaveState
  /** Whether any part registered (a section of actions only shows no Save bar). */
  editable: boolean
  save(): Promise<void>
  discard(): void
}

/** The form state of one section, and the provider its parts register with. */
export function useSectionForm(): { handle: SectionFormHandle; Provider: (props: { children: ReactNode }) => ReactNode } {
  const parts = useRef(new Map<string, { current: DraftPart }>())
  const [dirtyIds, setDirtyIds] = useState<ReadonlySet<string>>(new Set())
  const [count, setCount] = useState(0)
  const [state, setState] = useState<SaveState>({ kind: 'idle' })

  const save = useCallback(async () => {
    setState({ kind: 'saving' })
    let failed = 0
    // In the order the parts appear; each shows its own error, the others still save.
    for (const part of parts.current.values()) {
      if (part.current.dirty && !(await part.current.save())) failed++
    }
    setState(failed === 0 ? { kind: 'saved' } : { kind: 'failed', count: failed })
  }, [])

  const registry = useMemo<Registry>(
    () => ({
      add(id, part) {
        parts.current.set(id, part)
        setCount(parts.current.size)
        return () => {
          parts.current.delete(id)
          setCount(parts.current.size)
          setDirtyIds((ids) => without(ids, id))
        }
      },
      setDirty(id, dirty) {
        setDirtyIds((ids) => (dirty ? (ids.has(id) ? ids : new Set([...ids, id])) : without(ids, id)))
        if (dirty) setState((s) => (s.kind === 'saved' ? { kind: 'idle' } : s))
      },
      saveAll: save
    }),
    [save]
  )

  const discard = useCallback(() => {
    for (const part of parts.current.values()) part.current.discard()
    setState({ kind: 'idle' })
  }, [])

  const Provider = useMemo(() => {
    function SectionFormProvider({ children }: { children: ReactNode }) {
      return <SectionFormContext.Provider value={registry}>{children}</SectionFormContext.Provider>
    }
    return SectionFormProvider
  }, [registry])

  return { handle: { dirty: dirtyIds.size > 0, state, editable: count > 0, save, discard }, Provider }
}

function without(ids: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (!ids.has(id)) return ids
  const next = new Set(ids)
  next.delete(id)
  return next
}

/** The section's one Save bar: what is unsaved, Save, Discard, and how the save went. */
export function SaveBar({ title, form }: { title: string; form: SectionFormHandle }) {
  if (!form.editable) return null
  const { dirty, state } = form
  const text =
    state.kind === 'saving' ? 'Saving…'
    : state.kind === 'failed' ? `Not saved: ${state.count === 1 ? 'one part was' : `${state.count} parts were`} refused (see the message beside it)`
    : dirty ? 'Unsaved changes'
    : state.kind === 'saved' ? 'All changes saved'
    : 'No changes'
  return (
    <div className={`settings-save-bar${dirty ? ' dirty' : ''}`} role="group" aria-label={`Save ${title}`}>
      <span role="status" aria-label="Save state" className={state.kind === 'failed' ? 'form-error' : 'muted'}>{text}</span>
      <button type="button" disabled={!dirty || state.kind === 'saving'} onClick={form.discard}>Discard changes</button>
      <button type="button" className="primary" disabled={!dirty || state.kind === 'saving'} onClick={() => void form.save()}>Save</button>
    </div>
  )
}
