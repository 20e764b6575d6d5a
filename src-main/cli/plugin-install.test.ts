// The example bundle, built by scripts/build-example.mjs and packed with npm, installed and used
// through the real CLI (`node bin/seam.mjs`, i.e. the built out/main/cli.js) in a fresh Seam home.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildExample } from '../../scripts/build-example.mjs'
import type * as ExampleClient from '../../examples/word-count/src/client'
import type { ClientContext, PanelContribution, ToolResultRenderer } from '../../src-renderer/plugins/sdk'
import { registerSharedModules } from '../../src-renderer/plugins/shared-modules'
import { hostSource, makeBundleDir } from '../../test-support/bundles'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { ensureBuilt } from '../../test-support/built-cli'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SEAM_BIN = path.join(ROOT, 'bin/seam.mjs')
const NAME = 'seam-example-word-count'

interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

function runNode(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

let work: string
let seamHome: string
let workspace: string
let tgz: string
let bundleDir: string
let seamVersion: string

/** `seam ARGS` with SEAM_HOME set to this file's fresh home, run from the temp workspace. */
function seam(...args: string[]): Promise<CliResult> {
  return runNode([SEAM_BIN, ...args], { cwd: workspace, env: { ...process.env, SEAM_HOME: seamHome } })
}

async function listLine(): Promise<string | undefined> {
  const list = await seam('plugin', 'list')
  expect(list.code, list.stderr).toBe(0)
  return list.stdout.split('\n').find((line) => line.startsWith(`${NAME} `))
}

interface LockFile {
  bundles: Array<{ name: string; version: string; integrity: string; source: string; enabled: boolean }>
}

async function readLockFile(): Promise<LockFile> {
  return JSON.parse(await readFile(path.join(seamHome, 'plugins', 'lock.json'), 'utf8')) as LockFile
}

/** One `seam run --json` against a fake OpenAI-compatible server; returns the session events. */
async function runWithFakeModel(script: Parameters<typeof startFakeOpenAI>[0], prompt: string) {
  const server = await startFakeOpenAI(script)
  try {
    const result = await seam(
      'run', '--json', '--approve', 'allow', '--workspace', workspace,
      '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'fake-model',
      prompt
    )
    const events = result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
    return { result, events, requests: server.requests }
  } finally {
    await server.close()
  }
}

beforeAll(async () => {
  await ensureBuilt()
  // engines.seam is checked against the plugin API's version (packages/sdk), which the refusal names.
  seamVersion = (JSON.parse(await readFile(path.join(ROOT, 'packages', 'sdk', 'package.json'), 'utf8')) as { version: string }).version
  work = await mkdtemp(path.join(tmpdir(), 'seam-plugin-install-'))
  seamHome = path.join(work, 'home')
  workspace = path.join(work, 'workspace')
  await mkdir(seamHome)
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'notes.txt'), 'The quick brown fox\njumps over the lazy dog.\nÉtoile ✓\n')
  const built = await buildExample({ outDir: path.join(work, 'build') })
  tgz = built.tgz
  bundleDir = built.dir
}, 120_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the example bundle build', () => {
  it('packs package.json, the README and both entries', async () => {
    expect(path.basename(tgz)).toBe(`${NAME}-1.0.0.tgz`)
    const manifest = JSON.parse(await readFile(path.join(bundleDir, 'package.json'), 'utf8')) as Record<string, unknown>
    expect(manifest).toMatchObject({ name: NAME, version: '1.0.0', type: 'module', engines: { seam: '>=0.1.0 <1.0.0' }, seam: { host: 'dist/host.js', client: 'dist/client.js' } })
    expect((await readdir(path.join(bundleDir, 'dist'))).sort()).toEqual(['client.js', 'host.js'])
  })

  it('bundles zod into the host entry, which imports only Node built-ins', async () => {
    const host = await readFile(path.join(bundleDir, 'dist/host.js'), 'utf8')
    const imports = [...host.matchAll(/^import\b[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1])
    expect(imports.length).toBeGreaterThan(0)
    for (const specifier of imports) expect(specifier).toMatch(/^node:/)
  })

  it('keeps React out of the client entry and uses the app\'s shared instances', async () => {
    const client = await readFile(path.join(bundleDir, 'dist/client.js'), 'utf8')
    expect(client).not.toMatch(/^import\b/m)
    expect(client).not.toContain('react.transitional.element')
    expect(client).toContain('globalThis.__seamShared')

    registerSharedModules()
    const mod = (await import(/* @vite-ignore */ pathToFileURL(path.join(bundleDir, 'dist/client.js')).href)) as typeof ExampleClient
    const panels: PanelContribution[] = []
    const renderers = new Map<string, ToolResultRenderer>()
    const ctx: ClientContext = {
      plugin: NAME,
      slots: {
        sidebarPanel: (panel) => (panels.push(panel), () => {}),
        settingsPage: () => () => {},
        statusItem: () => () => {},
        toolResultRenderer: (tool, render) => (renderers.set(tool, render), () => {})
      },
      rpc: async <T,>(): Promise<T> => ({ runs: 2 }) as T,
      onSessionEvent: () => () => {}
    }
    const dispose = mod.default(ctx)
    expect(typeof dispose).toBe('function')
    expect(panels.map((p) => p.title)).toEqual(['Word count'])
    expect(renderToStaticMarkup(panels[0].render())).toContain('data-testid="word-count-panel"')

    const render = renderers.get('WordCount')!
    const call = { name: 'WordCount', callId: 'c1', args: { file_path: 'a.txt' } }
    const table = renderToStaticMarkup(
      render({ call, result: { content: 'a.txt: 2 lines', isError: false, structured: { file: 'a.txt', lines: 2, words: 7, chars: 30, bytes: 31 }, durationMs: 1 } })
    )
    expect(table).toContain('data-testid="word-count-result"')
    expect(table).toContain('<caption>a.txt</caption>')
    expect(table).toContain('<td data-field="words">7</td>')
    // Unexpected data is shown as the plain result text, not trusted.
    const fallback = renderToStaticMarkup(render({ call, result: { content: 'a.txt: no such file', isError: true, durationMs: 1 } }))
    expect(fallback).toContain('a.txt: no such file')
  })
})

describe('seam plugin install / list / enable / disable / remove with the example bundle', () => {
  it('installs the packed bundle, lists it active and records it in the lock file', async () => {
    const installed = await seam('plugin', 'install', tgz)
    expect(installed.code, installed.stderr).toBe(0)
    expect(installed.stdout).toContain(`${NAME}@1.0.0`)
    expect(installed.stderr).toMatch(/trusted code/)

    expect(await listLine()).toMatch(new RegExp(`^${NAME}\\s+bundle\\s+1\\.0\\.0\\s+active\\s*$`))

    const lock = await readLockFile()
    const entry = lock.bundles.find((b) => b.name === NAME)
    const expected = `sha512-${createHash('sha512').update(await readFile(tgz)).digest('base64')}`
    expect(entry).toMatchObject({ name: NAME, version: '1.0.0', integrity: expected, source: tgz, enabled: true })
  })

  it('`seam run` offers the bundle\'s WordCount tool to the model and runs it in the workspace', async () => {
    const { result, events, requests } = await runWithFakeModel(
      [{ toolCalls: [{ id: 'call_wc', name: 'WordCount', args: { file_path: 'notes.txt' } }] }, { text: 'Three lines.' }],
      'How long is notes.txt?'
    )
    expect(result.code, result.stderr).toBe(0)
    expect(requests[0].body.tools?.map((t) => t.function.name)).toContain('WordCount')
    const toolResult = events.find((e) => e.type === 'tool/result')
    expect(toolResult).toMatchObject({
      name: 'WordCount',
      callId: 'call_wc',
      isError: false,
      content: 'notes.txt: 3 lines, 11 words, 54 characters',
      structured: { file: 'notes.txt', lines: 3, words: 11, chars: 54, bytes: 57 }
    })
    // The model got the tool's result back before answering.
    const toolMessage = requests[1].body.messages.find((m) => m.role === 'tool')
    expect(toolMessage?.content).toBe('notes.txt: 3 lines, 11 words, 54 characters')
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'completed' })
  })

  it('WordCount refuses a file outside the workspace', async () => {
    await writeFile(path.join(work, 'outside.txt'), 'secret\n')
    const { result, events } = await runWithFakeModel(
      [{ toolCalls: [{ name: 'WordCount', args: { file_path: '../outside.txt' } }] }, { text: 'Could not.' }],
      'Count ../outside.txt'
    )
    expect(result.code, result.stderr).toBe(0)
    const toolResult = events.find((e) => e.type === 'tool/result')
    expect(toolResult).toMatchObject({ name: 'WordCount', isError: true })
    expect(String(toolResult?.content)).toContain('not inside the workspace')
  })

  it('disable takes the bundle and its tool out; enable brings them back', async () => {
    const disabled = await seam('plugin', 'disable', NAME)
    expect(disabled.code, disabled.stderr).toBe(0)
    expect(await listLine()).toMatch(new RegExp(`^${NAME}\\s+bundle\\s+1\\.0\\.0\\s+disabled\\s*$`))
    expect((await readLockFile()).bundles.find((b) => b.name === NAME)?.enabled).toBe(false)
    const { result, requests } = await runWithFakeModel([{ text: 'ok' }], 'hello')
    expect(result.code, result.stderr).toBe(0)
    expect(requests[0].body.tools?.map((t) => t.function.name)).not.toContain('WordCount')

    const enabled = await seam('plugin', 'enable', NAME)
    expect(enabled.code, enabled.stderr).toBe(0)
    expect(await listLine()).toMatch(new RegExp(`^${NAME}\\s+bundle\\s+1\\.0\\.0\\s+active\\s*$`))
  })

  it('remove deletes the bundle, its lock entry and its folder', async () => {
    const removed = await seam('plugin', 'remove', NAME)
    expect(removed.code, removed.stderr).toBe(0)
    expect(await listLine()).toBeUndefined()
    expect((await readLockFile()).bundles.map((b) => b.name)).not.toContain(NAME)
    expect((await readdir(path.join(seamHome, 'plugins'))).filter((f) => f.startsWith(NAME))).toEqual([])
  })

  it('refuses a bundle whose engines.seam excludes this Seam, naming both versions, and leaves nothing behind', async () => {
    const dir = await makeBundleDir(path.join(work, 'future-bundle'), {
      name: 'seam-future-bundle',
      version: '2.0.0',
      enginesSeam: '>=2.0.0',
      host: hostSource('seam-future-bundle')
    })
    const refused = await seam('plugin', 'install', dir)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('>=2.0.0')
    expect(refused.stderr).toContain(`Seam ${seamVersion}`)
    expect((await readLockFile()).bundles.map((b) => b.name)).not.toContain('seam-future-bundle')
    expect((await readdir(path.join(seamHome, 'plugins'))).filter((f) => f.startsWith('seam-future-bundle'))).toEqual([])
    expect(await listLine()).toBeUndefined()
  })
})
