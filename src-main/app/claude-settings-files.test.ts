// The SDK's Claude Code settings files helpers (issue 29, D2) on real files: the order and trust
// of the files, a read that never throws (missing, not JSON, unreadable), and one key set
// atomically with the rest kept, a file that is not an object left untouched.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { claudeSettingsFiles, claudeUserSettingsPath, codexHomePath, readSettingsJson, setSettingsKey } from './claude-settings-files'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-claude-settings-files-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('Claude Code settings files (SDK)', () => {
  it('user first, then the workspace files only once trusted; the default paths', () => {
    expect(claudeSettingsFiles('/u/settings.json', '/w', false)).toEqual([{ scope: 'user', file: '/u/settings.json' }])
    expect(claudeSettingsFiles('/u/settings.json', null, true)).toEqual([{ scope: 'user', file: '/u/settings.json' }])
    expect(claudeSettingsFiles('/u/settings.json', '/w', true)).toEqual([
      { scope: 'user', file: '/u/settings.json' },
      { scope: 'project', file: join('/w', '.claude', 'settings.json') },
      { scope: 'local', file: join('/w', '.claude', 'settings.local.json') }
    ])
    expect(claudeUserSettingsPath(undefined, '/h')).toBe(join('/h', '.claude', 'settings.json'))
    expect(claudeUserSettingsPath('/x.json', '/h')).toBe('/x.json')
    expect(codexHomePath(undefined, { CODEX_HOME: '/c' }, '/h')).toBe('/c')
    expect(codexHomePath(undefined, { CODEX_HOME: '' }, '/h')).toBe(join('/h', '.codex'))
    expect(codexHomePath('/given', { CODEX_HOME: '/c' }, '/h')).toBe('/given')
  })

  it('reads without throwing: missing is empty, bad JSON and an unreadable file name the file', () => {
    expect(readSettingsJson(join(dir, 'missing.json'))).toEqual({})
    expect(readSettingsJson(join(dir, 'missing', 'deeper.json'))).toEqual({})
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{ nope')
    expect(readSettingsJson(bad).problem).toMatch(new RegExp(`^${bad}: not valid JSON: `))
    const folder = join(dir, 'folder.json')
    mkdirSync(folder)
    expect(readSettingsJson(folder).problem).toMatch(new RegExp(`^${folder}: cannot be read: `))
    const good = join(dir, 'good.json')
    writeFileSync(good, '{"a": 1}')
    expect(readSettingsJson(good)).toEqual({ data: { a: 1 } })
  })

  it('sets and removes one key, keeping the others; refuses a file that is not an object and writes nothing', () => {
    const file = join(dir, '.claude', 'settings.local.json')
    setSettingsKey(file, 'outputStyle', 'Learning')
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ outputStyle: 'Learning' })
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Read'] }, outputStyle: 'Learning' }))
    setSettingsKey(file, 'outputStyle', 'Explanatory')
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify({ permissions: { allow: ['Read'] }, outputStyle: 'Explanatory' }, null, 2)}\n`)
    setSettingsKey(file, 'outputStyle', undefined)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permissions: { allow: ['Read'] } })
    const list = join(dir, 'list.json')
    writeFileSync(list, '[1]')
    expect(() => setSettingsKey(list, 'outputStyle', 'x')).toThrow(`${list}: not a settings object; Seam will not overwrite it`)
    expect(readFileSync(list, 'utf8')).toBe('[1]')
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{')
    expect(() => setSettingsKey(bad, 'outputStyle', 'x')).toThrow(/not valid JSON.*Seam will not overwrite it/)
    expect(readFileSync(bad, 'utf8')).toBe('{')
  })
})
