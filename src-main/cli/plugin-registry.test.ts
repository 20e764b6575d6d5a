// Issue 18 "Sharing": bundles published with the real `npm publish` to a real registry
// (verdaccio on loopback, no uplinks) and installed, updated, refused and searched through the
// real CLI entry (`main`) and the real host router, with npm's settings read from temp .npmrc
// files the way npm reads them. A recording proxy in front of the registry shows which requests
// were made (no tarball before engines.seam fits) and alters bytes for the integrity cases.
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SDK_VERSION } from '@seam/sdk/version'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { createHost } from '../app/host'
import { hostSource, makeBundleDir } from '../../test-support/bundles'
import { startLocalRegistry, type LocalRegistry } from '../../test-support/local-registry'
import { main } from './main'

let registry: LocalRegistry
let token: string
let work: string
let counter = 0

/** The process environment without npm's own variables (`npm test` exports npm_config_*), plus what a case sets. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key) && key !== 'NPM_CONFIG_USERCONFIG') env[key] = value
  return { ...env, ...extra }
}

interface Setup {
  home: string
  seamHome: string
  workspace: string
  env: NodeJS.ProcessEnv
}

/** A fresh Seam home, user home (with ~/.npmrc) and workspace (with an optional project .npmrc). */
async function setup(options: { userNpmrc?: string; projectNpmrc?: string; env?: Record<string, string> } = {}): Promise<Setup> {
  const root = path.join(work, `case-${++counter}`)
  const home = path.join(root, 'home')
  const seamHome = path.join(root, 'seam')
  const workspace = path.join(root, 'workspace')
  await mkdir(home, { recursive: true })
  await mkdir(workspace, { recursive: true })
  const globalconfig = path.join(root, 'global-npmrc')
  await writeFile(globalconfig, '')
  await writeFile(path.join(home, '.npmrc'), options.userNpmrc ?? `registry=${registry.proxyUrl}\n`)
  if (options.projectNpmrc !== undefined) await writeFile(path.join(workspace, '.npmrc'), options.projectNpmrc)
  const env = cleanEnv({ HOME: home, SEAM_HOME: seamHome, npm_config_globalconfig: globalconfig, ...options.env })
  return { home, seamHome, workspace, env }
}

async function seam(s: Setup, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.setEncoding('utf8').on('data', (c: string) => (out += c))
  stderr.setEncoding('utf8').on('data', (c: string) => (err += c))
  const code = await main(['--workspace', s.workspace, ...args], { stdout, stderr, env: s.env } as unknown as Parameters<typeof main>[1])
  return { code, stdout: out, stderr: err }
}

/** The error `seam ...` fails with (the bin prints it as `seam: <message>`). */
async function seamError(s: Setup, ...args: string[]): Promise<Error & { code?: string }> {
  const result = await seam(s, ...args).then(
    (r) => new Error(`expected a failure, got exit ${r.code}: ${r.stdout}${r.stderr}`),
    (error: unknown) => error as Error
  )
  return result
}

interface LockFile {
  bundles: Array<{ name: string; version: string; integrity: string; source: string; enabled: boolean; registry?: { url: string; requested: string; range: string; integrity: string } }>
}

async function lock(s: Setup): Promise<LockFile> {
  try {
    return JSON.parse(await readFile(path.join(s.seamHome, 'plugins/lock.json'), 'utf8')) as LockFile
  } catch {
    return { bundles: [] }
  }
}

async function publish(name: string, version: string, enginesSeam: string, extra: Record<string, unknown> = {}): Promise<void> {
  const dir = await makeBundleDir(path.join(work, 'src', `${name.replace('/', '+')}@${version}`), {
    name,
    version,
    enginesSeam,
    host: hostSource(`${name}@${version}`),
    manifest: { keywords: ['seam-plugin'], description: `${name} test bundle`, ...extra }
  })
  await registry.publish(dir, token)
}

/** The registry's own dist of a version, read straight from verdaccio (not through the proxy). */
async function distOf(name: string, version: string): Promise<{ integrity: string; tarball: string }> {
  const doc = (await (await fetch(`${registry.directUrl}${name.replace('/', '%2f')}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    versions: Record<string, { dist: { integrity: string; tarball: string } }>
  }
  return doc.versions[version].dist
}

const tarballRequests = (name: string) => registry.requests.filter((r) => r.path.startsWith(`/${name}/-/`)).map((r) => r.path)

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'seam-plugin-registry-'))
  registry = await startLocalRegistry()
  token = await registry.addUser('publisher', 'publisher-password')
  const hello = async () => {
    await publish('seam-reg-hello', '1.0.0', `>=${SDK_VERSION}`)
    await publish('seam-reg-hello', '1.1.0', `>=${SDK_VERSION}`)
    // The newest release needs a Seam that does not exist yet: `latest` does not fit.
    await publish('seam-reg-hello', '2.0.0', '>=99.0.0')
  }
  await Promise.all([
    hello(),
    publish('seam-reg-future', '1.0.0', '>=99.0.0', { description: 'needs a future Seam' }),
    publish('@private/seam-secret', '1.0.0', `>=${SDK_VERSION}`),
    publish('seam-reg-tamper', '1.0.0', `>=${SDK_VERSION}`),
    publish('seam-reg-update', '1.0.0', `>=${SDK_VERSION}`)
  ])
}, 180_000)

afterAll(async () => {
  await registry?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('seam plugin install NAME[@RANGE] from an npm registry (issue 18: Sharing)', () => {
  it('a bare name installs the highest version whose engines.seam fits, verified against dist.integrity, and the lock records name, version, range, registry and integrity', async () => {
    const s = await setup()
    const before = registry.requests.length
    const result = await seam(s, 'plugin', 'install', 'seam-reg-hello')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`installed seam-reg-hello@1.1.0 from ${registry.proxyUrl} (range ^1.1.0)`)
    const [entry] = (await lock(s)).bundles
    const dist = await distOf('seam-reg-hello', '1.1.0')
    expect(entry).toMatchObject({
      name: 'seam-reg-hello',
      version: '1.1.0',
      source: `seam-reg-hello@^1.1.0 from ${registry.proxyUrl}`,
      registry: { url: registry.proxyUrl, requested: '', range: '^1.1.0', integrity: dist.integrity }
    })
    // The lock's own hash of the installed tarball is the registry's sha512.
    expect(entry.integrity).toBe(dist.integrity)
    const made = registry.requests.slice(before)
    expect(made[0]).toMatchObject({ method: 'GET', path: '/seam-reg-hello' })
    expect(made[0].accept).toContain('application/vnd.npm.install-v1+json')
    // Only the chosen version's tarball was downloaded: never 2.0.0 (latest, which does not fit).
    expect(made.filter((r) => r.path.endsWith('.tgz')).map((r) => r.path)).toEqual(['/seam-reg-hello/-/seam-reg-hello-1.1.0.tgz'])
    const list = await seam(s, 'plugin', 'list')
    expect(list.stdout).toMatch(/seam-reg-hello\s+bundle\s+1\.1\.0\s+active/)
  })

  it('NAME@RANGE installs the highest version in the range and records that range', async () => {
    const s = await setup()
    const result = await seam(s, 'plugin', 'install', 'seam-reg-hello@~1.0.0')
    expect(result.code, result.stderr).toBe(0)
    const [entry] = (await lock(s)).bundles
    expect(entry).toMatchObject({ version: '1.0.0', registry: { requested: '~1.0.0', range: '~1.0.0' } })
  })

  it('refuses a range whose versions do not admit this Seam, listing what exists, before requesting any tarball', async () => {
    const s = await setup()
    const before = tarballRequests('seam-reg-hello').length
    const error = await seamError(s, 'plugin', 'install', 'seam-reg-hello@^2.0.0')
    expect(error.message).toContain(`no version of seam-reg-hello matching ^2.0.0 admits Seam ${SDK_VERSION}: 2.0.0 (engines.seam >=99.0.0)`)
    expect(error.message).toContain(`versions that work with Seam ${SDK_VERSION}: 1.1.0, 1.0.0`)
    expect(tarballRequests('seam-reg-hello').length).toBe(before)

    const future = await seamError(s, 'plugin', 'install', 'seam-reg-future')
    expect(future.message).toContain('seam-reg-future@latest is 1.0.0 (engines.seam >=99.0.0), which does not admit Seam')
    expect(future.message).toContain('no version of seam-reg-future works with Seam')
    expect(tarballRequests('seam-reg-future')).toEqual([])
    expect((await lock(s)).bundles).toEqual([])
  })

  it('a scoped package resolves from its @scope:registry in the project .npmrc, with the ${ENV} auth token sent there and never printed or recorded', async () => {
    const host = new URL(registry.directUrl).host
    const projectNpmrc = `@private:registry=${registry.directUrl}\n//${host}/:_authToken=\${SEAM_TEST_REGISTRY_TOKEN}\n`
    const s = await setup({ projectNpmrc, env: { SEAM_TEST_REGISTRY_TOKEN: token } })
    const proxied = registry.requests.length
    const result = await seam(s, 'plugin', 'install', '@private/seam-secret')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`installed @private/seam-secret@1.0.0 from ${registry.directUrl}`)
    // Not through the default registry (the proxy) at all.
    expect(registry.requests.length).toBe(proxied)
    const lockText = await readFile(path.join(s.seamHome, 'plugins/lock.json'), 'utf8')
    expect(JSON.parse(lockText).bundles[0].registry.url).toBe(registry.directUrl)
    for (const text of [result.stdout, result.stderr, lockText]) expect(text).not.toContain(token)

    // The same package without the token: the registry's refusal, named, and still no token anywhere.
    const anonymous = await setup({ projectNpmrc: `@private:registry=${registry.directUrl}\n` })
    const refused = await seamError(anonymous, 'plugin', 'install', '@private/seam-secret')
    expect(refused.message).toMatch(/refused access to @private\/seam-secret \((401|403)\): check the auth token/)
    expect(refused.message).not.toContain(token)
  })

  it('refuses a tarball whose bytes do not match dist.integrity, naming both hashes, and installs nothing', async () => {
    const s = await setup()
    const dist = await distOf('seam-reg-tamper', '1.0.0')
    registry.tamper = 'tarball-bytes'
    try {
      const error = await seamError(s, 'plugin', 'install', 'seam-reg-tamper')
      expect(error.code).toBe('INTEGRITY')
      const match = /expected (sha512-\S+), got (sha512-\S+);/.exec(error.message)
      expect(match, error.message).not.toBeNull()
      expect(match![1]).toBe(dist.integrity)
      expect(match![2]).not.toBe(dist.integrity)
    } finally {
      registry.tamper = null
    }
    expect((await lock(s)).bundles).toEqual([])
  })

  it('refuses a tarball when the packument carries another integrity (a tampered document), naming both hashes', async () => {
    const s = await setup()
    const dist = await distOf('seam-reg-tamper', '1.0.0')
    registry.tamper = 'packument-integrity'
    try {
      const error = await seamError(s, 'plugin', 'install', 'seam-reg-tamper@1.0.0')
      expect(error.code).toBe('INTEGRITY')
      expect(error.message).toContain(`expected sha512-${Buffer.alloc(64, 7).toString('base64')}, got ${dist.integrity}`)
    } finally {
      registry.tamper = null
    }
    expect((await lock(s)).bundles).toEqual([])
    // The untouched registry installs the same version.
    const ok = await seam(s, 'plugin', 'install', 'seam-reg-tamper@1.0.0')
    expect(ok.code, ok.stderr).toBe(0)
  })

  it('seam plugin update moves within the recorded range to the newest version that fits, keeps a disabled bundle disabled, and says so when current', async () => {
    const s = await setup()
    expect((await seam(s, 'plugin', 'install', 'seam-reg-update@^1.0.0')).code).toBe(0)
    // Disabled by the user: the update keeps it so.
    expect((await seam(s, 'plugin', 'disable', 'seam-reg-update')).code).toBe(0)
    const current = await seam(s, 'plugin', 'update')
    expect(current.stdout).toContain(`current: seam-reg-update is up to date: 1.0.0`)

    await publish('seam-reg-update', '1.0.1', `>=${SDK_VERSION}`)
    await publish('seam-reg-update', '1.1.0', '>=99.0.0')
    await publish('seam-reg-update', '2.0.0', `>=${SDK_VERSION}`)
    const before = tarballRequests('seam-reg-update').length
    const updated = await seam(s, 'plugin', 'update', 'seam-reg-update')
    expect(updated.code, updated.stderr).toBe(0)
    // 1.1.0 is in range but needs a future Seam; 2.0.0 fits but is outside ^1.0.0.
    expect(updated.stdout).toContain(`updated: seam-reg-update 1.0.0 -> 1.0.1 (within ^1.0.0, engines.seam >=${SDK_VERSION})`)
    expect(tarballRequests('seam-reg-update').slice(before)).toEqual(['/seam-reg-update/-/seam-reg-update-1.0.1.tgz'])
    const [entry] = (await lock(s)).bundles
    expect(entry).toMatchObject({ version: '1.0.1', enabled: false, registry: { range: '^1.0.0', integrity: (await distOf('seam-reg-update', '1.0.1')).integrity } })

    const again = await seam(s, 'plugin', 'update')
    expect(again.stdout).toContain('current: seam-reg-update is up to date: 1.0.1')
  })

  it('seam plugin update refuses a bundle installed from a file, naming where it came from', async () => {
    const s = await setup()
    const dir = await makeBundleDir(path.join(s.workspace, 'local-bundle'), { name: 'seam-local-only', version: '1.0.0', host: hostSource('local') })
    expect((await seam(s, 'plugin', 'install', dir)).code).toBe(0)
    const error = await seamError(s, 'plugin', 'update', 'seam-local-only')
    expect(error.message).toContain('was installed from a file')
  })

  it('seam plugin search lists bundles with the seam-plugin keyword and whether each fits this Seam', async () => {
    const s = await setup()
    const result = await seam(s, 'plugin', 'search', 'seam-reg')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^seam-reg-hello {2}2\.0\.0 {2}fits this Seam \(1\.1\.0\) {2}seam-reg-hello test bundle$/m)
    expect(result.stdout).toMatch(/^seam-reg-future {2}1\.0\.0 {2}does not fit this Seam \(engines.seam >=99\.0\.0\) {2}needs a future Seam$/m)
  })
})

describe('seam plugin search in a scope', () => {
  it('a query that starts with @scope/ asks that scope\'s registry (@scope:registry), with its token, not the default one', async () => {
    const host = new URL(registry.directUrl).host
    const projectNpmrc = `@private:registry=${registry.directUrl}\n//${host}/:_authToken=\${SEAM_TEST_REGISTRY_TOKEN}\n`
    const s = await setup({ projectNpmrc, env: { SEAM_TEST_REGISTRY_TOKEN: token } })
    const proxied = registry.requests.length
    const result = await seam(s, 'plugin', 'search', '@private/')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^@private\/seam-secret {2}1\.0\.0 {2}fits this Seam {2}@private\/seam-secret test bundle$/m)
    expect(registry.requests.length).toBe(proxied)
    expect(result.stdout + result.stderr).not.toContain(token)
  })
})

describe('the host methods behind the plugin manager (issue 18: Sharing)', () => {
  it('plugins/registry-search, -resolve and -install go through the router, validated, and install the bundle', async () => {
    const s = await setup()
    const host = await createHost({ mode: 'web', env: s.env })
    const caller = { transport: 'web' as const }
    try {
      await host.router.invoke('workspace/set', { path: s.workspace }, caller)
      const bad = await host.router.invoke('plugins/registry-install', { spec: 'Not A Name' }, caller)
      expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'spec' } })

      const search = await host.router.invoke('plugins/registry-search', { query: 'seam-reg' }, caller)
      expect(search.ok).toBe(true)
      if (!search.ok) return
      const hits = Object.fromEntries((search.output as MethodOutput<'plugins/registry-search'>).hits.map((h) => [h.name, h]))
      expect(hits['seam-reg-hello']).toMatchObject({ version: '2.0.0', engines: '>=99.0.0', fits: true, fitVersion: '1.1.0', description: 'seam-reg-hello test bundle' })
      expect(hits['seam-reg-future']).toMatchObject({ version: '1.0.0', fits: false })

      const resolved = await host.router.invoke('plugins/registry-resolve', { spec: 'seam-reg-hello@^1' }, caller)
      expect(resolved).toEqual({ ok: true, output: { name: 'seam-reg-hello', version: '1.1.0', range: '^1', registry: registry.proxyUrl, engines: `>=${SDK_VERSION}`, description: 'seam-reg-hello test bundle' } })

      const installed = await host.router.invoke('plugins/registry-install', { spec: 'seam-reg-hello@^1' }, caller)
      expect(installed).toMatchObject({ ok: true, output: { name: 'seam-reg-hello', version: '1.1.0', status: 'installed', registry: registry.proxyUrl, range: '^1' } })
      const list = await host.router.invoke('plugins/list', {}, caller)
      expect(list.ok && (list.output as MethodOutput<'plugins/list'>).find((p) => p.name === 'seam-reg-hello')).toMatchObject({ kind: 'bundle', version: '1.1.0', state: 'active' })

      const refused = await host.router.invoke('plugins/registry-install', { spec: 'seam-reg-future' }, caller)
      expect(refused).toMatchObject({ ok: false, error: { message: expect.stringContaining('does not admit Seam') } })
    } finally {
      await host.close()
    }
  })
})

describe('integrity fallback', () => {
  it('sha1 shasum is checked (and said to be weak) only when dist.integrity is absent', async () => {
    const { verifyTarball } = await import('../plugins/bundles/registry-client')
    const data = Buffer.from('tarball bytes')
    const shasum = createHash('sha1').update(data).digest('hex')
    const verified = verifyTarball(data, { tarball: 'http://x/y.tgz', shasum }, 'x@1.0.0')
    expect(verified.note).toMatch(/no dist.integrity .* only a sha1 shasum/)
    expect(() => verifyTarball(Buffer.from('other'), { tarball: 'http://x/y.tgz', shasum }, 'x@1.0.0')).toThrow(`expected ${shasum}, got ${createHash('sha1').update('other').digest('hex')}`)
    expect(() => verifyTarball(data, { tarball: 'http://x/y.tgz' }, 'x@1.0.0')).toThrow(/no integrity or shasum/)
  })
})
