// The policy with Claude Code's `permissions` (claude-code-hooks.md §5.1, §7, §9.8): rules from the
// settings files next to its own, deny > ask > allow whatever the source, `defaultMode` mapped onto
// Seam's modes (the command line still wins), and the list of rules in force with their origin.
// Real plugins throughout: the tools registry, claude-settings reading temp files, the policy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { WorkspaceService } from '@seam/sdk'
import { toolsPlugin } from '@seam/sdk/testing'
import { definePlugin, Kernel } from '@seam/sdk'
import claudeSettings from '../claude-settings/index'
import permissionPolicy, { MODE_TO_CLAUDE, type PermissionPolicyConfig } from './index'

let dir: string
let ws: string
let files: { user: string; project: string; local: string }

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-policy-claude-'))
  ws = join(dir, 'ws')
  mkdirSync(join(ws, '.claude'), { recursive: true })
  mkdirSync(join(dir, 'home', '.claude'), { recursive: true })
  files = { user: join(dir, 'home', '.claude', 'settings.json'), project: join(ws, '.claude', 'settings.json'), local: join(ws, '.claude', 'settings.local.json') }
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (which: keyof typeof files, content: unknown) => writeFileSync(files[which], JSON.stringify(content))

const workspacePlugin = definePlugin({
  name: 'test-workspace',
  apply(ctx, config: { root: string; trusted: boolean }) {
    const service: WorkspaceService = { root: config.root, trusted: config.trusted, seamHome: dir, contributeTrustItems: (owner) => owner.onDispose(() => {}), isApproved: () => config.trusted, itemsChanged: () => {}, approveItems: () => {} }
    ctx.provide('workspace', service)
  }
})

function setup(policy: Partial<PermissionPolicyConfig> = {}, trusted = true) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  const tools = kernel.getService('tools')!
  const text = z.object({ command: z.string().optional(), file_path: z.string().optional(), url: z.string().optional() })
  for (const [name, sideEffects] of [['Bash', true], ['Read', false], ['Edit', true], ['Write', true], ['WebFetch', true], ['mcp__server__tool', true], ['mcp__server__other', true], ['mcp__else__tool', true]] as const) {
    tools.register({ name, description: name, inputSchema: text, sideEffects, execute: () => ({ content: 'ran' }) })
  }
  kernel.plugin(workspacePlugin, { root: ws, trusted })
  kernel.plugin(claudeSettings, { userSettingsPath: files.user })
  kernel.plugin(permissionPolicy, policy)
  const asked: string[] = []
  kernel.context.on('approval/request', async (req) => (asked.push(req.reason), { outcome: 'denied' }))
  const run = async (name: string, args: Record<string, string>) => {
    const out = await tools.execute({ name, args, callId: 'c', sessionId: 's', turnId: 't', cwd: ws })
    return out.verdict.stage === 'approval' ? 'ask' : out.verdict.outcome === 'allowed' ? 'allow' : 'deny'
  }
  const lastReason = async (name: string, args: Record<string, string>) => (await tools.execute({ name, args, callId: 'c', sessionId: 's', turnId: 't', cwd: ws })).verdict.reason
  return { kernel, run, asked, lastReason, inForce: () => kernel.getService('permissionPolicy')!.inForce() }
}

describe('Claude Code permission rules in the policy (§9.8)', () => {
  it("the issue's rule syntax: Bash prefixes, path globs, WebFetch domains, MCP tools and servers, bare names", async () => {
    write('user', { permissions: { allow: ['Bash(npm run test:*)', 'Edit(src/**)', 'WebFetch(domain:example.com)', 'mcp__server__tool'], deny: ['Read(./secrets/**)', 'mcp__else__*'] } })
    write('project', { permissions: { ask: ['Bash(git push:*)'], deny: ['Write'] } })
    const { run } = setup({ mode: 'ask-all' })
    expect(await run('Bash', { command: 'npm run test --watch' })).toBe('allow')
    expect(await run('Bash', { command: 'npm run testing' })).toBe('ask')
    expect(await run('Bash', { command: 'git push origin main' })).toBe('ask')
    expect(await run('Edit', { file_path: join(ws, 'src', 'a.ts') })).toBe('allow')
    expect(await run('Edit', { file_path: join(ws, 'test', 'a.ts') })).toBe('ask')
    expect(await run('Write', { file_path: join(ws, 'src', 'new.ts') })).toBe('deny')
    expect(await run('WebFetch', { url: 'https://docs.example.com/x' })).toBe('allow')
    expect(await run('WebFetch', { url: 'https://example.org/' })).toBe('ask')
    expect(await run('Read', { file_path: join(ws, 'secrets', 'key.pem') })).toBe('deny')
    expect(await run('Read', { file_path: join(ws, 'README.md') })).toBe('ask')
    expect(await run('mcp__server__tool', {})).toBe('allow')
    expect(await run('mcp__server__other', {})).toBe('ask')
    expect(await run('mcp__else__tool', {})).toBe('deny')
  })

  it('§7: deny > ask > allow whatever the file: a user allow does not beat a project ask, nor a local deny', async () => {
    write('user', { permissions: { allow: ['Bash'] } })
    write('project', { permissions: { ask: ['Bash(git *)'] } })
    write('local', { permissions: { deny: ['Bash(git push *)'] } })
    const { run, asked, lastReason } = setup({ mode: 'never-ask' })
    expect(await run('Bash', { command: 'ls' })).toBe('allow')
    expect(await run('Bash', { command: 'git status' })).toBe('ask')
    expect(asked).toEqual([`calls matching "Bash(git *)" ask first (permissions.ask[0] in ${files.project})`])
    expect(await run('Bash', { command: 'git push origin' })).toBe('deny')
    expect(await lastReason('Bash', { command: 'git push origin' })).toBe(`the permission policy denies calls matching "Bash(git push *)" (permissions.deny[0] in ${files.local})`)
  })

  it("an untrusted workspace's rules are not applied; the user's are", async () => {
    write('user', { permissions: { deny: ['Bash(rm *)'] } })
    write('project', { permissions: { allow: ['Bash'] } })
    const { run } = setup({ mode: 'ask-side-effects' }, false)
    expect(await run('Bash', { command: 'ls' })).toBe('ask')
    expect(await run('Bash', { command: 'rm -rf x' })).toBe('deny')
  })

  it.each([
    ['default', 'ask-side-effects', ['ask', 'ask', 'allow']],
    ['acceptEdits', 'accept-edits', ['ask', 'allow', 'allow']],
    ['bypassPermissions', 'never-ask', ['allow', 'allow', 'allow']],
    ['dontAsk', 'dont-ask', ['deny', 'deny', 'allow']],
    ['plan', 'plan', ['deny', 'deny', 'allow']]
  ] as const)('defaultMode %s is Seam mode %s: Bash, Edit, Read -> %j', async (claudeMode, seamMode, expected) => {
    write('project', { permissions: { defaultMode: claudeMode } })
    const { run, inForce } = setup({ mode: 'ask-all' })
    expect(inForce().mode).toEqual({ mode: seamMode, source: 'project', file: files.project, claudeMode })
    expect([await run('Bash', { command: 'ls' }), await run('Edit', { file_path: join(ws, 'a') }), await run('Read', { file_path: join(ws, 'a') })]).toEqual(expected)
    expect(MODE_TO_CLAUDE[seamMode]).toBe(claudeMode)
  })

  it('the command-line mode (--approve) wins over defaultMode; without a defaultMode the Seam setting applies', async () => {
    write('local', { permissions: { defaultMode: 'plan' } })
    const cli = setup({ mode: 'never-ask', modeFromCommandLine: true })
    expect(cli.inForce().mode).toEqual({ mode: 'never-ask', source: 'command line' })
    expect(await cli.run('Bash', { command: 'ls' })).toBe('allow')
    rmSync(files.local)
    expect(setup({ mode: 'ask-all' }).inForce().mode).toEqual({ mode: 'ask-all', source: 'seam' })
  })

  it('lists the rules in force with where each came from, and the ignored ones as warnings', () => {
    write('user', { permissions: { allow: ['Read', 'Bash(oops'] } })
    write('project', { permissions: { deny: ['Bash(rm *)'], additionalDirectories: ['../lib'] } })
    const { inForce } = setup({ allow: ['Bash(git status)'] })
    const state = inForce()
    expect(state.rules).toEqual([
      { behavior: 'deny', rule: 'Bash(rm *)', source: 'project', file: files.project, index: 0 },
      { behavior: 'allow', rule: 'Bash(git status)', source: 'seam', file: 'permission-policy config', index: 0 },
      { behavior: 'allow', rule: 'Read', source: 'user', file: files.user, index: 0 }
    ])
    expect(state.additionalDirectories.map((d) => d.resolved)).toEqual([join(dir, 'lib')])
    expect(state.warnings).toEqual([`Claude Code settings: ${files.user}: permissions.allow[1] invalid permission rule "Bash(oops": expected Tool or Tool(specifier); this rule is ignored`])
  })

  it('§2.1 live edits: a rule added to a settings file applies to the next call', async () => {
    const { kernel, run } = setup({ mode: 'never-ask' })
    expect(await run('Bash', { command: 'rm x' })).toBe('allow')
    const service = kernel.getService('claudeSettings')!
    await service.watching
    const changed = new Promise<void>((resolve) => service.onChange(() => resolve()))
    write('project', { permissions: { deny: ['Bash(rm *)'] } })
    await changed
    expect(await run('Bash', { command: 'rm x' })).toBe('deny')
  })

  it('§6 PreToolUse: a bare deny rule takes the tool off the model\'s list; a call to it is unavailable before any hook', async () => {
    write('user', { permissions: { deny: ['Bash', 'mcp__server', 'Edit(src/**)'] } })
    const { kernel, run, lastReason } = setup({ mode: 'never-ask' })
    const preExecuteSaw: string[] = []
    kernel.plugin({ name: 'hook-like', apply: (ctx) => void ctx.on('tools/pre-execute', async (call, next) => (preExecuteSaw.push(call.name), next())) })
    const offered = kernel.getService('tools')!.specs().map((spec) => spec.name)
    expect(offered).toEqual(['Read', 'Edit', 'Write', 'WebFetch', 'mcp__else__tool'])
    const out = await kernel.getService('tools')!.execute({ name: 'Bash', args: { command: 'ls' }, callId: 'c', sessionId: 's', turnId: 't', cwd: ws })
    expect(out.result).toMatchObject({ content: 'No such tool available: Bash', isError: true, code: 'UNKNOWN_TOOL' })
    expect(await lastReason('mcp__server__tool', {})).toBe(`mcp__server__tool is disabled by the deny rule "mcp__server" (permissions.deny[1] in ${files.user})`)
    expect(await run('Edit', { file_path: join(ws, 'README.md') })).toBe('allow')
    expect(preExecuteSaw).toEqual(['Edit'])
  })

  it('with claudeSettings: false the settings files are not applied', async () => {
    write('user', { permissions: { deny: ['Bash'] } })
    const { run } = setup({ mode: 'never-ask', claudeSettings: false })
    expect(await run('Bash', { command: 'ls' })).toBe('allow')
  })
})
