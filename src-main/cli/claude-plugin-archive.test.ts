// The `archive` plugin source with the built `seam` as a real process (issue 29): zips made with
// yazl (test-support/zip.ts), served by a loopback HTTPS server whose certificate the test makes with `openssl`
// and the child trusts through NODE_EXTRA_CA_CERTS. A good archive (reached through a redirect,
// its single top folder stripped) installs and its command works in a session against a loopback
// Anthropic server; a sha256 mismatch, an entry escaping with `..`, a symlink pointing out, too
// many entries, a file that is not a zip, a 404 and a plain-http URL are each refused with the
// reason, leaving nothing in the cache or the staging area.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, symlink } from 'node:fs/promises'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'
import { anthropicRunFlags, gitMarketplace, put } from '../../test-support/claude-plugin-cli'
import { zipOf } from '../../test-support/zip'

let home: string
let workspace: string
useCliScratch('claude-plugin-archive', (dirs) => ({ home, workspace } = dirs))

let server: Server | undefined
let base = ''
const served = new Map<string, Buffer>()

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
})

const seam = (...args: string[]): Promise<CliResult> => runSeamHeadless(args, { cwd: workspace, home, env: { NODE_EXTRA_CA_CERTS: join(home, 'tls', 'cert.pem') } })

async function pluginFolder(folder: string, name: string): Promise<void> {
  await put(join(folder, '.claude-plugin', 'plugin.json'), JSON.stringify({ name, version: '2.0.0' }))
  await put(join(folder, 'commands', 'hello.md'), 'Say hello from the archive to $ARGUMENTS. Root: ${CLAUDE_PLUGIN_ROOT}\n')
  await put(join(folder, 'bin', 'zipped-tool'), '#!/bin/sh\necho zipped tool ran\n', 0o755)
}

const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex')

beforeAll(async () => {
  const tls = join(home, 'tls')
  await mkdir(tls, { recursive: true })
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(tls, 'key.pem'), '-out', join(tls, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' })
  server = createServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, (req, res) => {
    const path = req.url ?? '/'
    if (path === '/moved/kit.zip') {
      res.writeHead(302, { location: '/files/kit.zip' }).end()
      return
    }
    const body = served.get(path)
    if (body === undefined) res.writeHead(404).end('not here')
    else res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  base = `https://127.0.0.1:${(server!.address() as AddressInfo).port}`
})

function cacheOf(market: string): string[] {
  const dir = join(home, 'seam', 'claude-plugins', 'cache', market)
  return existsSync(dir) ? readdirSync(dir) : []
}

function leftovers(): string[] {
  return readdirSync(join(home, 'seam', 'claude-plugins')).filter((name) => name.startsWith('.staging-'))
}

describe('the archive plugin source, with the built seam (issue 29)', () => {
  it('installs a zip from HTTPS (redirect followed, sha256 checked, top folder stripped) whose command works; every bad archive is refused and leaves nothing', async () => {
    const work = join(home, 'zips')
    // The good one: zipped as a folder, as GitHub's "Download ZIP" does.
    await pluginFolder(join(work, 'kit', 'kit-main'), 'kit')
    const kit = await zipOf(join(work, 'kit'), ['kit-main'])
    served.set('/files/kit.zip', kit)

    // `..`: zipped under a same-length name, then renamed in the local header and the central directory.
    await pluginFolder(join(work, 'slip'), 'slip')
    await put(join(work, 'slip', 'xx', 'evil.txt'), 'escaped\n')
    const slip = await zipOf(join(work, 'slip'), ['.claude-plugin', 'commands', 'xx'])
    served.set('/files/slip.zip', Buffer.from(slip.toString('latin1').replaceAll('xx/evil.txt', '../evil.txt'), 'latin1'))

    await pluginFolder(join(work, 'linked'), 'linked')
    await symlink('../../../../etc', join(work, 'linked', 'commands', 'out'))
    served.set('/files/linked.zip', await zipOf(join(work, 'linked'), ['.claude-plugin', 'commands']))

    // A folder of 20,001 empty files, made in memory (20,004 entries with the manifest and folders).
    await pluginFolder(join(work, 'many'), 'many')
    const lots = [{ name: 'lots/' }, ...Array.from({ length: 20_001 }, (_, i) => ({ name: `lots/${i}` }))]
    served.set('/files/many.zip', await zipOf(join(work, 'many'), ['.claude-plugin'], lots))

    served.set('/files/text.zip', Buffer.from('this is not a zip file\n'))

    const plugins = [
      { name: 'kit', source: { source: 'archive', url: `${base}/moved/kit.zip`, sha256: sha(kit) } },
      { name: 'tampered', source: { source: 'archive', url: `${base}/files/kit.zip`, sha256: '0'.repeat(64) } },
      { name: 'slip', source: { source: 'archive', url: `${base}/files/slip.zip` } },
      { name: 'linked', source: { source: 'archive', url: `${base}/files/linked.zip` } },
      { name: 'many', source: { source: 'archive', url: `${base}/files/many.zip` } },
      { name: 'text', source: { source: 'archive', url: `${base}/files/text.zip` } },
      { name: 'gone', source: { source: 'archive', url: `${base}/files/gone.zip` } },
      { name: 'plain', source: { source: 'archive', url: `http://127.0.0.1:1/kit.zip` } }
    ]
    const market = join(home, 'market-src')
    await gitMarketplace(market, 'zips', plugins as unknown as Array<{ name: string; source: string }>, async () => {}, 'archives')
    const added = await seam('plugin', 'marketplace', 'add', market)
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)

    const refusals: Array<[string, string]> = [
      ['tampered', `archive ${base}/files/kit.zip: sha256: expected ${'0'.repeat(64)}, the file has ${sha(kit)}; nothing installed`],
      ['slip', `archive ${base}/files/slip.zip: entry "../evil.txt" would land outside the plugin's folder`],
      ['linked', `archive ${base}/files/linked.zip: entry "commands/out" is a link to "../../../../etc", outside the plugin's folder`],
      ['many', `archive ${base}/files/many.zip: 20004 entries, over the limit of 20000`],
      ['text', `archive ${base}/files/text.zip: not a zip file (`],
      ['gone', `archive ${base}/files/gone.zip: HTTP 404`],
      ['plain', `archive source: url: "http://127.0.0.1:1/kit.zip" is not https (an archive is downloaded over HTTPS only)`]
    ]
    for (const [name, message] of refusals) {
      const refused = await seam('plugin', 'install', `${name}@zips`)
      expect(refused.stderr, name).toContain(message)
      expect(refused.code, name).not.toBe(0)
      expect(cacheOf('zips'), name).toEqual([])
      expect(leftovers(), name).toEqual([])
    }
    expect(existsSync(join(home, 'seam', 'claude-plugins', 'evil.txt'))).toBe(false)

    const installed = await seam('plugin', 'install', 'kit@zips')
    expect(installed.stderr).toBe('')
    expect(installed.code).toBe(0)
    const root = join(home, 'seam', 'claude-plugins', 'cache', 'zips', 'kit', '2.0.0')
    expect(installed.stdout).toContain('installed kit@zips 2.0.0 (content ')
    expect(cacheOf('zips')).toEqual(['kit'])
    expect(leftovers()).toEqual([])
    expect((await seam('plugin', 'list')).stdout).toContain(`kit@zips  claude-plugin  2.0.0  enabled (default)  ${base}/moved/kit.zip`)

    const model = await startFakeAnthropic([{ text: 'Running it.', toolCalls: [{ name: 'Bash', args: { command: 'zipped-tool' } }] }, { text: 'done' }])
    let run: CliResult
    try {
      run = await runSeamHeadless(['run', ...anthropicRunFlags(workspace, model.url), '/kit:hello world'], { cwd: workspace, home })
    } finally {
      await model.close()
    }
    expect(run.stderr).not.toMatch(/error|failed/i)
    expect(run.code).toBe(0)
    const bodies = model.requests.map((r) => JSON.stringify(r.body))
    expect(bodies[0]).toContain(`Say hello from the archive to world. Root: ${root}`)
    // bin/ kept its executable bit through the zip and is on Bash's PATH.
    expect(bodies[1]).toContain('zipped tool ran')
  }, 180_000) // eleven runs of the built seam, each a second or more on a loaded machine
})
