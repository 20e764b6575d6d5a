// Whether the user asked to see the tasks panel (the palette's "Background tasks", `/tasks` in the
// message box). The panel shows by itself once the session has a task; asked for before that, it
// shows its empty state: what appears there and how to start one.
import { create } from 'zustand'

export const useTasksPanelStore = create<{ asked: boolean }>()(() => ({ asked: false }))

export const tasksPanelActions = {
  show(): void {
    useTasksPanelStore.setState({ asked: true })
  },
  hide(): void {
    useTasksPanelStore.setState({ asked: false })
  },
  toggle(): void {
    useTasksPanelStore.setState((state) => ({ asked: !state.asked }))
  }
}
