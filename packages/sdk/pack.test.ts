// @seam/sdk outside this repository: `npm run pack:sdk` (packages/sdk/pack.mjs) gives a tarball
// with compiled JS and declarations whose every import stays inside the package, built in a staging
// folder while packages/sdk is never written (other processes resolve `@seam/sdk` from it at the
// same time: this suite's own files, a dev server); a bundle scaffolded by `seam plugin new` in a
// folder outside the repository installs that tarball with npm (from the local cache) and
// typechecks, builds and passes its own tests with it.
import { execFile, spawn } from 'node:child_process'
import { existsSync, watch } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../../test-support/built-cli'
import { scaledTestMs } from '../../src-main/process/liveness'

const run = promisify(execFile)
const ROOT = path.resolve(import.meta.dirname, '../..')
const SDK = path.join(ROOT, 'packages/sdk')
const quiet = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', NO_COLOR: '1' }

let temp: string
let tarball: string
let unpacked: string
let workspaceManifest: string
const workspaceChanges: string[] = []

function exec(command: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: quiet, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out }))
  })
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) found.push(...(await filesUnder(full)))
    else found.push(full)
  }
  return found
}

beforeAll(async () => {
  await ensureBuilt()
  // Outside the repository: nothing here can resolve a module through Seam's node_modules.
  temp = await mkdtemp(path.join(tmpdir(), 'seam-sdk-pack-'))
  expect(path.relative(ROOT, temp).startsWith('..')).toBe(true)
  workspaceManifest = await readFile(path.join(SDK, 'package.json'), 'utf8')
  // The pack itself, as `npm run pack:sdk` runs it, with every change in packages/sdk recorded meanwhile.
  const watcher = watch(SDK, (event, file) => workspaceChanges.push(`${event} ${file}`))
  try {
    const packed = await exec(process.execPath, [path.join(SDK, 'pack.mjs'), '--pack-destination', path.join(temp, 'packed')], ROOT)
    expect(packed.code, packed.out).toBe(0)
    tarball = packed.out.split('\n').find((line) => line.endsWith('.tgz')) ?? ''
  } finally {
    watcher.close()
  }
  expect(path.basename(tarball)).toBe(`seam-sdk-${(JSON.parse(workspaceManifest) as { version: string }).version}.tgz`)
  unpacked = path.join(temp, 'unpacked')
  await run('mkdir', ['-p', unpacked])
  await run('tar', ['-xzf', tarball, '-C', unpacked])
}, scaledTestMs(300_000))

afterAll(async () => {
  if (temp) await rm(temp, { recursive: true, force: true })
})

describe('npm run pack:sdk (packages/sdk/pack.mjs)', () => {
  it('holds compiled JS and declarations for every entry, with exports pointing into dist/', async () => {
    const pkg = path.join(unpacked, 'package')
    const manifest = JSON.parse(await readFile(path.join(pkg, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; default: string }>
      dependencies: Record<string, string>
      private?: boolean
    }
    expect(manifest.private).toBeUndefined()
    for (const entry of ['.', './node', './client', './testing', './version', './build']) {
      const target = manifest.exports[entry]
      expect(typeof target, entry).toBe('object')
      const { types, default: js } = target as { types: string; default: string }
      expect(js).toMatch(/^\.\/dist\/.*\.m?js$/)
      expect(types).toMatch(/^\.\/dist\/types\/.*\.d\.m?ts$/)
      expect((await stat(path.join(pkg, js))).isFile(), js).toBe(true)
      expect((await stat(path.join(pkg, types))).isFile(), types).toBe(true)
    }
    // Every npm package the code imports is a pinned dependency.
    expect(manifest.dependencies).toMatchObject({ zod: expect.stringMatching(/^\d+\.\d+\.\d+$/), vite: expect.stringMatching(/^\d+\.\d+\.\d+$/) })
    // No TypeScript source is shipped, only declarations.
    const files = (await filesUnder(pkg)).map((f) => path.relative(pkg, f))
    expect(files.filter((f) => /\.(ts|tsx)$/.test(f) && !/\.d\.m?ts$/.test(f))).toEqual([])
  })

  it('refers to nothing outside the package: every relative import of its JS and declarations resolves to a file inside it', async () => {
    const pkg = path.join(unpacked, 'package')
    const files = (await filesUnder(pkg)).filter((f) => /\.(m?js|d\.m?ts)$/.test(f))
    expect(files.length).toBeGreaterThan(20)
    const problems: string[] = []
    for (const file of files) {
      const text = await readFile(file, 'utf8')
      for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]*)['"]/g)) {
        const target = path.resolve(path.dirname(file), specifier)
        if (!target.startsWith(pkg + path.sep)) {
          problems.push(`${path.relative(pkg, file)}: ${specifier} leaves the package`)
          continue
        }
        const candidates = [target, `${target}.js`, `${target}.d.ts`, target.replace(/\.m?js$/, '.d.ts'), target.replace(/\.mjs$/, '.d.mts'), path.join(target, 'index.d.ts')]
        if (!candidates.some((c) => existsSync(c) && !c.endsWith(path.sep))) problems.push(`${path.relative(pkg, file)}: ${specifier} not found`)
      }
      if (text.includes(ROOT)) problems.push(`${path.relative(pkg, file)} names the checkout's path`)
    }
    expect(problems).toEqual([])
  })

  it('never writes packages/sdk: nothing in it changed while it packed, its package.json is as it was', async () => {
    expect(workspaceChanges).toEqual([])
    expect(await readFile(path.join(SDK, 'package.json'), 'utf8')).toBe(workspaceManifest)
  })

  it('npm pack -w packages/sdk, which would ship the TypeScript sources, refuses and names the command', async () => {
    const refused = await exec('npm', ['pack', '-w', 'packages/sdk', '--pack-destination', temp], ROOT)
    expect(refused.code).not.toBe(0)
    expect(refused.out).toContain('npm run pack:sdk -- --pack-destination DIR')
    expect((await readdir(temp)).filter((f) => f.endsWith('.tgz'))).toEqual([])
  })
})

describe('a bundle outside the repository, on the packed SDK', () => {
  it('seam plugin new && npm install (issue 29: offline, the SDK vendored from the running Seam) typechecks, builds and passes its tests', async () => {
    // The running Seam's SDK tarball, as `seam plugin new` finds it in Seam home once packed (the one packed above).
    const seamHome = path.join(temp, 'seam-home')
    await run('mkdir', ['-p', path.join(seamHome, 'sdk')])
    await run('cp', [tarball, path.join(seamHome, 'sdk')])
    const created = await exec('env', [`SEAM_HOME=${seamHome}`, process.execPath, path.join(ROOT, 'bin/seam.mjs'), 'plugin', 'new', 'outside-plugin'], temp)
    expect(created.code, created.out).toBe(0)
    const bundle = path.join(temp, 'outside-plugin')
    const manifest = JSON.parse(await readFile(path.join(bundle, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
    expect(manifest.devDependencies['@seam/sdk']).toBe(`file:vendor/${path.basename(tarball)}`)
    // No manual step and no registry: @seam/sdk from vendor/, everything else from npm's local cache (--offline).
    const installed = await exec('npm', ['install', '--offline', '--no-audit', '--no-fund'], bundle)
    expect(installed.code, installed.out).toBe(0)
    const sdkHere = await readFile(path.join(bundle, 'node_modules/@seam/sdk/package.json'), 'utf8')
    expect(JSON.parse(sdkHere)).toMatchObject({ name: '@seam/sdk', exports: { '.': { default: './dist/index.js' } } })

    const typechecked = await exec('npm', ['run', 'typecheck', '--silent'], bundle)
    expect(typechecked.code, typechecked.out).toBe(0)
    const built = await exec('npm', ['run', 'build', '--silent'], bundle)
    expect(built.code, built.out).toBe(0)
    const host = await readFile(path.join(bundle, 'dist/host.js'), 'utf8')
    for (const [, specifier] of host.matchAll(/^import\b[^'"]*['"]([^'"]+)['"]/gm)) expect(specifier).toMatch(/^node:/)
    expect(await readFile(path.join(bundle, 'dist/client.js'), 'utf8')).toContain('globalThis.__seamShared')
    const tested = await exec('npm', ['test', '--silent', '--', '--reporter=dot'], bundle)
    expect(tested.code, tested.out).toBe(0)
    expect(tested.out).toMatch(/2 passed/)
  }, 600_000)
})
