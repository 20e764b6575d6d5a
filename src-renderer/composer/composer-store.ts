// The composer's draft, shared so others can put text back into it: a failed turn returns its
// prompt, and the command palette focuses it.
import { create } from 'zustand'

export interface ComposerState {
  draft: string
  /** Bumped to ask the message box to take focus. */
  focusRequest: number
}

export const useComposerStore = create<ComposerState>()(() => ({ draft: '', focusRequest: 0 }))

export const composerActions = {
  setDraft(draft: string): void {
    useComposerStore.setState({ draft })
  },
  /** Puts `text` back unless the user has already started typing something else. */
  restore(text: string): void {
    if (!useComposerStore.getState().draft.trim()) useComposerStore.setState({ draft: text })
  },
  focus(): void {
    useComposerStore.setState((state) => ({ focusRequest: state.focusRequest + 1 }))
  }
}
