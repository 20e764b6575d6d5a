// The archive source's size caps with small limits (the real ones are 256 MiB): a download whose
// Content-Length is over the cap, one streamed without a length that passes it, and a small zip
// that inflates past it are each refused, leaving neither the plugin's folder nor the download.
// A loopback HTTPS server with a certificate made by `openssl`, trusted through the HTTPS agent's
// `ca` (what NODE_EXTRA_CA_CERTS does for the built seam in claude-plugin-archive.test.ts).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, globalAgent, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zipOf } from '../../test-support/zip'
import { fetchArchive } from './archive'

let dir: string
let server: Server
let base: string
const savedCa = globalAgent.options.ca
const served = new Map<string, { body: Buffer; length: boolean }>()

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'seam-archive-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  globalAgent.options.ca = readFileSync(join(dir, 'cert.pem'))
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    const file = served.get(req.url ?? '')
    if (file === undefined) return void res.writeHead(404).end()
    res.writeHead(200, file.length ? { 'content-length': file.body.length } : {})
    // Without a length: sent in two writes, so the cap is met while the body streams.
    res.write(file.body.subarray(0, 1024))
    res.end(file.body.subarray(1024))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  globalAgent.options.ca = savedCa
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})

const limits = { maxBytes: 4096, maxEntries: 10 }

async function refused(path: string): Promise<string> {
  const staging = mkdtempSync(join(dir, 'staging-'))
  const error = await fetchArchive(`${base}${path}`, undefined, join(staging, 'p'), limits).then(
    () => undefined,
    (caught: unknown) => caught as Error
  )
  expect(readdirSync(staging)).toEqual([])
  return error?.message ?? 'installed'
}

describe('archive source size caps (issue 29)', () => {
  it('refuses a download over the cap, by its length and while streaming, and a zip that inflates past it', async () => {
    served.set('/long.zip', { body: Buffer.alloc(8192, 1), length: true })
    served.set('/streamed.zip', { body: Buffer.alloc(8192, 1), length: false })
    const work = join(dir, 'bomb')
    mkdirSync(work)
    writeFileSync(join(work, 'zeros'), Buffer.alloc(64 * 1024))
    const bomb = await zipOf(work, ['zeros'])
    expect(bomb.length).toBeLessThan(4096)
    served.set('/bomb.zip', { body: bomb, length: true })

    expect(await refused('/long.zip')).toBe(`archive ${base}/long.zip: 8192 bytes, over the 4096-byte limit`)
    expect(await refused('/streamed.zip')).toBe(`archive ${base}/streamed.zip: over the 4096-byte limit`)
    expect(await refused('/bomb.zip')).toBe(`archive ${base}/bomb.zip: more than 4096 bytes once unpacked`)

    // The same zip within a larger cap unpacks.
    const staging = mkdtempSync(join(dir, 'staging-'))
    await fetchArchive(`${base}/bomb.zip`, undefined, join(staging, 'p'), { maxBytes: 128 * 1024, maxEntries: 10 })
    expect(readdirSync(staging)).toEqual(['p'])
    expect(existsSync(join(staging, 'p', 'zeros'))).toBe(true)
  })
})
