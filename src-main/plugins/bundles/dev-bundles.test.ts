// The files `seam plugin dev` and running Hosts share in the Seam home: checked on read (a
// malformed file names the field), written whole, and entries of processes that are gone ignored.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildError } from '../../cli/plugin-dev'
import { readHostStates, readRegistered, registerDevBundle, registeredPath, unregisterDevBundle, writeHostState, type DevEntry } from './dev-bundles'

let home: string
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'seam-dev-bundles-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const entry = (over: Partial<DevEntry> = {}): DevEntry => ({ dir: '/srv/a', name: 'a', build: 1, ok: true, pid: process.pid, at: new Date(0).toISOString(), ...over })

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

describe('dev-bundles/registered.json', () => {
  it('is empty when never written, and keeps one entry per folder and name across builds', async () => {
    expect(await readRegistered(home)).toEqual([])
    await registerDevBundle(home, entry())
    await registerDevBundle(home, entry({ build: 2, ok: false, error: 'src/host.ts:1:1: Unexpected token' }))
    await registerDevBundle(home, entry({ dir: '/srv/b', name: 'b' }))
    expect((await readRegistered(home)).map((e) => [e.name, e.build, e.ok])).toEqual([
      ['a', 2, false],
      ['b', 1, true]
    ])
    await unregisterDevBundle(home, '/srv/a')
    expect((await readRegistered(home)).map((e) => e.name)).toEqual(['b'])
  })

  it('drops entries of dev sessions whose process is gone when another registers', async () => {
    await registerDevBundle(home, entry({ dir: '/srv/gone', name: 'gone', pid: await deadPid() }))
    await registerDevBundle(home, entry())
    expect((await readRegistered(home)).map((e) => e.name)).toEqual(['a'])
  })

  it('a malformed file is refused with the file and the field named, and a bad entry is never written', async () => {
    await mkdir(path.dirname(registeredPath(home)), { recursive: true })
    await writeFile(registeredPath(home), JSON.stringify({ version: 1, bundles: [{ ...entry(), build: -1 }] }))
    await expect(readRegistered(home)).rejects.toThrow(/registered\.json: bundles\[0\]\.build/)
    await writeFile(registeredPath(home), '{ not json')
    await expect(readRegistered(home)).rejects.toThrow(/registered\.json: not JSON/)
    await rm(registeredPath(home))
    await expect(registerDevBundle(home, entry({ dir: 'relative/path' }))).rejects.toThrow(/dev bundle entry: dir: must be an absolute path/)
    await expect(readFile(registeredPath(home), 'utf8')).rejects.toThrow(/ENOENT/)
  })
})

describe('dev-bundles/host-<pid>.json', () => {
  it('lists the states of running Hosts only', async () => {
    const report = { name: 'a', dir: '/srv/a', build: 3, state: 'loaded' as const, at: new Date(0).toISOString() }
    await writeHostState(home, { version: 1, pid: process.pid, mode: 'web', bundles: [report] })
    await writeHostState(home, { version: 1, pid: await deadPid(), mode: 'electron', bundles: [report] })
    expect((await readHostStates(home)).map((h) => [h.pid, h.mode])).toEqual([[process.pid, 'web']])
  })
})

describe('placing a build error', () => {
  it("takes the first error of Vite's output with its file, line and column", () => {
    const output = [
      '✗ Build failed in 150ms',
      'node:internal/modules/run_main:123',
      'Build failed with 1 error:',
      '',
      '[builtin:vite-transform] Unexpected token',
      '    ╭─[ src/host.ts:15:5 ]',
      ' 15 │     return { content: 1 }',
      '    at aggregateBindingErrorsIntoJsError (file:///x/node_modules/rolldown/dist/shared/error.mjs:50:18)'
    ].join('\n')
    expect(buildError(output, '/b')).toBe('src/host.ts:15:5: Unexpected token')
  })

  it('makes an absolute place relative to the bundle folder, and falls back to the message alone', () => {
    expect(buildError('Build failed with 1 error:\n[plugin x] Could not resolve "./missing"\n  /b/src/client.tsx:2:19', '/b')).toBe('src/client.tsx:2:19: Could not resolve "./missing"')
    expect(buildError('Build failed with 1 error:\nsomething broke', '/b')).toBe('something broke')
  })
})
