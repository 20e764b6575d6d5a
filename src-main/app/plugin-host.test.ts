// The running host's plugin tree: enable/disable of built-ins through the user's patch layer,
// and live edits of patch files (a bad edit keeps the last good tree and reports the error).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { terminalApprovalPlugin } from '../cli/terminal-approval'
import { hostSource, makeBundleDir } from '../../test-support/bundles'
import { HostRuntime } from './runtime'
import { status } from './handlers'

let home: string
let runtime: HostRuntime

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-plugin-host-'))
  runtime = await HostRuntime.start({
    mode: 'headless',
    env: { ...process.env, SEAM_HOME: home, HOME: home },
    workspace: home,
    answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('deny') as never }
  })
})

afterEach(async () => {
  await runtime.close()
  await rm(home, { recursive: true, force: true })
})

const stateOf = (id: string) => runtime.plugins.list().find((p) => p.id === id)?.state

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('plugin host', () => {
  it('every built-in part is a profile entry, active after start', () => {
    for (const id of ['models', 'model-openai', 'model-anthropic', 'tools', 'builtin-tools', 'permission-policy', 'workspace-guard', 'tool-timeout', 'approval', 'hooks-claude', 'hooks-codex', 'mcp', 'worktrees']) {
      expect(stateOf(id), id).toBe('active')
    }
  })

  it('disabling a built-in writes a row to the Seam home patch layer and unloads it; enabling loads it again', async () => {
    await runtime.plugins.setEnabled('hooks-codex', false)
    expect(stateOf('hooks-codex')).toBe('disabled')
    expect(await readFile(join(home, 'cordis.patch.yml'), 'utf8')).toMatch(/id: hooks-codex\s+disabled: true/)
    await runtime.plugins.setEnabled('hooks-codex', true)
    expect(stateOf('hooks-codex')).toBe('active')
    await expect(runtime.plugins.setEnabled('no-such-entry', false)).rejects.toThrow(/no plugin or profile entry named "no-such-entry"/)
  })

  it("the status's safetyOff names the safety entries switched off, as the tree shows them, and only those", async () => {
    expect((await status(runtime, 'web')).safetyOff).toEqual([])
    await runtime.plugins.setEnabled('permission-policy', false)
    await runtime.plugins.setEnabled('hooks-codex', false)
    expect((await status(runtime, 'web')).safetyOff).toEqual(['permission-policy'])
    const disabledInTree = runtime.plugins.tree().entries.filter((entry) => entry.state === 'disabled').map((entry) => entry.id)
    expect(disabledInTree.sort()).toEqual(runtime.plugins.disabledEntries().sort())
    await runtime.plugins.setEnabled('permission-policy', true)
    expect((await status(runtime, 'web')).safetyOff).toEqual([])
  })

  it('an edited patch file applies while running; a bad edit keeps the last good tree and names the file, line and field', async () => {
    const patch = join(home, 'cordis.patch.yml')
    await writeFile(patch, '- id: tool-timeout\n  disabled: true\n')
    await until(() => stateOf('tool-timeout') === 'disabled', 'the edit to apply')

    await writeFile(patch, '- id: tool-timeout\n  disabled: false\n- id: permission-policy\n  config:\n    mode: sometimes\n')
    await until(() => runtime.plugins.dump().error !== undefined, 'the bad edit to be reported')
    expect(runtime.plugins.dump().error).toMatch(new RegExp(`${patch}:\\d+.*mode`))
    expect(stateOf('tool-timeout')).toBe('disabled')
    expect(stateOf('permission-policy')).toBe('active')
  })

  it('recomposes one at a time: an earlier recompose that finishes late cannot undo a trust change', async () => {
    // A workspace patch that takes a while to read (a long comment), so the recompose that
    // still sees the workspace as trusted is the slower one.
    await mkdir(join(home, '.seam'))
    await writeFile(join(home, '.seam', 'cordis.patch.yml'), `${'# padding\n'.repeat(20_000)}- id: tool-timeout\n  disabled: true\n`)
    runtime.settings.update({ trustedWorkspaces: [home] })
    await runtime.plugins.recompose()
    expect(stateOf('tool-timeout')).toBe('disabled')

    const stale = runtime.plugins.recompose()
    runtime.settings.update({ trustedWorkspaces: [] })
    const fresh = runtime.plugins.recompose()
    await Promise.all([stale, fresh])
    expect(stateOf('tool-timeout')).toBe('active')
  })

  it('a recompose still running when the host closes does not bring plugins back', async () => {
    const running = runtime.plugins.recompose()
    runtime.plugins.close()
    await running
    expect(runtime.plugins.list().filter((p) => p.state === 'active')).toEqual([])
  })

  it('a damaged bundle lock file is reported, and the host still starts with its built-ins', async () => {
    const other = await mkdtemp(join(tmpdir(), 'seam-plugin-host-lock-'))
    try {
      await mkdir(join(other, 'plugins'))
      await writeFile(join(other, 'plugins', 'lock.json'), '{ "bundles": [ }')
      const started = await HostRuntime.start({
        mode: 'headless',
        env: { ...process.env, SEAM_HOME: other, HOME: other },
        workspace: other,
        answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('deny') as never }
      })
      try {
        expect(started.plugins.list().find((p) => p.id === 'tools')?.state).toBe('active')
        expect(started.logs().some((l) => l.level === 'error' && l.message.includes(join(other, 'plugins', 'lock.json')))).toBe(true)
      } finally {
        await started.close()
      }
    } finally {
      await rm(other, { recursive: true, force: true })
    }
  })
})

describe('client entries of bundles', () => {
  it('serve only real files inside an enabled bundle: no traversal, no link out', async () => {
    const { makeBundleDir } = await import('../../test-support/bundles')
    const { mkdir, symlink } = await import('node:fs/promises')
    const source = join(home, 'src-bundle')
    await mkdir(source, { recursive: true })
    await makeBundleDir(source, { name: 'client-only', version: '1.0.0', client: 'export default () => {}\n' })
    await runtime.plugins.install(source)
    const installed = runtime.plugins.bundles.get('client-only')!
    const entry = installed.manifest.client!
    expect(runtime.plugins.resolveClientFile('client-only', entry)).toMatch(new RegExp(`${entry}$`))
    expect(runtime.plugins.resolveClientFile('client-only', '../../settings.json')).toBeNull()
    await symlink('/etc/hostname', join(installed.dir, 'leak.js'))
    expect(runtime.plugins.resolveClientFile('client-only', 'leak.js')).toBeNull()
    expect(runtime.plugins.resolveClientFile('no-such-bundle', entry)).toBeNull()
    await runtime.plugins.setEnabled('client-only', false)
    expect(runtime.plugins.resolveClientFile('client-only', entry)).toBeNull()
  })

  it('a bundle whose installed host entry changed is not loaded at start: the plugin list shows the error naming it and how to reinstall (issue 13: Bundles)', async () => {
    const source = await makeBundleDir(join(home, 'src-watch'), { name: 'seam-watch', version: '1.0.0', host: hostSource('seam-watch'), client: 'export default {}' })
    await runtime.plugins.install(source)
    expect(stateOf('seam-watch')).toBe('active')
    await runtime.close()
    await writeFile(join(home, 'plugins', 'seam-watch@1.0.0', 'host.mjs'), 'export default { name: "evil", apply() {} }\n')
    runtime = await HostRuntime.start({
      mode: 'headless',
      env: { ...process.env, SEAM_HOME: home, HOME: home },
      workspace: home,
      answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('deny') as never }
    })
    const row = runtime.plugins.list().find((p) => p.name === 'seam-watch')
    expect(row).toMatchObject({ state: 'failed', error: expect.stringContaining(`seam plugin install ${source} --force`) })
    expect(row?.error).toContain('bundle seam-watch@1.0.0 was not loaded: its installed files do not match lock.json')
    // Neither its host part runs nor its client part is served.
    expect(runtime.plugins.clientEntries('web')).toEqual([])
    expect(runtime.plugins.resolveClientFile('seam-watch', 'client.mjs')).toBeNull()
    expect(runtime.logs().some((r) => r.level === 'error' && r.message.includes('seam-watch'))).toBe(true)
    // And every session says so (issue 25: `seam run` went on without it in silence).
    const session = await runtime.sessions.create(home)
    await session.agent.start()
    const notices = session.log.events.filter((e) => e.type === 'notice')
    expect(notices).toMatchObject([{ level: 'error', source: 'plugin-host', text: expect.stringContaining('bundle seam-watch: bundle seam-watch@1.0.0 was not loaded: its installed files do not match lock.json') }])
  })
})
