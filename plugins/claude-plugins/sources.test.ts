// Marketplace and plugin sources end to end with real processes and no network (issue 29):
// - a URL marketplace: a loopback HTTP server serves marketplace.json and the plugin's git
//   repository over git's smart HTTP protocol (the real `git http-backend` behind it);
// - npm: a loopback server speaking the npm registry protocol (packument JSON, tarballs made by
//   `npm pack`), npm pointed at it by npm_config_registry (a marketplace package) and by an
//   entry's `registry` (a plugin source);
// - github: https://github.com/ mapped to bare repositories on disk with git's
//   url.<base>.insteadOf, given through GIT_CONFIG_COUNT/KEY/VALUE (nothing written to a git config).
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins from './index'
import { parseMarketplaceArg } from './manager'
import { fullPluginFiles, git, gitRepo, marketplaceJson, writeFiles } from './test-fixtures'

let dir: string
let host: TestHost | undefined
let server: Server | undefined
const savedEnv = { ...process.env }

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-plugin-sources-'))
})
afterEach(async () => {
  await host?.cleanup()
  host = undefined
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key]
  Object.assign(process.env, savedEnv)
  rmSync(dir, { recursive: true, force: true })
})

async function start(): Promise<TestHost> {
  host = await createTestHost({ plugins: [[claudePlugins, { userSettingsPath: join(dir, 'claude-home', 'settings.json'), seamHome: join(dir, 'seam-home') }]], trusted: true })
  return host
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse, base: string) => void): Promise<string> {
  let base = ''
  server = createServer((req, res) => handler(req, res, base))
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
  return base
}

/** A bare repository holding `files` (committed on main), as a server or github would. */
function bareRepo(path: string, files: Record<string, string>): string {
  const work = `${path}.work`
  gitRepo(work, files)
  execFileSync('git', ['clone', '--quiet', '--bare', work, path])
  rmSync(work, { recursive: true, force: true })
  return path
}

/** Answers git's smart HTTP requests under `/git/` with `git http-backend` (CGI) over `root`. */
function gitHttpBackend(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x')
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: url.pathname.slice('/git'.length),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {})
    }
  })
  req.pipe(child.stdin)
  const chunks: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
  child.on('close', () => {
    const out = Buffer.concat(chunks)
    const split = out.indexOf('\r\n\r\n')
    const head = out.subarray(0, split).toString('latin1').split('\r\n')
    let status = 200
    for (const line of head) {
      const [name, ...rest] = line.split(':')
      const value = rest.join(':').trim()
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10)
      else res.setHeader(name, value)
    }
    res.statusCode = status
    res.end(out.subarray(split + 4))
  })
}

/** `npm pack`s `folder`; the tarball's bytes and file name. */
function npmPack(folder: string, out: string): { file: string; bytes: Buffer } {
  mkdirSync(out, { recursive: true })
  const [info] = JSON.parse(execFileSync('npm', ['pack', folder, '--json', '--pack-destination', out], { cwd: out, encoding: 'utf8', env: { ...process.env, npm_config_cache: join(dir, 'npm-cache') } })) as Array<{ filename: string }>
  return { file: info.filename, bytes: readFileSync(join(out, info.filename)) }
}

/** A registry for `packages` (name -> folder): GET /name is the packument, GET /-/file the tarball. */
async function npmRegistry(packages: Record<string, string>): Promise<{ base: string; requests: string[] }> {
  const requests: string[] = []
  const tarballs = new Map<string, Buffer>()
  const packuments = new Map<string, (base: string) => unknown>()
  for (const [name, folder] of Object.entries(packages)) {
    const { file, bytes } = npmPack(folder, join(dir, 'tarballs'))
    const version = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version
    tarballs.set(`/-/${file}`, bytes)
    const shasum = createHash('sha1').update(bytes).digest('hex')
    const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`
    packuments.set(`/${name}`, (base) => ({
      name,
      'dist-tags': { latest: version },
      versions: { [version]: { name, version, dist: { tarball: `${base}/-/${file}`, shasum, integrity } } }
    }))
  }
  const base = await listen((req, res, base) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    requests.push(path)
    const tarball = tarballs.get(path)
    if (tarball) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball)
    const packument = packuments.get(path)
    if (packument) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument(base)))
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
  })
  return { base, requests }
}

describe('marketplace and plugin sources with real processes, no network (issue 29)', () => {
  it('a URL marketplace: marketplace.json over HTTP, the plugin cloned from the same server over git smart HTTP', async () => {
    const repos = join(dir, 'served')
    bareRepo(join(repos, 'kit.git'), fullPluginFiles('kit', { version: '1.2.0' }))
    const seen: string[] = []
    const base = await listen((req, res, base) => {
      seen.push(`${req.method} ${req.url}`)
      if (req.url === '/market/marketplace.json') {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(marketplaceJson('web-tools', [{ name: 'kit', source: { source: 'url', url: `${base}/git/kit.git` } }]))
      }
      if (req.url?.startsWith('/git/')) return gitHttpBackend(repos, req, res)
      res.writeHead(404).end()
    })
    const h = await start()
    const { manager } = h.kernel.getService('claudePluginManager')!
    const source = parseMarketplaceArg(`${base}/market/marketplace.json`, dir)
    expect(source).toEqual({ source: 'url', url: `${base}/market/marketplace.json` })
    const added = await manager.addMarketplace(source)
    expect(added.name).toBe('web-tools')
    const installed = await manager.install('kit@web-tools')
    expect(installed.record).toMatchObject({ version: '1.2.0', source: `${base}/git/kit.git` })
    expect(readdirSync(installed.record.installPath)).not.toContain('.git')
    const [kit] = h.kernel.getService('claudePlugins')!.list(h.workspace)
    expect(kit).toMatchObject({ name: 'kit', marketplace: 'web-tools', version: '1.2.0' })
    expect(kit.skills).toEqual([join(installed.record.installPath, 'skills')])
    expect(seen.some((line) => line.startsWith('POST /git/kit.git/git-upload-pack'))).toBe(true)

    // update re-reads marketplace.json from the server; a 404 is an error naming the URL, the store is kept.
    await manager.updateMarketplace('web-tools')
    server!.removeAllListeners('request')
    server!.on('request', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(404).end())
    await expect(manager.updateMarketplace('web-tools')).rejects.toThrow(`${base}/market/marketplace.json: HTTP 404`)
    expect(manager.listMarketplaces()).toMatchObject([{ name: 'web-tools', added: true, plugins: 1 }])
  })

  it('npm: a marketplace package through npm_config_registry, and an npm plugin source with its own registry', async () => {
    const marketPkg = join(dir, 'pkg-market')
    writeFiles(marketPkg, {
      'package.json': JSON.stringify({ name: 'team-market', version: '1.0.0' }),
      '.claude-plugin/marketplace.json': marketplaceJson('npm-tools', [
        { name: 'kit', source: './plugins/kit' },
        { name: 'helper', source: { source: 'npm', package: '@team/helper-plugin', version: '2.0.0' } }
      ]),
      ...Object.fromEntries(Object.entries(fullPluginFiles('kit')).map(([k, v]) => [`plugins/kit/${k}`, v]))
    })
    const helperPkg = join(dir, 'pkg-helper')
    writeFiles(helperPkg, {
      'package.json': JSON.stringify({ name: '@team/helper-plugin', version: '2.0.0' }),
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'helper', version: '2.0.0' }),
      'commands/assist.md': '---\ndescription: Assist\n---\nAssist with $ARGUMENTS.\n'
    })
    const registry = await npmRegistry({ 'team-market': marketPkg, '@team/helper-plugin': helperPkg })
    process.env.npm_config_registry = `${registry.base}/`
    process.env.npm_config_cache = join(dir, 'npm-cache')
    const h = await start()
    const { manager } = h.kernel.getService('claudePluginManager')!
    const added = await manager.addMarketplace(parseMarketplaceArg('npm:team-market@1.0.0', dir))
    expect(added.name).toBe('npm-tools')
    const kit = await manager.install('kit@npm-tools')
    expect(kit.record.version).toBe('1.0.0')
    expect(readdirSync(join(kit.record.installPath, 'commands'))).toEqual(['hello.md'])
    const helper = await manager.install('helper@npm-tools')
    expect(helper.record).toMatchObject({ version: '2.0.0', source: 'npm:@team/helper-plugin@2.0.0' })
    expect(helper.layout.commands).toEqual([join(helper.record.installPath, 'commands')])
    expect(registry.requests).toEqual(expect.arrayContaining(['/team-market', '/@team/helper-plugin']))
    expect(h.kernel.getService('claudePlugins')!.list(h.workspace).map((p) => p.name).sort()).toEqual(['helper', 'kit'])

    // A version the registry does not have: npm's error, nothing installed.
    await expect(manager.addMarketplace(parseMarketplaceArg('npm:team-market@9.9.9', dir))).rejects.toThrow('npm pack team-market@9.9.9 failed (exit 1): ETARGET: No matching version found for team-market@9.9.9.')
    // Started from `npm run --silent` (as CI runs the suite), npm inherits loglevel=silent and says
    // nothing on stderr: the error still names npm's code and summary.
    process.env.npm_config_loglevel = 'silent'
    await expect(manager.addMarketplace(parseMarketplaceArg('npm:team-market@9.9.9', dir))).rejects.toThrow('npm pack team-market@9.9.9 failed (exit 1): ETARGET: No matching version found for team-market@9.9.9.')
    expect(manager.listMarketplaces().map((m) => m.name)).toEqual(['npm-tools'])
  })

  it('an entry registry overrides npm_config_registry for an npm plugin source', async () => {
    const helperPkg = join(dir, 'pkg-helper')
    writeFiles(helperPkg, { 'package.json': JSON.stringify({ name: 'solo-plugin', version: '0.4.0' }), 'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\nbody\n' })
    const registry = await npmRegistry({ 'solo-plugin': helperPkg })
    process.env.npm_config_registry = 'http://127.0.0.1:9/' // nothing listens there
    process.env.npm_config_cache = join(dir, 'npm-cache')
    const market = join(dir, 'market')
    writeFiles(market, { '.claude-plugin/marketplace.json': marketplaceJson('solo', [{ name: 'solo-plugin', source: { source: 'npm', package: 'solo-plugin', registry: `${registry.base}/` } }]) })
    const h = await start()
    const { manager } = h.kernel.getService('claudePluginManager')!
    await manager.addMarketplace(parseMarketplaceArg(market, dir))
    const solo = await manager.install('solo-plugin@solo')
    expect(solo.record.version).toBe('0.4.0')
    expect(solo.layout.skills).toEqual([join(solo.record.installPath, 'skills')])
  })

  it('github: owner/repo marketplaces and github plugin sources through git url.insteadOf, with ref and sha', async () => {
    const github = join(dir, 'github')
    /** acme/<name>: 1.0.0 tagged v1.0.0, then 1.1.0 on main; the first commit. */
    const twoVersions = (name: string): string => {
      const bare = bareRepo(join(github, 'acme', `${name}.git`), fullPluginFiles(name, { version: '1.0.0' }))
      const work = join(dir, `${name}-work`)
      execFileSync('git', ['clone', '--quiet', bare, work])
      const first = git(work, 'rev-parse', 'HEAD').trim()
      git(work, 'tag', 'v1.0.0')
      writeFiles(work, { '.claude-plugin/plugin.json': JSON.stringify({ name, version: '1.1.0' }) })
      git(work, 'commit', '--quiet', '-am', '1.1.0')
      git(work, 'push', '--quiet', '--tags', 'origin', 'main')
      return first
    }
    twoVersions('kit')
    twoVersions('tagged')
    const pinned = twoVersions('pinned')
    bareRepo(join(github, 'acme', 'market.git'), {
      '.claude-plugin/marketplace.json': marketplaceJson('acme', [
        { name: 'kit', source: { source: 'github', repo: 'acme/kit' } },
        { name: 'tagged', source: { source: 'github', repo: 'acme/tagged', ref: 'v1.0.0' } },
        { name: 'pinned', source: { source: 'github', repo: 'acme/pinned', sha: pinned } }
      ])
    })
    // What a user's ~/.gitconfig could say, given to git through its environment only.
    Object.assign(process.env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.file://${github}/.insteadOf`, GIT_CONFIG_VALUE_0: 'https://github.com/' })
    const h = await start()
    const { manager } = h.kernel.getService('claudePluginManager')!
    const source = parseMarketplaceArg('acme/market', dir)
    expect(source).toEqual({ source: 'github', repo: 'acme/market' })
    const added = await manager.addMarketplace(source)
    expect(added.name).toBe('acme')
    expect(added.known.commit).toMatch(/^[0-9a-f]{40}$/)
    const latest = await manager.install('kit@acme')
    expect(latest.record).toMatchObject({ version: '1.1.0', source: 'github:acme/kit' })
    expect(readdirSync(latest.record.installPath)).not.toContain('.git')
    expect((await manager.install('tagged@acme')).record).toMatchObject({ version: '1.0.0', source: 'github:acme/tagged#v1.0.0' })
    expect((await manager.install('pinned@acme')).record).toMatchObject({ version: '1.0.0', source: `github:acme/pinned@${pinned}` })
    expect(h.kernel.getService('claudePlugins')!.list(h.workspace).map((p) => `${p.name} ${p.version}`).sort()).toEqual(['kit 1.1.0', 'pinned 1.0.0', 'tagged 1.0.0'])
    expect((await manager.updateMarketplace('acme')).commit).toBe(added.known.commit)

    // Without the mapping the same source goes to github.com, which this machine cannot reach: git's error, nothing added.
    delete process.env.GIT_CONFIG_COUNT
    await expect(manager.addMarketplace(parseMarketplaceArg('acme/other', dir))).rejects.toThrow(/git clone .*https:\/\/github\.com\/acme\/other\.git.* failed/)
    expect(manager.listMarketplaces().map((m) => m.name)).toEqual(['acme'])
  })
})
