// Pending approval asks, in arrival order. The dialog shows the first; an answer here or a
// settlement elsewhere (cancelled, unavailable, answered by another window) removes it.
import { create } from 'zustand'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'

export interface ApprovalState {
  queue: ApprovalRequestPublic[]
  /** Ids answered or settled: a late `approval/pending` reply must not bring them back. */
  settled: ReadonlySet<string>
}

export const useApprovalStore = create<ApprovalState>()(() => ({ queue: [], settled: new Set() }))

export const approvalActions = {
  add(request: ApprovalRequestPublic): void {
    useApprovalStore.setState((state) => {
      if (state.settled.has(request.id) || state.queue.some((r) => r.id === request.id)) return state
      return { queue: [...state.queue, request] }
    })
  },
  /** After `approval/pending` (start, reconnect): the host's list is the truth, order kept. */
  replace(pending: readonly ApprovalRequestPublic[]): void {
    useApprovalStore.setState((state) => {
      const ids = new Set(pending.map((r) => r.id))
      const kept = state.queue.filter((r) => ids.has(r.id))
      const added = pending.filter((r) => !state.settled.has(r.id) && !kept.some((k) => k.id === r.id))
      return { queue: [...kept, ...added] }
    })
  },
  settle(requestId: string): void {
    useApprovalStore.setState((state) => ({
      queue: state.queue.filter((r) => r.id !== requestId),
      settled: new Set(state.settled).add(requestId)
    }))
  },
  reset(): void {
    useApprovalStore.setState({ queue: [], settled: new Set() })
  }
}
