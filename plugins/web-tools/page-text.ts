// A fetched body as text the model can read: HTML becomes Markdown (in the converter worker,
// markdown-converter.ts), Markdown and other text pass as they are, anything binary is refused
// with a clear error.
import { WebFetchError, type FetchedPage } from './fetch-page'
import { ConversionError, type MarkdownConverter } from './markdown-converter'

export interface PageText {
  markdown: string
  /** How the body was read: converted from HTML, or passed through as text. */
  from: 'html' | 'text'
  /** False when only the page's first part was converted (its visible text went past what WebFetch uses). */
  complete: boolean
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ecmascript|x-javascript|ld\+json|rss\+xml|atom\+xml|x-yaml|yaml|toml|x-sh|sql|graphql)$|application\/[\w.+-]+\+(json|xml)$)/
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)$/

export interface PageTextOptions {
  converter: MarkdownConverter
  /** Markdown characters the caller can use at most. */
  maxChars: number
  signal?: AbortSignal
}

export async function pageText(page: FetchedPage, { converter, maxChars, signal }: PageTextOptions): Promise<PageText> {
  const mediaType = page.contentType.split(';')[0]!.trim().toLowerCase()
  const known = mediaType !== ''
  if (known && !TEXT_TYPES.test(mediaType)) {
    throw new WebFetchError(`${page.url} is ${mediaType}, not a page of text or HTML: WebFetch reads HTML and text only`)
  }
  if (!known && looksBinary(page.body)) throw new WebFetchError(`${page.url} sent a binary body (no Content-Type): WebFetch reads HTML and text only`)
  const text = decode(page.body, charsetOf(page.contentType))
  if (!HTML_TYPES.test(mediaType) && (known || !/^\s*</.test(text))) return { markdown: text, from: 'text', complete: true }
  try {
    const { markdown, complete } = await converter.convert(text, maxChars, signal)
    return { markdown, from: 'html', complete }
  } catch (error) {
    if (error instanceof ConversionError) throw new WebFetchError(`${page.url}: ${error.message}`)
    throw error
  }
}

function charsetOf(contentType: string): string {
  const match = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType)
  return match?.[1] ?? 'utf-8'
}

function decode(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body)
  } catch {
    // An encoding TextDecoder does not know: read it as UTF-8 rather than fail.
    return new TextDecoder('utf-8').decode(body)
  }
}

function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 4096).includes(0)
}
