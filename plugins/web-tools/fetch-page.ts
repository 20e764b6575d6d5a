// One WebFetch download with Node's own HTTP client: redirects followed only within the same host
// (another host ends the fetch and is reported, so the model can fetch it itself, and so can its
// permission rule be checked), every connection to a checked address (address-policy.ts), a
// deadline for the whole fetch and a cap on the body, decompressed bytes counted.
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import zlib from 'node:zlib'
import { PrivateAddressError, guardedLookup, isNonPublicAddress } from './address-policy'

export interface FetchOptions {
  allowPrivateAddresses: boolean
  maxBytes: number
  maxRedirects: number
  timeoutMs: number
  userAgent: string
  signal?: AbortSignal
}

export interface FetchedPage {
  /** The URL the body came from (after same-host redirects). */
  url: string
  status: number
  statusText: string
  /** The response's Content-Type header ('' when absent). */
  contentType: string
  body: Buffer
}

export type FetchOutcome = { kind: 'page'; page: FetchedPage } | { kind: 'redirect'; from: string; to: string; status: number; statusText: string }

/** A fetch that failed in a way the model should read as such (the tool answers it as an error). */
export class WebFetchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WebFetchError'
  }
}

/** Claude Code lets a redirect through when only a leading `www.` differs; anything else is another host. */
export function isSameHostRedirect(from: URL, to: URL): boolean {
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false
  if (to.username || to.password) return false
  if (from.port !== to.port && !(to.protocol === 'https:' && from.protocol === 'http:' && to.port === '')) return false
  const bare = (host: string) => host.replace(/^www\./i, '').toLowerCase()
  return bare(from.hostname) === bare(to.hostname)
}

export async function fetchPage(start: URL, options: FetchOptions): Promise<FetchOutcome> {
  const deadline = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline
  let url = start
  try {
    for (let hop = 0; ; hop++) {
      const response = await request(url, options, signal)
      const location = response.headers.location
      if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.resume()
        let next: URL
        try {
          next = new URL(location, url)
        } catch {
          throw new WebFetchError(`${url.href} redirects to an address that is not a URL: ${location}`)
        }
        const status = response.statusCode
        const statusText = response.statusMessage ?? ''
        if (!isSameHostRedirect(url, next)) return { kind: 'redirect', from: url.href, to: next.href, status, statusText }
        if (hop >= options.maxRedirects) throw new WebFetchError(`${start.href} redirected more than ${options.maxRedirects} times (last to ${next.href})`)
        url = next
        continue
      }
      const body = await readBody(response, options.maxBytes, url)
      return {
        kind: 'page',
        page: { url: url.href, status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', contentType: String(response.headers['content-type'] ?? ''), body }
      }
    }
  } catch (error) {
    throw explain(error, url, options, deadline)
  }
}

function request(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  // An IP literal is never looked up: check it here.
  if (isIP(literal) !== 0 && !options.allowPrivateAddresses && isNonPublicAddress(literal)) return Promise.reject(new PrivateAddressError(literal, literal))
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET',
      signal,
      // A connection of its own, closed after the page: a pooled keep-alive socket the server
      // closed while it sat idle (a long conversion) fails the next fetch with ECONNRESET.
      agent: false,
      lookup: guardedLookup(options.allowPrivateAddresses),
      headers: {
        'user-agent': options.userAgent,
        // Markdown first, then HTML (Claude Code's preference).
        accept: 'text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5',
        'accept-encoding': 'gzip, deflate, br'
      }
    })
    req.once('response', resolve)
    req.once('error', reject)
    req.end()
  })
}

function readBody(response: IncomingMessage, maxBytes: number, url: URL): Promise<Buffer> {
  const declared = Number(response.headers['content-length'])
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase()
  if (Number.isFinite(declared) && declared > maxBytes && encoding === '') {
    response.destroy()
    return Promise.reject(tooLarge(url, maxBytes, declared))
  }
  const stream = encoding === 'gzip' || encoding === 'x-gzip' ? response.pipe(zlib.createGunzip()) : encoding === 'deflate' ? response.pipe(zlib.createInflate()) : encoding === 'br' ? response.pipe(zlib.createBrotliDecompress()) : response
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    // The first failure is the one said: destroying the response then reports its own.
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      reject(error)
      response.destroy()
      if (stream !== response) stream.destroy()
    }
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) return fail(tooLarge(url, maxBytes))
      chunks.push(chunk)
    })
    stream.once('end', () => {
      settled = true
      resolve(Buffer.concat(chunks))
    })
    stream.once('error', (error) => fail(error))
    response.once('error', (error) => fail(error))
    response.once('aborted', () => fail(new WebFetchError(`${url.href}: the connection closed before the whole page arrived`)))
  })
}

function tooLarge(url: URL, maxBytes: number, declared?: number): WebFetchError {
  const size = declared !== undefined ? ` (${megabytes(declared)})` : ''
  return new WebFetchError(`${url.href} is larger than WebFetch reads${size}: the limit is ${megabytes(maxBytes)} (the web-tools setting maxBytes)`)
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`
}

const TLS_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH)/

/** Turns what Node threw into a sentence naming the URL and what went wrong. */
function explain(error: unknown, url: URL, options: FetchOptions, deadline: AbortSignal): Error {
  if (error instanceof WebFetchError) return error
  if (error instanceof PrivateAddressError) return new WebFetchError(`Refused to fetch ${url.href}: ${error.message}`)
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : ''
  const message = (error as Error)?.message ?? String(error)
  if (deadline.aborted) return new WebFetchError(`${url.href} did not answer within ${options.timeoutMs / 1000} s (the web-tools setting timeoutMs)`)
  if (options.signal?.aborted || code === 'ABORT_ERR') return new WebFetchError(`The fetch of ${url.href} was cancelled`)
  if (TLS_CODES.test(code)) return new WebFetchError(`TLS error fetching ${url.href}: ${message} (${code})`)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new WebFetchError(`${url.hostname} was not found (DNS: ${code})`)
  if (code === 'ECONNREFUSED') return new WebFetchError(`${url.host} refused the connection`)
  if (code === 'ECONNRESET' || code === 'EPIPE') return new WebFetchError(`${url.host} closed the connection (${code})`)
  if (code === 'Z_DATA_ERROR' || code === 'ERR__ERROR_FORMAT_PADDING_1') return new WebFetchError(`${url.href} sent a body that does not decompress: ${message}`)
  return new WebFetchError(`Fetching ${url.href} failed: ${message}${code ? ` (${code})` : ''}`)
}
