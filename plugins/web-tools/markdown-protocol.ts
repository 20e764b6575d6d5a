// The messages between the host and the converter worker (types only: nothing here is bundled twice).

export interface ConversionRequest {
  id: number
  html: string
  /** Markdown characters WebFetch can use; the page is cut once its visible text passes them. */
  maxChars: number
}

export type ConversionReply = { id: number; ok: true; markdown: string; complete: boolean } | { id: number; ok: false; error: string }
