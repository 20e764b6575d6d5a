// A fetched body as text the model can read: HTML becomes Markdown (turndown), Markdown and other
// text pass as they are, anything binary is refused with a clear error.
import type TurndownService from 'turndown'
import { WebFetchError, type FetchedPage } from './fetch-page'

export interface PageText {
  markdown: string
  /** How the body was read: converted from HTML, or passed through as text. */
  from: 'html' | 'text'
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ecmascript|x-javascript|ld\+json|rss\+xml|atom\+xml|x-yaml|yaml|toml|x-sh|sql|graphql)$|application\/[\w.+-]+\+(json|xml)$)/
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)$/

/** One converter, made once (building turndown's rules is the costly part), loaded on first use (start-up cost). */
let converter: Promise<TurndownService> | undefined
function turndown(): Promise<TurndownService> {
  converter ??= import('turndown').then(({ default: Turndown }) => {
    const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
    // Nothing a reader sees: scripts, styles, embedded frames and forms' machinery.
    service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'head', 'title'])
    // svg is not in the HTML tag map turndown's types take; a filter function removes it the same way.
    service.remove((node) => node.nodeName.toLowerCase() === 'svg')
    return service
  })
  return converter
}

export async function pageText(page: FetchedPage): Promise<PageText> {
  const mediaType = page.contentType.split(';')[0]!.trim().toLowerCase()
  const known = mediaType !== ''
  if (known && !TEXT_TYPES.test(mediaType)) {
    throw new WebFetchError(`${page.url} is ${mediaType}, not a page of text or HTML: WebFetch reads HTML and text only`)
  }
  if (!known && looksBinary(page.body)) throw new WebFetchError(`${page.url} sent a binary body (no Content-Type): WebFetch reads HTML and text only`)
  const text = decode(page.body, charsetOf(page.contentType))
  if (HTML_TYPES.test(mediaType) || (!known && /^\s*</.test(text))) return { markdown: await htmlToMarkdown(text), from: 'html' }
  return { markdown: text, from: 'text' }
}

export async function htmlToMarkdown(html: string): Promise<string> {
  return (await turndown()).turndown(html).trim()
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
