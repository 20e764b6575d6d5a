// The `archive` plugin source (Claude Code v2.1.224): a zip on an HTTPS server, checked against
// its `sha256`, at most 256 MiB and 20,000 entries. Downloaded with Node's own HTTPS client
// (redirects followed, each hop HTTPS), streamed to a file beside `dest` with the cap applied as
// bytes arrive, hashed on the way, then unpacked with yauzl into `dest` (a staging folder the
// install renames into the cache, so a refusal leaves nothing there). Entries that would land
// outside `dest` (`..`, absolute paths, symlinks pointing out) are refused, as is an archive whose
// inflated size passes the cap.
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { get } from 'node:https'
import { dirname, isAbsolute, join, posix, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { isWithin } from '@seam/sdk/node'
import type { Entry, ZipFile } from 'yauzl'
import { PluginManagerError } from './sources'

export const ARCHIVE_MAX_BYTES = 256 * 1024 * 1024
export const ARCHIVE_MAX_ENTRIES = 20_000
const MAX_REDIRECTS = 5

export interface ArchiveLimits {
  maxBytes: number
  maxEntries: number
}

const DEFAULT_LIMITS: ArchiveLimits = { maxBytes: ARCHIVE_MAX_BYTES, maxEntries: ARCHIVE_MAX_ENTRIES }

/** Downloads the zip at `url` into `dest` (which must not exist); `sha256`, when given, must match the file. */
export async function fetchArchive(url: string, sha256: string | undefined, dest: string, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<void> {
  const zip = `${dest}.zip`
  try {
    const actual = await download(url, zip, limits.maxBytes)
    if (sha256 !== undefined && actual !== sha256.toLowerCase()) {
      throw new PluginManagerError(`archive ${url}: sha256: expected ${sha256.toLowerCase()}, the file has ${actual}; nothing installed`)
    }
    const unpacked = `${dest}.unpacked`
    try {
      await unzip(zip, unpacked, url, limits)
      renameSync(singleTopFolder(unpacked) ?? unpacked, dest)
    } finally {
      rmSync(unpacked, { recursive: true, force: true })
    }
  } finally {
    rmSync(zip, { force: true })
  }
}

/** Streams `url` into `file`, following redirects; returns the file's sha256 (hex). */
async function download(url: string, file: string, maxBytes: number): Promise<string> {
  let response: IncomingMessage | undefined
  let current = url
  for (let hop = 0; response === undefined; hop++) {
    const parsed = parseHttps(current, url)
    const answer = await request(parsed, url)
    const status = answer.statusCode ?? 0
    if (status >= 300 && status < 400 && answer.headers.location) {
      answer.resume()
      if (hop >= MAX_REDIRECTS) throw new PluginManagerError(`archive ${url}: more than ${MAX_REDIRECTS} redirects`)
      current = new URL(answer.headers.location, parsed).toString()
      continue
    }
    if (status !== 200) {
      answer.resume()
      throw new PluginManagerError(`archive ${url}: HTTP ${status}${current !== url ? ` (from ${current})` : ''}`)
    }
    response = answer
  }
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw new PluginManagerError(`archive ${url}: ${declared} bytes, over the ${maxBytes}-byte limit`)
  }
  const hash = createHash('sha256')
  let received = 0
  const body = response
  async function* capped(): AsyncGenerator<Buffer> {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length
      if (received > maxBytes) throw new PluginManagerError(`archive ${url}: over the ${maxBytes}-byte limit`)
      hash.update(chunk)
      yield chunk
    }
  }
  // Opened before streaming, so the file exists by the time a refusal returns and the caller's
  // cleanup removes it (a write stream opened lazily could create it after that cleanup ran).
  try {
    const out = await open(file, 'w')
    await pipeline(capped, out.createWriteStream())
  } catch (error) {
    body.destroy()
    if (error instanceof PluginManagerError) throw error
    throw new PluginManagerError(`archive ${url}: download failed: ${(error as Error).message}`)
  }
  return hash.digest('hex')
}

function parseHttps(value: string, original: string): URL {
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new PluginManagerError(`archive source: url: "${value}" is not a URL`)
  }
  if (parsed.protocol !== 'https:') throw new PluginManagerError(`archive source: url: ${value === original ? `"${value}"` : `"${original}" redirects to "${value}", which`} is not https (an archive is downloaded over HTTPS only)`)
  return parsed
}

function request(url: URL, original: string): Promise<IncomingMessage> {
  return new Promise((resolvePromise, reject) => {
    const req = get(url, (res) => resolvePromise(res))
    req.on('error', (error) => reject(new PluginManagerError(`archive ${original}: ${error.message}`)))
  })
}

/** Unpacks `zip` into `into` (made here), refusing escapes, too many entries and too many bytes. */
async function unzip(zip: string, into: string, url: string, limits: ArchiveLimits): Promise<void> {
  // Loaded here: only an archive source needs it, and Seam's start should not pay for it.
  const { open: openZip } = await import('yauzl')
  const file = await new Promise<ZipFile>((resolvePromise, reject) =>
    openZip(zip, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (error, opened) =>
      error ? reject(new PluginManagerError(`archive ${url}: not a zip file (${error.message})`)) : resolvePromise(opened)
    )
  )
  try {
    if (file.entryCount > limits.maxEntries) throw new PluginManagerError(`archive ${url}: ${file.entryCount} entries, over the limit of ${limits.maxEntries}`)
    mkdirSync(into, { recursive: true })
    let inflated = 0
    for (let entry = await nextEntry(file, url); entry !== undefined; entry = await nextEntry(file, url)) {
      const name = entry.fileName.replace(/\\/g, '/')
      const target = resolve(into, name)
      if (isAbsolute(name) || /^[a-zA-Z]:/.test(name) || !isWithin(into, target)) throw new PluginManagerError(escapeMessage(url, entry.fileName))
      if (name.endsWith('/')) {
        mkdirSync(target, { recursive: true })
        continue
      }
      inflated += entry.uncompressedSize
      if (inflated > limits.maxBytes) throw new PluginManagerError(`archive ${url}: more than ${limits.maxBytes} bytes once unpacked`)
      const mode = (entry.externalFileAttributes >>> 16) & 0o177777
      mkdirSync(dirname(target), { recursive: true })
      if ((mode & 0o170000) === 0o120000) {
        const link = (await readEntry(file, entry, url)).toString('utf8')
        const pointsTo = resolve(dirname(target), link)
        if (isAbsolute(link) || !isWithin(into, pointsTo)) throw new PluginManagerError(`archive ${url}: entry "${entry.fileName}" is a link to "${link}", outside the plugin's folder`)
        symlinkSync(link, target)
        continue
      }
      writeFileSync(target, await readEntry(file, entry, url), { mode: mode & 0o111 ? 0o755 : 0o644 })
    }
  } finally {
    file.close()
  }
}

function nextEntry(file: ZipFile, url: string): Promise<Entry | undefined> {
  return new Promise((resolvePromise, reject) => {
    const cleanup = () => {
      file.off('entry', onEntry)
      file.off('end', onEnd)
      file.off('error', onError)
    }
    const onEntry = (entry: Entry) => (cleanup(), resolvePromise(entry))
    const onEnd = () => (cleanup(), resolvePromise(undefined))
    const onError = (error: Error) => {
      cleanup()
      // yauzl checks names itself before Seam sees the entry; its refusal is said as Seam's own is.
      const unsafe = /^(?:invalid relative path|absolute path): (.*)$/.exec(error.message)
      reject(new PluginManagerError(unsafe ? escapeMessage(url, unsafe[1]!) : `archive ${url}: ${error.message}`))
    }
    file.on('entry', onEntry)
    file.on('end', onEnd)
    file.on('error', onError)
    file.readEntry()
  })
}

function escapeMessage(url: string, name: string): string {
  return `archive ${url}: entry "${name}" would land outside the plugin's folder`
}

function readEntry(file: ZipFile, entry: Entry, url: string): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    file.openReadStream(entry, (error, stream) => {
      if (error) return reject(new PluginManagerError(`archive ${url}: entry "${entry.fileName}": ${error.message}`))
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', (streamError) => reject(new PluginManagerError(`archive ${url}: entry "${entry.fileName}": ${streamError.message}`)))
      stream.on('end', () => resolvePromise(Buffer.concat(chunks)))
    })
  })
}

/**
 * A zip made by zipping a folder (GitHub's "Download ZIP", `zip -r name.zip name`) holds one folder
 * with everything in it: that folder is the plugin. Anything else is used as it is.
 */
function singleTopFolder(root: string): string | undefined {
  const top = readdirSync(root, { withFileTypes: true })
  if (top.length !== 1 || !top[0]!.isDirectory() || top[0]!.name === '.claude-plugin') return undefined
  return join(root, posix.basename(top[0]!.name))
}
