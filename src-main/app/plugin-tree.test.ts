// The settings page's plugin tree (issue 17, "Working fast": settings): each entry's state, the
// layer that decided it and its tools; toggling an entry (plugins/disable, plugins/enable through
// the router, what the tree's switch sends) writes the user's patch layer, unloads or loads the
// plugin live and survives a restart.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PluginTreeEntry } from '../../src-shared/contract/ipc'
import { definePlugin } from '../../src-shared/kernel'
import { terminalApprovalPlugin } from '../cli/terminal-approval'
import { createHost, type Host } from './host'
import { HostRuntime } from './runtime'

let home: string
let host: Host | undefined
const caller = { transport: 'web' as const }

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-plugin-tree-'))
})

afterEach(async () => {
  await host?.close()
  host = undefined
  await rm(home, { recursive: true, force: true })
})

const start = async () => (host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } }))

async function call<T>(method: string, input: unknown = {}): Promise<T> {
  const reply = await host!.router.invoke(method, input, caller)
  if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`)
  return reply.output as T
}

const tree = async () => (await call<{ entries: PluginTreeEntry[]; userLayer: string }>('plugins/tree'))
const entry = async (id: string) => (await tree()).entries.find((e) => e.id === id)
const offered = () => host!.runtime.kernel.getService('tools')?.specs().map((spec) => spec.name) ?? []

describe('plugins/tree', () => {
  it('lists every entry with its state, the base profile as its layer, its config and the tools it registered', async () => {
    await start()
    const { entries, userLayer } = await tree()
    expect(userLayer).toBe(join(home, 'cordis.patch.yml'))
    const tools = entries.find((e) => e.id === 'builtin-tools')
    expect(tools).toMatchObject({ plugin: 'builtin:builtin-tools', kind: 'builtin', state: 'active', layer: 'base', origin: expect.stringMatching(/^base profile entry \d+$/) })
    expect(tools?.tools).toEqual(expect.arrayContaining(['Read', 'Write', 'Edit', 'Bash']))
    expect(entries.find((e) => e.id === 'hooks-claude')?.config).toMatch(/concurrency: \d+/)
    expect(entries.find((e) => e.id === 'tools')?.tools).toEqual([])
  })

  it('disabling an entry writes the user patch layer, removes its tools from what the model is offered, survives a restart; enabling brings them back', async () => {
    await start()
    expect(offered()).toContain('Read')
    await call('plugins/disable', { name: 'builtin-tools' })
    expect(await readFile(join(home, 'cordis.patch.yml'), 'utf8')).toMatch(/- id: builtin-tools\s+disabled: true/)
    expect(await entry('builtin-tools')).toMatchObject({ state: 'disabled', layer: 'user', origin: `${join(home, 'cordis.patch.yml')}:1`, tools: [] })
    expect(offered()).not.toContain('Read')

    await host!.close()
    host = undefined
    await start()
    expect((await entry('builtin-tools'))?.state).toBe('disabled')
    expect(offered()).not.toContain('Read')

    await call('plugins/enable', { name: 'builtin-tools' })
    expect(await readFile(join(home, 'cordis.patch.yml'), 'utf8')).toMatch(/- id: builtin-tools\s+disabled: false/)
    expect(await entry('builtin-tools')).toMatchObject({ state: 'active', layer: 'user' })
    expect(offered()).toContain('Read')
    expect((await entry('builtin-tools'))?.tools).toContain('Read')
  })

  it('an entry a trusted workspace layer disables names that layer, and the user layer cannot override it', async () => {
    const workspace = join(home, 'ws')
    await mkdir(join(workspace, '.seam'), { recursive: true })
    await writeFile(join(workspace, '.seam', 'cordis.patch.yml'), '- id: tool-timeout\n  disabled: true\n')
    await writeFile(join(home, 'settings.json'), JSON.stringify({ workspace, trustedWorkspaces: [workspace] }))
    await start()
    expect(await entry('tool-timeout')).toMatchObject({ state: 'disabled', layer: 'workspace', origin: `${join(workspace, '.seam', 'cordis.patch.yml')}:1` })
    await expect(call('plugins/enable', { name: 'tool-timeout' })).rejects.toThrow(/disabled by a later patch layer/)
  })

  it('a failed entry carries the reason', async () => {
    const failing = definePlugin({ name: 'always-fails', apply() { throw new Error('cannot start: no config') } })
    const runtime = await HostRuntime.start({
      mode: 'headless',
      env: { ...process.env, SEAM_HOME: home, HOME: home },
      workspace: home,
      answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('deny') as never },
      extraEntries: [{ id: 'always-fails', key: 'test:always-fails', plugin: failing as never }]
    })
    try {
      expect(runtime.plugins.tree().entries.find((e) => e.id === 'always-fails')).toMatchObject({ state: 'failed', error: expect.stringContaining('cannot start: no config') })
    } finally {
      await runtime.close()
    }
  })
})
