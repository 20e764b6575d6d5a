import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { JsonObject, SealedCall } from '@seam/sdk'
import { Kernel, PluginConfigError } from '@seam/sdk'
import workspaceGuard from './index'

let base: string
let ws: string
let outside: string
let kernel: Kernel

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'seam-guard-')))
  ws = path.join(base, 'ws')
  outside = path.join(base, 'outside')
  await fs.mkdir(path.join(ws, 'src'), { recursive: true })
  await fs.mkdir(outside)
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret')
  kernel = new Kernel()
})
afterEach(async () => {
  kernel.dispose()
  await fs.rm(base, { recursive: true, force: true })
})

function call(name: string, args: JsonObject, cwd = ws): SealedCall {
  return Object.freeze({ name, args: Object.freeze(args), token: 't1', callId: 'c1', sessionId: 's1', cwd })
}

function check(name: string, args: JsonObject, cwd = ws): string | undefined {
  return kernel.checkGuards('tools', call(name, args, cwd))
}

describe('workspace-guard (S12)', () => {
  it('allows file tools inside the session directory, relative or absolute, existing or not', () => {
    kernel.plugin(workspaceGuard, {})
    expect(check('Read', { file_path: path.join(ws, 'src/a.ts') })).toBeUndefined()
    expect(check('Write', { file_path: 'src/new/dir/b.ts', content: '' })).toBeUndefined()
    expect(check('Edit', { file_path: './src/../c.ts', old_string: 'a', new_string: 'b' })).toBeUndefined()
    expect(check('Glob', { pattern: '**/*.ts' })).toBeUndefined()
    expect(check('Grep', { pattern: 'x', path: 'src' })).toBeUndefined()
  })

  it.each([
    ['Read', { file_path: path.join('..', 'outside', 'secret.txt') }],
    ['Write', { file_path: '/etc/seam-test', content: 'x' }],
    ['Edit', { file_path: '../outside/secret.txt', old_string: 'a', new_string: 'b' }],
    ['Glob', { pattern: '*', path: '/etc' }],
    ['Glob', { pattern: '../outside/**/*' }],
    ['Glob', { pattern: '/etc/*.conf' }],
    ['Grep', { pattern: 'x', path: '/' }]
  ])('refuses %s outside the workspace (%j)', (name, args) => {
    kernel.plugin(workspaceGuard, {})
    const reason = check(name, args)
    expect(reason).toMatch(new RegExp(`^workspace-guard: ${name} refused: .* is outside the workspace`))
    expect(reason).toContain('extraRoots')
  })

  it('leaves tools that are not file tools alone', () => {
    kernel.plugin(workspaceGuard, {})
    expect(check('Bash', { command: 'cat /etc/passwd' })).toBeUndefined()
    expect(check('mcp__fs__read', { file_path: '/etc/passwd' })).toBeUndefined()
  })

  it('refuses a symlink inside the workspace that points outside, even to a file not yet created', async () => {
    await fs.symlink(outside, path.join(ws, 'link'))
    await fs.symlink(path.join(outside, 'later.txt'), path.join(ws, 'dangling.txt'))
    kernel.plugin(workspaceGuard, {})
    const reason = check('Read', { file_path: path.join(ws, 'link/secret.txt') })
    expect(reason).toContain(`resolves through a symbolic link to ${path.join(outside, 'secret.txt')}`)
    expect(check('Write', { file_path: 'link/new/file.txt', content: '' })).toContain('outside the workspace')
    expect(check('Write', { file_path: 'dangling.txt', content: '' })).toContain(path.join(outside, 'later.txt'))
    expect(check('Grep', { pattern: 'x', path: 'link' })).toContain('outside the workspace')
  })

  it('allows a symlink that stays inside the workspace', async () => {
    await fs.symlink(path.join(ws, 'src'), path.join(ws, 'alias'))
    kernel.plugin(workspaceGuard, {})
    expect(check('Read', { file_path: 'alias/a.ts' })).toBeUndefined()
  })

  it('uses the configured workspace instead of the session directory', () => {
    kernel.plugin(workspaceGuard, { workspace: outside })
    expect(check('Read', { file_path: path.join(outside, 'secret.txt') })).toBeUndefined()
    expect(check('Read', { file_path: path.join(ws, 'src/a.ts') })).toContain('outside the workspace')
  })

  it('honours extraRoots', () => {
    kernel.plugin(workspaceGuard, { extraRoots: [outside] })
    expect(check('Edit', { file_path: path.join(outside, 'secret.txt'), old_string: 'a', new_string: 'b' })).toBeUndefined()
    expect(check('Read', { file_path: path.join(base, 'elsewhere.txt') })).toContain('outside the workspace')
  })

  it('allowOutside turns the confinement off', () => {
    kernel.plugin(workspaceGuard, { allowOutside: true })
    expect(check('Write', { file_path: path.join(outside, 'x.txt'), content: '' })).toBeUndefined()
    expect(check('Read', { file_path: '/etc/hostname' })).toBeUndefined()
  })

  it('readOnlyOutside lets reads out and keeps writes in', () => {
    kernel.plugin(workspaceGuard, { readOnlyOutside: true })
    expect(check('Read', { file_path: path.join(outside, 'secret.txt') })).toBeUndefined()
    expect(check('Grep', { pattern: 'x', path: outside })).toBeUndefined()
    expect(check('Write', { file_path: path.join(outside, 'x.txt'), content: '' })).toContain('may only be read')
    expect(check('Write', { file_path: path.join(ws, 'x.txt'), content: '' })).toBeUndefined()
  })

  it('lets a reading tool use the session\'s background task output files wherever they are, and nothing beside them', async () => {
    const output = path.join(outside, 'b0000task1.output')
    await fs.writeFile(output, 'line\n')
    const tasks = { list: (sessionId: string) => (sessionId === 's1' ? [{ id: 'b0000task1', sessionId, command: 'x', outputPath: output, status: 'running', startedAt: 0 }] : []) }
    kernel.plugin({ name: 'tasks-list', apply: (ctx) => void ctx.provide('backgroundTasks', tasks as never) })
    kernel.plugin(workspaceGuard, {})
    expect(check('Read', { file_path: output })).toBeUndefined()
    expect(check('Grep', { pattern: 'line', path: output })).toBeUndefined()
    expect(check('Write', { file_path: output, content: '' })).toMatch(/outside the workspace/)
    expect(check('Edit', { file_path: output, old_string: 'line', new_string: 'x' })).toMatch(/outside the workspace/)
    expect(check('Read', { file_path: path.join(outside, 'secret.txt') })).toMatch(/outside the workspace/)
  })

  it('rejects invalid config, naming the field', () => {
    expect(() => kernel.plugin(workspaceGuard, { extraRoots: ['relative/dir'] })).toThrow(PluginConfigError)
    expect(() => kernel.plugin(workspaceGuard, { extraRoots: ['relative/dir'] })).toThrow(/extraRoots\[0\]/)
    expect(() => kernel.plugin(workspaceGuard, { allowOutside: 'yes' })).toThrow(/allowOutside/)
  })

  it('removes its guard when disposed (S3)', () => {
    const runtime = kernel.plugin(workspaceGuard, {})
    expect(check('Read', { file_path: '/etc/hostname' })).toBeDefined()
    runtime.dispose()
    expect(check('Read', { file_path: '/etc/hostname' })).toBeUndefined()
  })
})
