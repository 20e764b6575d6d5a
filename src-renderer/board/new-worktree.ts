// "New session in a worktree" wherever sessions are started (the Board, the sidebar, the command
// palette): whether the window's workspace can have one (the host's reason when not, asked again
// when the workspace changes), and the dialog the sidebar and the palette open.
import { useEffect } from 'react'
import { create } from 'zustand'
import { useAppStore } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'

/** null: not known yet; otherwise available, or the reason it is not. */
export type WorktreeAvailability = { available: true } | { available: false; reason: string } | null

/** The last answer, for the workspace it was asked for: shared by the sidebar, the dialog and the Board. */
const useAvailabilityStore = create<{ workspace: string | null; value: WorktreeAvailability }>()(() => ({ workspace: null, value: null }))

export function useWorktreeAvailability(): WorktreeAvailability {
  const host = useHost()
  const workspace = useAppStore((state) => state.status?.workspace ?? null)
  const known = useAvailabilityStore((state) => (state.workspace === workspace ? state.value : null))
  useEffect(() => {
    let live = true
    const keep = (value: WorktreeAvailability) => live && useAvailabilityStore.setState({ workspace, value })
    host.invoke('worktrees/availability', {}).then(
      (answer) => keep(answer.available ? { available: true } : { available: false, reason: answer.reason }),
      (e: unknown) => keep({ available: false, reason: errorText(e) })
    )
    return () => {
      live = false
    }
  }, [host, workspace])
  return known
}

export const useNewWorktreeDialog = create<{ open: boolean }>()(() => ({ open: false }))

export const newWorktreeDialog = {
  open: (): void => useNewWorktreeDialog.setState({ open: true }),
  close: (): void => useNewWorktreeDialog.setState({ open: false })
}
