// What the window and the highlighter worker say to each other.
import type { CodeToken } from './languages'

export interface HighlightRequest {
  id: number
  code: string
  language: string
}

export type HighlightReply = { id: number; lines: CodeToken[][] | null } | { id: number; error: string }
