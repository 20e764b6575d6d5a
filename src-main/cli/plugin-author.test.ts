// The author's loop end to end with the real CLI (`node bin/seam.mjs`, the built out/main/cli.js):
// `seam plugin new` scaffolds a bundle, its own build and tests run, `seam plugin pack` checks and
// packs it, `seam plugin install` installs it into a fresh Seam home, and `seam run` offers its
// tool to a model (a loopback server speaking OpenAI's protocol) and runs it through the loop.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { BundleNameSchema } from './plugin-author'
import { bundleFiles, SCAFFOLD_DEV_DEPENDENCIES, toolNameOf } from './plugin-templates'
import { ensureBuilt } from '../../test-support/built-cli'
import { seedSeamHome } from '../../test-support/packed-sdk'
import { scaledTestMs } from '../process/liveness'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SEAM_BIN = path.join(ROOT, 'bin/seam.mjs')
const NAME = 'char-count'
const TOOL = 'CharCount'

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

// The scaffold lives inside the repository (under out/) so that, like a bundle with @seam/sdk
// installed, it resolves @seam/sdk, vite, zod and vitest from node_modules.
let work: string
let seamHome: string
let workspace: string
let bundle: string
const seam = (cwd: string, ...args: string[]) => exec(process.execPath, [SEAM_BIN, ...args], cwd, { ...process.env, SEAM_HOME: seamHome })

beforeAll(async () => {
  await ensureBuilt()
  await mkdir(path.join(ROOT, 'out'), { recursive: true })
  work = await mkdtemp(path.join(ROOT, 'out', 'plugin-author-'))
  seamHome = path.join(work, 'home')
  workspace = path.join(work, 'workspace')
  bundle = path.join(work, NAME)
  await mkdir(seamHome)
  await mkdir(workspace)
  // The SDK packed once for the run (test-support/packed-sdk.ts), where `seam plugin new` takes one packed earlier.
  await seedSeamHome(seamHome)
}, scaledTestMs(300_000))

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('seam plugin new → build → test → pack → install → run', () => {
  it('scaffolds a bundle with both parts: package.json with seam entries and engines.seam, sources, a test, a build script, a README', async () => {
    const created = await seam(work, 'plugin', 'new', NAME)
    expect(created.code, created.stderr).toBe(0)
    expect((await readdir(bundle)).sort()).toEqual(['.gitignore', 'README.md', 'build.mjs', 'package-lock.json', 'package.json', 'src', 'tsconfig.json', 'vendor', 'vitest.config.mjs'])
    expect((await readdir(path.join(bundle, 'src'))).sort()).toEqual(['client.tsx', 'host.test.ts', 'host.ts'])
    const manifest = JSON.parse(await readFile(path.join(bundle, 'package.json'), 'utf8')) as Record<string, unknown>
    const sdkVersion = (JSON.parse(await readFile(path.join(ROOT, 'packages/sdk/package.json'), 'utf8')) as { version: string }).version
    expect(manifest).toMatchObject({ name: NAME, version: '0.1.0', engines: { seam: `^${sdkVersion}` }, seam: { host: 'dist/host.js', client: 'dist/client.js' }, keywords: ['seam-plugin'] })
    // @seam/sdk is not on the public registry: the running Seam's SDK is vendored as a file: dependency (issue 29).
    expect(manifest.devDependencies).toMatchObject({ '@seam/sdk': `file:vendor/seam-sdk-${sdkVersion}.tgz` })
    expect(await readdir(path.join(bundle, 'vendor'))).toEqual([`seam-sdk-${sdkVersion}.tgz`])
    // The lockfile names the vendored SDK and Seam's own versions of the rest (plugin-lockfile.ts).
    const lock = JSON.parse(await readFile(path.join(bundle, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; resolved?: string }> }
    expect(lock.packages['node_modules/@seam/sdk']).toMatchObject({ version: sdkVersion, resolved: `file:vendor/seam-sdk-${sdkVersion}.tgz` })
    expect(lock.packages['node_modules/zod']?.version).toBe(SCAFFOLD_DEV_DEPENDENCIES.zod)
    // A second `new` into the same folder refuses instead of overwriting.
    const again = await seam(work, 'plugin', 'new', NAME)
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('already exists')
  }, 120_000)

  it('builds with its own build script: the host entry imports only Node built-ins, the client entry no React', async () => {
    const built = await exec('npm', ['run', 'build', '--silent'], bundle)
    expect(built.code, built.stderr).toBe(0)
    const host = await readFile(path.join(bundle, 'dist/host.js'), 'utf8')
    for (const [, specifier] of host.matchAll(/^import\b[^'"]*['"]([^'"]+)['"]/gm)) expect(specifier).toMatch(/^node:/)
    const client = await readFile(path.join(bundle, 'dist/client.js'), 'utf8')
    expect(client).not.toMatch(/^import\b/m)
    expect(client).toContain('globalThis.__seamShared')
  }, 120_000)

  it('passes its own tests, which run the plugin on the real loop with a scripted model', async () => {
    const tested = await exec(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot'], bundle)
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/2 passed/)
  }, 120_000)

  it('packs after checking the manifest, installs, and `seam run` uses its tool through the loop', async () => {
    const packed = await seam(bundle, 'plugin', 'pack', '--out', work)
    expect(packed.code, packed.stderr).toBe(0)
    const tgz = packed.stdout.trim()
    expect(tgz).toBe(path.join(work, `${NAME}-0.1.0.tgz`))

    const installed = await seam(workspace, 'plugin', 'install', tgz)
    expect(installed.code, installed.stderr).toBe(0)
    expect(installed.stdout).toContain(`${NAME}@0.1.0`)

    const server = await startFakeOpenAI([{ toolCalls: [{ id: 'call_cc', name: TOOL, args: { text: 'héllo' } }] }, { text: 'Five characters.' }])
    try {
      const ran = await seam(workspace, 'run', '--json', '--approve', 'allow', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'fake-model', 'How long is héllo?')
      expect(ran.code, ran.stderr).toBe(0)
      expect(server.requests[0].body.tools?.map((t) => t.function.name)).toContain(TOOL)
      const events = ran.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(events.find((e) => e.type === 'tool/result')).toMatchObject({ name: TOOL, callId: 'call_cc', isError: false, content: '5 characters', structured: { characters: 5 } })
      expect(server.requests[1].body.messages.find((m) => m.role === 'tool')?.content).toBe('5 characters')
    } finally {
      await server.close()
    }
  }, 120_000)

  it('pack refuses a bundle whose manifest install would refuse, naming the field', async () => {
    const broken = path.join(work, 'broken')
    await mkdir(broken)
    await writeFile(path.join(broken, 'package.json'), JSON.stringify({ name: 'broken', version: '1.0.0', engines: { seam: '>=99' }, seam: { host: 'dist/host.js' } }))
    const packed = await seam(broken, 'plugin', 'pack')
    expect(packed.code).toBe(1)
    expect(packed.stderr).toMatch(/requires Seam >=99 \(engines\.seam\)/)
  })
})

describe('scaffold options', () => {
  it('--host or --client alone writes only that part', () => {
    const hostOnly = bundleFiles({ name: 'a', host: true, client: false, sdkVersion: '0.1.0' })
    expect(Object.keys(hostOnly)).toContain('src/host.ts')
    expect(Object.keys(hostOnly)).not.toContain('src/client.tsx')
    expect(JSON.parse(hostOnly['package.json']).seam).toEqual({ host: 'dist/host.js' })
    const clientOnly = bundleFiles({ name: 'a', host: false, client: true, sdkVersion: '0.1.0' })
    expect(Object.keys(clientOnly)).not.toContain('src/host.ts')
    expect(JSON.parse(clientOnly['package.json']).seam).toEqual({ client: 'dist/client.js' })
  })

  it("a new bundle's dev dependencies are the versions Seam itself pins", async () => {
    const root = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> }
    const pinned = { ...root.devDependencies, ...root.dependencies }
    for (const [name, version] of Object.entries(SCAFFOLD_DEV_DEPENDENCIES)) expect([name, version]).toEqual([name, pinned[name]])
    const both = JSON.parse(bundleFiles({ name: 'a', host: true, client: true, sdkVersion: '0.1.0' })['package.json']) as { devDependencies: Record<string, string> }
    expect(both.devDependencies).toEqual({ '@seam/sdk': '^0.1.0', ...SCAFFOLD_DEV_DEPENDENCIES })
    const hostOnly = JSON.parse(bundleFiles({ name: 'a', host: true, client: false, sdkVersion: '0.1.0' })['package.json']) as { devDependencies: Record<string, string> }
    expect(hostOnly.devDependencies['@types/react']).toBeUndefined()
  })

  it('names the tool after the bundle and refuses names npm would refuse', () => {
    expect(toolNameOf('@me/git-push-guard')).toBe('GitPushGuard')
    expect(BundleNameSchema.safeParse('@me/ok-name').success).toBe(true)
    expect(BundleNameSchema.safeParse('Bad Name').success).toBe(false)
    expect(BundleNameSchema.safeParse('../escape').success).toBe(false)
  })
})
