// `npm start` / `npm run dev` on a fresh install: the prestart/predev step runs Electron's own
// fetcher and, when it cannot fetch, stops with one plain message (issue: "the desktop app
// starts on a fresh install"). Each test builds a throwaway project whose node_modules/electron
// is a copy of the real package without its binary, and points the fetcher at a closed loopback
// port, so the failing path is real (Electron's install.js and @electron/get run) on any machine.
import { spawn } from 'node:child_process'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const realElectron = join(repo, 'node_modules/electron')

let project: string

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'seam-ensure-electron-'))
  const scripts = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')).scripts as Record<string, string>
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'fresh-install', private: true, type: 'module', scripts }))
  await mkdir(join(project, 'scripts'))
  await copyFile(join(repo, 'scripts/ensure-electron.mjs'), join(project, 'scripts/ensure-electron.mjs'))
  const electron = join(project, 'node_modules/electron')
  await mkdir(electron, { recursive: true })
  for (const file of ['package.json', 'install.js', 'checksums.json']) await copyFile(join(realElectron, file), join(electron, file))
  // The fetcher's own dependencies, as npm lays them out.
  for (const scope of ['@electron', '@electron-internal']) await symlink(join(repo, 'node_modules', scope), join(project, 'node_modules', scope), 'dir')
})

afterEach(async () => {
  await rm(project, { recursive: true, force: true })
})

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

function run(command: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined) childEnv[key] = value
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: project, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

async function offlineEnv(): Promise<Record<string, string | undefined>> {
  return {
    ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/`,
    electron_config_cache: join(project, 'electron-cache'),
    ELECTRON_EXEC_PATH: undefined,
    ELECTRON_OVERRIDE_DIST_PATH: undefined,
    ELECTRON_GET_USE_PROXY: undefined
  }
}

describe('npm start on a fresh install without a reachable Electron download', () => {
  it('stops before building with one plain message: what is missing, how to fetch it, and npm run web', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const result = await run(npm, ['start', '--silent'], await offlineEnv())
    expect(result.code).not.toBe(0)
    const version = JSON.parse(await readFile(join(realElectron, 'package.json'), 'utf8')).version as string
    expect(result.stdout).toContain(`Fetching the Electron ${version} binary`)
    const message = result.stderr
    expect(message).toContain(`needs the Electron ${version} binary`)
    expect(message).toContain(join(project, 'node_modules/electron/dist'))
    expect(message).toMatch(/Fetching it failed: \S/)
    expect(message).toContain('npx install-electron')
    expect(message).toContain('ELECTRON_MIRROR=')
    expect(message).toContain('ELECTRON_EXEC_PATH=')
    expect(message).toContain('`npm run web` serves the same UI')
    // One message, not a stack trace from the fetcher or electron-vite's "Electron uninstall".
    expect(message).not.toMatch(/^\s+at /m)
    expect(message).not.toContain('Electron uninstall')
    expect(message.match(/needs the Electron/g)).toHaveLength(1)
    // The start script itself (electron-vite build) never ran.
    expect(result.stdout).not.toContain('electron-vite')
  })

  it('npm run dev stops the same way', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const result = await run(npm, ['run', 'dev', '--silent'], await offlineEnv())
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('`npm run web` serves the same UI')
  })

  it('names an ELECTRON_EXEC_PATH that is not a file, without fetching anything', async () => {
    const missing = join(project, 'no-such-electron')
    const result = await run(process.execPath, ['scripts/ensure-electron.mjs'], { ...(await offlineEnv()), ELECTRON_EXEC_PATH: missing })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`ELECTRON_EXEC_PATH names ${missing}, which is not a file`)
    expect(result.stdout).not.toContain('Fetching')
  })

  it('passes at once, without the network, when the binary is already in place', async () => {
    const dist = join(project, 'node_modules/electron/dist')
    await mkdir(dist)
    await writeFile(join(dist, 'electron'), '#!/bin/sh\n')
    await chmod(join(dist, 'electron'), 0o755)
    await writeFile(join(project, 'node_modules/electron/path.txt'), 'electron')
    const result = await run(process.execPath, ['scripts/ensure-electron.mjs'], await offlineEnv())
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
  })

  it('passes with ELECTRON_EXEC_PATH naming an existing executable', async () => {
    const binary = join(project, 'my-electron')
    await writeFile(binary, '#!/bin/sh\n')
    const result = await run(process.execPath, ['scripts/ensure-electron.mjs'], { ...(await offlineEnv()), ELECTRON_EXEC_PATH: binary })
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
  })

  it('npm start builds once: electron-vite build, then preview with --skipBuild (preview would build again)', async () => {
    const scripts = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')).scripts as Record<string, string>
    expect(scripts.prestart).toBe('node scripts/ensure-electron.mjs')
    expect(scripts.predev).toBe('node scripts/ensure-electron.mjs')
    const steps = scripts.start!.split('&&').map((step) => step.trim())
    expect(steps.filter((step) => /^electron-vite (build|preview)\b/.test(step) && !step.includes('--skipBuild'))).toEqual(['electron-vite build'])
    expect(steps.at(-1)).toBe('electron-vite preview --skipBuild')
  })
})
