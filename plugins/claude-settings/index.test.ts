// The claude-settings plugin: its services, the trust dialog's items, and restarting with the
// workspace's trust (the workspace service is re-provided when trust changes).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TrustItem, WorkspaceService } from '@seam/sdk'
import { definePlugin, Kernel } from '@seam/sdk'
import claudeSettings from './index'

let dir: string
let ws: string
let user: string
let project: string
const providers = new Set<(root: string) => TrustItem[]>()

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-claude-settings-plugin-'))
  ws = join(dir, 'ws')
  mkdirSync(join(ws, '.claude'), { recursive: true })
  mkdirSync(join(dir, 'home', '.claude'), { recursive: true })
  user = join(dir, 'home', '.claude', 'settings.json')
  project = join(ws, '.claude', 'settings.json')
  providers.clear()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const workspacePlugin = definePlugin({
  name: 'test-workspace',
  apply(ctx, config: { trusted: boolean }) {
    const service: WorkspaceService = {
      root: ws,
      trusted: config.trusted,
      seamHome: dir,
      contributeTrustItems(owner, items) {
        providers.add(items)
        return owner.onDispose(() => providers.delete(items))
      },
      isApproved: () => config.trusted,
      itemsChanged: () => {},
      approveItems: () => {}
    }
    ctx.provide('workspace', service)
  }
})

describe('claude-settings plugin', () => {
  it('provides the env of the trusted files to settingsEnv (local > project > user), and re-reads when trust changes', () => {
    writeFileSync(user, JSON.stringify({ env: { A: 'user', B: 'user' } }))
    writeFileSync(project, JSON.stringify({ env: { B: 'project' }, permissions: { allow: ['Bash'] } }))
    const kernel = new Kernel()
    const workspace = kernel.plugin(workspacePlugin, { trusted: false })
    kernel.plugin(claudeSettings, { userSettingsPath: user })
    expect(kernel.getService('settingsEnv')!.vars()).toEqual({ A: 'user', B: 'user' })
    expect(kernel.getService('claudeSettings')!.snapshot().rules).toEqual([])
    workspace.update({ trusted: true })
    expect(kernel.getService('settingsEnv')!.vars()).toEqual({ A: 'user', B: 'project' })
    expect(kernel.getService('claudeSettings')!.snapshot().rules.map((r) => r.rule)).toEqual(['Bash'])
  })

  it('the trust dialog lists what trusting would apply: rules, defaultMode, folders and variable names (not values)', () => {
    writeFileSync(project, JSON.stringify({ permissions: { allow: ['Bash(npm *)'], deny: ['Read(./secrets/**)'], defaultMode: 'bypassPermissions', additionalDirectories: ['../lib'] }, env: { TOKEN: 's3cret' } }))
    const kernel = new Kernel()
    kernel.plugin(workspacePlugin, { trusted: false })
    kernel.plugin(claudeSettings, { userSettingsPath: user })
    const items = [...providers].flatMap((provide) => provide(ws))
    expect(items).toEqual([
      { source: 'Claude Code settings', file: project, event: 'permissions.allow', command: 'Bash(npm *)' },
      { source: 'Claude Code settings', file: project, event: 'permissions.deny', command: 'Read(./secrets/**)' },
      { source: 'Claude Code settings', file: project, event: 'permissions.defaultMode', command: 'bypassPermissions' },
      { source: 'Claude Code settings', file: project, event: 'permissions.additionalDirectories', command: join(dir, 'lib') },
      // The value only as a digest, for the pinned hash (issue 13).
      { source: 'Claude Code settings', file: project, event: 'env', command: 'TOKEN', content: expect.stringMatching(/^[0-9a-f]{64}$/) }
    ])
    expect(JSON.stringify(items)).not.toContain('s3cret')
  })

  it('a bad config fails at load, naming the field', () => {
    const kernel = new Kernel()
    kernel.plugin(workspacePlugin, { trusted: true })
    expect(() => kernel.plugin(claudeSettings, { userSettingsPath: '' })).toThrow(/userSettingsPath/)
  })
})
