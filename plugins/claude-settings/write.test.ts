// The settings writer behind "always allow" and a hook's updatedPermissions: other content is
// kept, a file Seam cannot read is never clobbered, a bad rule writes nothing.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addPermissionRules, SettingsWriteError, updatePermissions } from './write'

let dir: string
let file: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-settings-write-'))
  file = join(dir, '.claude', 'settings.local.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const read = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>

describe('addPermissionRules', () => {
  it('creates the file (and its folder) when missing', () => {
    expect(addPermissionRules(file, 'allow', ['Bash(npm test:*)'])).toEqual({ file, added: ['Bash(npm test:*)'] })
    expect(read()).toEqual({ permissions: { allow: ['Bash(npm test:*)'] } })
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true)
  })

  it('keeps every other key, list and rule, in order, and does not repeat a rule already there', () => {
    addPermissionRules(file, 'allow', ['Read'])
    writeFileSync(file, JSON.stringify({ env: { A: '1' }, hooks: { Stop: [] }, permissions: { deny: ['Bash(rm:*)'], allow: ['Read', 7], defaultMode: 'default' }, extra: [1, { x: null }] }))
    const written = addPermissionRules(file, 'allow', ['Read', 'Edit(/src/**)', 'Edit(/src/**)'])
    expect(written.added).toEqual(['Edit(/src/**)'])
    const text = readFileSync(file, 'utf8')
    expect(JSON.parse(text)).toEqual({ env: { A: '1' }, hooks: { Stop: [] }, permissions: { deny: ['Bash(rm:*)'], allow: ['Read', 7, 'Edit(/src/**)'], defaultMode: 'default' }, extra: [1, { x: null }] })
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['env', 'hooks', 'permissions', 'extra'])
  })

  it('nothing new to add writes nothing', () => {
    writeFileSync(join(dir, 'x.json'), '{"permissions":{"allow":["Read"]}}')
    const before = readFileSync(join(dir, 'x.json'), 'utf8')
    expect(addPermissionRules(join(dir, 'x.json'), 'allow', ['Read']).added).toEqual([])
    expect(readFileSync(join(dir, 'x.json'), 'utf8')).toBe(before)
  })

  const MALFORMED: Array<[what: string, text: string, error: RegExp]> = [
    ['invalid JSON', '{"permissions": {"allow": [', /is not valid JSON .*Seam will not overwrite it/],
    ['a list at the top', '["Read"]', /holds a list, not a settings object/],
    ['permissions that is not an object', '{"permissions": "all"}', /"permissions" is a string, not an object/],
    ['an allow that is not a list', '{"permissions": {"allow": "Read"}}', /"permissions\.allow" is a string, not a list/]
  ]
  it.each(MALFORMED)('a file with %s is refused with a clear error and left byte for byte as it was', (_what, text, error) => {
    const target = join(dir, 'settings.local.json')
    writeFileSync(target, text)
    expect(() => addPermissionRules(target, 'allow', ['Read'])).toThrow(SettingsWriteError)
    expect(() => addPermissionRules(target, 'allow', ['Read'])).toThrow(error)
    expect(readFileSync(target, 'utf8')).toBe(text)
    expect(readdirSync(dir)).toEqual(['settings.local.json'])
  })

  it('a malformed rule writes nothing and names the rule', () => {
    expect(() => addPermissionRules(file, 'allow', ['Read', 'Bash(git status'])).toThrow(/rules\[1\] invalid permission rule "Bash\(git status"/)
    expect(() => addPermissionRules(file, 'deny', ['bash(ls)'])).toThrow(/rules\[0\] .*uppercase/)
    expect(() => readFileSync(file)).toThrow()
  })

  it('writes deny and ask lists too', () => {
    addPermissionRules(file, 'deny', ['Bash(rm:*)'])
    addPermissionRules(file, 'ask', ['WebFetch'])
    expect(read()).toEqual({ permissions: { deny: ['Bash(rm:*)'], ask: ['WebFetch'] } })
  })
})

describe('updatePermissions', () => {
  const settingsFile = async (content: unknown): Promise<string> => {
    const folder = await mkdtemp(join(dir, 'update-perms-'))
    const file = join(folder, 'settings.local.json')
    await writeFile(file, JSON.stringify(content))
    return file
  }
  const read = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'))

  it('removes and replaces rules of one behavior, keeping the rest of the file and its key order', async () => {
    const file = await settingsFile({ model: 'x', permissions: { allow: ['Read', 'Bash(ls:*)'], deny: ['Bash(rm:*)'] } })
    expect(updatePermissions(file, { type: 'removeRules', behavior: 'allow', rules: ['Bash(ls:*)', 'Glob'], destination: 'localSettings' })).toEqual({ file, added: [], removed: ['Bash(ls:*)'] })
    expect(updatePermissions(file, { type: 'replaceRules', behavior: 'deny', rules: ['Bash(sudo:*)'], destination: 'localSettings' })).toEqual({ file, added: ['Bash(sudo:*)'], removed: ['Bash(rm:*)'] })
    expect(await read(file)).toEqual({ model: 'x', permissions: { allow: ['Read'], deny: ['Bash(sudo:*)'] } })
  })

  it('sets defaultMode and adds or removes additionalDirectories; an update that changes nothing writes nothing', async () => {
    const file = await settingsFile({ permissions: { additionalDirectories: ['/a'] } })
    expect(updatePermissions(file, { type: 'setMode', mode: 'plan', destination: 'localSettings' }).mode).toBe('plan')
    expect(updatePermissions(file, { type: 'addDirectories', directories: ['/a', '/b'], destination: 'localSettings' }).added).toEqual(['/b'])
    expect(updatePermissions(file, { type: 'removeDirectories', directories: ['/a'], destination: 'localSettings' }).removed).toEqual(['/a'])
    expect(await read(file)).toEqual({ permissions: { additionalDirectories: ['/b'], defaultMode: 'plan' } })
    const before = (await stat(file)).mtimeMs
    expect(updatePermissions(file, { type: 'setMode', mode: 'plan', destination: 'localSettings' })).toEqual({ file, added: [], removed: [] })
    expect((await stat(file)).mtimeMs).toBe(before)
  })

  it('refuses a list that is not a list, naming the field, and leaves the file alone', async () => {
    const file = await settingsFile({ permissions: { additionalDirectories: '/a' } })
    expect(() => updatePermissions(file, { type: 'addDirectories', directories: ['/b'], destination: 'localSettings' })).toThrow(/"permissions\.additionalDirectories" is a string, not a list/)
    expect(await read(file)).toEqual({ permissions: { additionalDirectories: '/a' } })
  })
})
