// Output styles found in real folders: project (only once trusted), user and plugin styles, the
// selection by name, and a bad front matter reported with its file and field (issue 29).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { discoverStyles, selectStyle } from './discover'
import { outputStyleSetting } from './index'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-output-styles-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function put(rel: string, text: string): string {
  const file = join(dir, rel)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return file
}

describe('output styles (issue 29)', () => {
  it('finds project (trusted only), user and plugin styles; selects by name; reports a bad front matter', () => {
    put('w/.claude/output-styles/brief.md', '---\nname: Brief\n---\nProject brief.\n')
    put('h/.claude/output-styles/brief.md', '---\nname: Brief\n---\nUser brief.\n')
    const bad = put('h/.claude/output-styles/bad.md', '---\nname: [1, 2]\n---\nx\n')
    put('p/output-styles/terse.md', 'Plugin terse.\n')
    const plugins = [{ name: 'kit', format: 'claude' as const, root: join(dir, 'p'), dataDir: join(dir, 'd'), commands: [], agents: [], skills: [], outputStyles: [join(dir, 'p', 'output-styles')] }]
    const trusted = discoverStyles({ home: join(dir, 'h'), workspace: join(dir, 'w'), trusted: true, plugins })
    expect(trusted.styles.filter((s) => s.source !== 'built-in').map((s) => [s.name, s.source, s.body])).toEqual([
      ['Brief', 'project', 'Project brief.'],
      ['Brief', 'user', 'User brief.'],
      ['kit:terse', 'plugin:kit', 'Plugin terse.']
    ])
    expect(trusted.styles.slice(3).map((s) => [s.name, s.source, s.file])).toEqual([
      ['Default', 'built-in', undefined],
      ['Explanatory', 'built-in', undefined],
      ['Learning', 'built-in', undefined]
    ])
    expect(trusted.problems).toEqual([expect.stringMatching(new RegExp(`^${bad}: name: .*; skipped$`))])
    expect(selectStyle(trusted.styles, 'brief')?.body).toBe('Project brief.')
    expect(selectStyle(trusted.styles, 'kit:terse')?.source).toBe('plugin:kit')
    expect(selectStyle(trusted.styles, 'Terse')?.name).toBe('kit:terse')
    expect(selectStyle(trusted.styles, 'none')).toBeUndefined()
    const untrusted = discoverStyles({ home: join(dir, 'h'), workspace: join(dir, 'w'), trusted: false, plugins: [] })
    expect(untrusted.styles.map((s) => s.source)).toEqual(['user', 'built-in', 'built-in', 'built-in'])
  })

  it('a style file named like a built-in one wins over it; Default has no text, the others do', () => {
    put('h/.claude/output-styles/Explanatory.md', 'My own explanations.\n')
    const found = discoverStyles({ home: join(dir, 'h'), workspace: null, trusted: false, plugins: [] })
    expect(selectStyle(found.styles, 'Explanatory')).toMatchObject({ source: 'user', body: 'My own explanations.' })
    expect(selectStyle(found.styles, 'default')).toMatchObject({ source: 'built-in', body: '' })
    expect(selectStyle(found.styles, 'learning')?.body).toContain('TODO(human)')
  })

  it('outputStyle comes from the most specific file that sets it; a wrong type is named', () => {
    const local = put('w/.claude/settings.local.json', JSON.stringify({ outputStyle: 7 }))
    const project = put('w/.claude/settings.json', JSON.stringify({ outputStyle: 'Brief' }))
    const user = put('h/.claude/settings.json', JSON.stringify({ outputStyle: 'Other' }))
    expect(outputStyleSetting([local, project, user])).toEqual({ value: 'Brief', file: project, problems: [`${local}: outputStyle: expected the name of an output style; ignored`] })
    expect(outputStyleSetting([join(dir, 'missing.json'), user])).toEqual({ value: 'Other', file: user, problems: [] })
  })
})
