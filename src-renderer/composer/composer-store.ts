// The composer's draft, shared so others can put text back into it: a failed turn returns its
// prompt, and the command palette focuses it.
import { create } from 'zustand'
import type { ImageAttachment } from '../../src-shared/session/attachments'

export interface ComposerState {
  draft: string
  /** Bumped to ask the message box to take focus. */
  focusRequest: number
  /** Images pasted, dropped or picked, sent with the next message. */
  images: ImageAttachment[]
}

export const useComposerStore = create<ComposerState>()(() => ({ draft: '', focusRequest: 0, images: [] }))

export const composerActions = {
  setDraft(draft: string): void {
    useComposerStore.setState({ draft })
  },
  /** Puts `text` back unless the user has already started typing something else. */
  restore(text: string): void {
    if (!useComposerStore.getState().draft.trim()) useComposerStore.setState({ draft: text })
  },
  setImages(images: ImageAttachment[]): void {
    useComposerStore.setState({ images })
  },
  removeImage(index: number): void {
    useComposerStore.setState((state) => ({ images: state.images.filter((_, i) => i !== index) }))
  },
  focus(): void {
    useComposerStore.setState((state) => ({ focusRequest: state.focusRequest + 1 }))
  }
}
