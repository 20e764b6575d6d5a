// The import walls (scripts/import-walls.ts) over the whole source tree, and the rules themselves.
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkFile, importsOf, type Violation, type WallOptions } from './import-walls'

const root = path.resolve(import.meta.dirname, '..')
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>
const options: WallOptions = { root, packages: new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]) }

/**
 * Known breaches, each with why it is still there. The test fails when one disappears, so the
 * list shrinks as they are fixed. Keys: `file -> specifier`.
 */
const KNOWN: Record<string, string> = {
  'plugins/claude-settings/read.ts -> ../hooks-claude/settings-loader':
    "claude-settings reads Claude Code's settings files with the hooks bridge's loader (one reader, same trust and validation); the loader belongs in a library both import"
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(full)
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full
  }
}

describe('import walls', () => {
  it('hold across src-shared, src-main, src-renderer, src-preload, plugins and examples', () => {
    const found: Violation[] = []
    for (const dir of ['src-shared', 'src-main', 'src-renderer', 'src-preload', 'plugins', 'examples']) {
      for (const file of sources(path.join(root, dir))) {
        const rel = path.relative(root, file).split(path.sep).join('/')
        found.push(...checkFile(rel, readFileSync(file, 'utf8'), options))
      }
    }
    const unexpected = found.filter((v) => !(`${v.file} -> ${v.specifier}` in KNOWN)).map((v) => `${v.file}:${v.line} ${v.specifier}: ${v.rule}`)
    expect(unexpected).toEqual([])
    const stale = Object.keys(KNOWN).filter((key) => !found.some((v) => `${v.file} -> ${v.specifier}` === key))
    expect(stale, 'fixed breaches to remove from KNOWN').toEqual([])
  })
})

describe('wall rules', () => {
  const check = (rel: string, text: string) => checkFile(rel, text, options).map((v) => v.rule)

  it('a plugin importing the host (src-main) or the renderer is refused; the SDK, its own files and npm packages are not', () => {
    expect(check('plugins/x/index.ts', "import { Agent } from '../../src-main/agent'")).toHaveLength(1)
    expect(check('plugins/x/index.ts', "import type { TrustItem } from '../../src-main/app/plugin-host'")).toHaveLength(1)
    expect(check('examples/w/src/client.tsx', "import { x } from '../../../src-renderer/plugins/sdk'")).toHaveLength(1)
    expect(check('plugins/x/index.ts', "import { Kernel } from '../../src-shared/kernel'")).toHaveLength(1)
    expect(check('plugins/x/index.ts', "declare module '../../src-shared/kernel/types' { interface Services {} }")).toHaveLength(1)
    expect(check('plugins/x/a.ts', "import { definePlugin } from '@seam/sdk'\nimport { watchPatchFiles } from '@seam/sdk/node'\nimport { z } from 'zod'\nimport { b } from './b'\nimport fs from 'node:fs'")).toEqual([])
    expect(check('plugins/x/a.ts', "import { thing } from 'left-pad'")).toHaveLength(1)
  })

  it('only tests of a plugin may import test-support; another plugin only for its types, in tests, or when it is a library', () => {
    expect(check('plugins/x/a.test.ts', "import { ScriptedModel } from '../../test-support/scripted-model'")).toEqual([])
    expect(check('plugins/x/a.ts', "import { ScriptedModel } from '../../test-support/scripted-model'")).toHaveLength(1)
    expect(check('plugins/x/a.ts', "import type { ClaudeSettingsSnapshot } from '../claude-settings/read'")).toEqual([])
    expect(check('plugins/x/a.ts', "import { readClaudeSettings } from '../claude-settings/read'")).toHaveLength(1)
    expect(check('plugins/x/a.ts', "import { runCommandHook } from '../hook-protocol'")).toEqual([])
  })

  it('src-shared stays free of the host, the renderer and Node; the renderer never imports the host', () => {
    expect(check('src-shared/kernel/x.ts', "import { readFile } from 'node:fs/promises'")).toHaveLength(1)
    expect(check('src-shared/kernel/x.ts', "import { y } from '../../src-main/app/runtime'")).toHaveLength(1)
    expect(check('src-renderer/App.tsx', "import { y } from '../src-main/app/runtime'")).toHaveLength(1)
    expect(check('src-renderer/App.tsx', "import { y } from '../src-shared/contract/ipc'")).toEqual([])
    expect(check('src-renderer/transport/ws-client.test.ts', "import { y } from '../../src-main/transport/ws-server'")).toEqual([])
  })

  it('electron is imported only by src-main/electron and the preload; the preload imports only electron and the channel names', () => {
    expect(check('src-main/app/x.ts', "import { app } from 'electron'")).toHaveLength(1)
    expect(check('src-main/electron/main.ts', "import { app } from 'electron'")).toEqual([])
    expect(check('src-preload/index.ts', "import { contextBridge } from 'electron'\nimport { IPC_PUSH_CHANNEL } from '../src-shared/contract/channels'")).toEqual([])
    expect(check('src-preload/index.ts', "import { x } from '../src-shared/contract/ipc'")).toHaveLength(1)
  })

  it('sees dynamic imports, require, export-from and import types, and tells type-only references apart', () => {
    const refs = importsOf('a.ts', "import type { A } from 'a'\nimport { type B } from 'b'\nimport { C } from 'c'\nexport * from 'd'\nconst e = await import('e')\ntype F = import('f').F\nconst g = require('g')")
    expect(refs.map((r) => [r.specifier, r.typeOnly])).toEqual([['a', true], ['b', true], ['c', false], ['d', false], ['e', false], ['f', true], ['g', false]])
  })
})
