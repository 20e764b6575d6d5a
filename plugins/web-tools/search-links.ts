// Titles and URLs out of a search tool's answer, for a backend that is not the provider's own
// search (an MCP server's tool): from its structured content when it has records with a URL,
// else from the text's Markdown links, `Title:`/`URL:` lines, or bare URLs.
import type { JsonValue } from '@seam/sdk'

export interface SearchLink {
  title: string
  url: string
}

export function linksIn(text: string, structured: JsonValue | undefined): SearchLink[] {
  const found: SearchLink[] = []
  if (structured !== undefined) collect(structured, found, 0)
  if (found.length === 0) found.push(...markdownLinks(text))
  if (found.length === 0) found.push(...labelledLinks(text))
  if (found.length === 0) for (const url of text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? []) found.push({ title: url, url })
  const seen = new Set<string>()
  return found.filter((link) => !seen.has(link.url) && (seen.add(link.url), true))
}

function collect(value: JsonValue, into: SearchLink[], depth: number): void {
  if (depth > 6 || value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const item of value) collect(item, into, depth + 1)
    return
  }
  const url = [value.url, value.link, value.href].find((v): v is string => typeof v === 'string' && /^https?:\/\//.test(v))
  if (url) {
    const title = [value.title, value.name].find((v): v is string => typeof v === 'string' && v.trim() !== '')
    into.push({ title: title?.trim() ?? url, url })
    return
  }
  for (const item of Object.values(value)) collect(item, into, depth + 1)
}

function markdownLinks(text: string): SearchLink[] {
  return [...text.matchAll(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g)].map((m) => ({ title: m[1]!.trim(), url: m[2]! }))
}

function labelledLinks(text: string): SearchLink[] {
  const links: SearchLink[] = []
  let title: string | undefined
  for (const line of text.split('\n')) {
    const t = /^\s*title:\s*(.+)$/i.exec(line)
    if (t) title = t[1]!.trim()
    const u = /^\s*(?:url|link):\s*(https?:\/\/\S+)/i.exec(line)
    if (u) {
      links.push({ title: title ?? u[1]!, url: u[1]! })
      title = undefined
    }
  }
  return links
}

/** Whether `url`'s host is `domain` or below it. */
export function inDomain(url: string, domain: string): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return false
  }
  const d = domain.toLowerCase().replace(/^\*\./, '').replace(/^https?:\/\//, '').replace(/\/.*$/, '')
  return host === d || host.endsWith(`.${d}`)
}
