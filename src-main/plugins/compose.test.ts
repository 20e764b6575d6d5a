import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parse } from 'yaml'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { definePlugin } from '../../src-shared/kernel'
import { composeProfile, dumpProfile } from './compose'
import { loadLayers } from './layers'
import { ProfileError, type CatalogEntry, type PluginCatalog, type ProfileEntry } from './profile'

const timeout = definePlugin({
  name: 'timeout',
  schema: z.strictObject({ timeoutMs: z.number().int().positive(), mode: z.enum(['soft', 'hard']).default('soft') }),
  apply: () => {}
})
const plain = definePlugin({ name: 'plain', apply: () => {} })

const catalog: PluginCatalog = new Map<string, CatalogEntry>([
  ['builtin:tools', { plugin: plain, source: 'builtin' }],
  ['builtin:approval', { plugin: plain, source: 'builtin' }],
  ['builtin:timeout', { plugin: timeout, source: 'builtin' }],
  ['bundle:@acme/lint', { plugin: plain, source: 'bundle' }]
])

const base: ProfileEntry[] = [
  { id: 'tools', plugin: 'builtin:tools' },
  { id: 'approval', plugin: 'builtin:approval' },
  { id: 'timeout', plugin: 'builtin:timeout', config: { timeoutMs: 1000 } }
]

const FILE = '/home/u/.seam/cordis.patch.yml'

function compose(...texts: string[]) {
  return composeProfile(
    base,
    texts.map((text, i) => ({ file: i === 0 ? FILE : `/layer${i}.yml`, text })),
    catalog
  )
}

function errorOf(fn: () => unknown): ProfileError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError)
    return error as ProfileError
  }
  throw new Error('expected a ProfileError, nothing was thrown')
}

const ids = (entries: { id: string }[]) => entries.map((e) => e.id)

describe('composing patch layers', () => {
  it('keeps the base profile as is without layers, and an empty or comment-only layer changes nothing', () => {
    expect(ids(compose())).toEqual(['tools', 'approval', 'timeout'])
    expect(ids(compose('', '# nothing yet\n'))).toEqual(['tools', 'approval', 'timeout'])
  })

  it('inserts at the end, before an id or after an id, keeping the order of the inserted rows', () => {
    const result = compose(
      [
        '- insert:',
        '    - { id: lint, plugin: "bundle:@acme/lint", config: { strict: true } }',
        '- insert: [{ id: first, plugin: "builtin:tools" }, { id: second, plugin: "builtin:tools" }]',
        '  before: approval',
        '- after: tools',
        '  insert: [{ id: right-after-tools, plugin: "builtin:tools", disabled: true }]'
      ].join('\n')
    )
    expect(ids(result)).toEqual(['tools', 'right-after-tools', 'first', 'second', 'approval', 'timeout', 'lint'])
    expect(result.find((e) => e.id === 'lint')).toMatchObject({ plugin: 'bundle:@acme/lint', config: { strict: true }, origin: `${FILE}:2` })
    expect(result.find((e) => e.id === 'right-after-tools')?.disabled).toBe(true)
  })

  it('replaces a config after validating it against the plugin schema', () => {
    const result = compose('- id: timeout\n  config: { timeoutMs: 5000, mode: hard }\n')
    expect(result.find((e) => e.id === 'timeout')?.config).toEqual({ timeoutMs: 5000, mode: 'hard' })
    // Replaced, not merged: the old timeoutMs is gone, so a config without it fails.
    const error = errorOf(() => compose('- id: tools\n  disabled: true\n\n- id: timeout\n  config:\n    mode: hard\n'))
    expect(error.message).toMatch(/^\/home\/u\/\.seam\/cordis\.patch\.yml:6: row 2: id "timeout": config\.timeoutMs: /)
  })

  it('names the file, the row, the line and the field of an invalid config value', () => {
    const text = ['# timeouts', '- id: approval', '  disabled: false', '- id: timeout', '  config:', '    timeoutMs: soon', '    mode: hard'].join('\n')
    const error = errorOf(() => compose(text))
    expect(error.message).toMatch(/^\/home\/u\/\.seam\/cordis\.patch\.yml:6: row 2: id "timeout": config\.timeoutMs: .*number/)
    expect(error).toMatchObject({ file: FILE, line: 6, field: 'config.timeoutMs' })
  })

  it('validates the config of inserted entries too', () => {
    const error = errorOf(() => compose('- insert:\n    - id: t2\n      plugin: "builtin:timeout"\n      config: { timeoutMs: -1 }\n'))
    expect(error.message).toMatch(/cordis\.patch\.yml:4: row 1: insert\[0\]\.config\.timeoutMs: /)
  })

  it('disables, re-enables and removes entries', () => {
    const disabled = compose('- id: approval\n  disabled: true\n')
    expect(disabled.find((e) => e.id === 'approval')?.disabled).toBe(true)
    const reEnabled = compose('- id: approval\n  disabled: true\n', '- id: approval\n  disabled: false\n')
    expect(reEnabled.find((e) => e.id === 'approval')?.disabled).toBe(false)
    expect(reEnabled.find((e) => e.id === 'approval')?.origin).toBe('/layer1.yml:1')
    expect(ids(compose('- id: tools\n  remove: true\n'))).toEqual(['approval', 'timeout'])
    // A removed id may be inserted again by a later layer.
    expect(ids(compose('- id: tools\n  remove: true\n', '- insert: [{ id: tools, plugin: "builtin:tools" }]\n'))).toEqual(['approval', 'timeout', 'tools'])
  })

  it('fails on a duplicate id, naming the file and line and where the id was already defined', () => {
    const againstBase = errorOf(() => compose('\n- insert:\n    - { id: approval, plugin: "builtin:tools" }\n'))
    expect(againstBase.message).toBe(`${FILE}:3: row 1: duplicate id "approval": already defined at base profile entry 2`)
    const acrossFiles = errorOf(() =>
      compose('- insert: [{ id: lint, plugin: "bundle:@acme/lint" }]\n', '# other\n- insert: [{ id: lint, plugin: "builtin:tools" }]\n')
    )
    expect(acrossFiles.message).toBe(`/layer1.yml:2: row 1: duplicate id "lint": already defined at ${FILE}:1`)
    const withinRow = errorOf(() => compose('- insert:\n    - { id: a, plugin: "builtin:tools" }\n    - { id: a, plugin: "builtin:tools" }\n'))
    expect(withinRow.message).toMatch(/:3: row 1: duplicate id "a"/)
  })

  it('fails on rows naming unknown ids, with file and line', () => {
    expect(errorOf(() => compose('- id: tools\n  disabled: true\n- id: nope\n  remove: true\n')).message).toMatch(
      /^\/home\/u\/\.seam\/cordis\.patch\.yml:3: row 2: unknown id "nope" \(known ids: tools, approval, timeout\)/
    )
    expect(errorOf(() => compose('- id: ghost\n  config: {}\n')).message).toMatch(/cordis\.patch\.yml:1: row 1: unknown id "ghost"/)
    expect(errorOf(() => compose('- insert: [{ id: x, plugin: "builtin:tools" }]\n  after: ghost\n')).message).toMatch(
      /cordis\.patch\.yml:2: row 1: unknown id "ghost"/
    )
  })

  it('fails on an unknown plugin key', () => {
    expect(errorOf(() => compose('- insert: [{ id: x, plugin: "bundle:missing" }]\n')).message).toMatch(
      /:1: row 1: insert\[0\]\.plugin: unknown plugin "bundle:missing" \(available: builtin:approval, builtin:timeout, builtin:tools, bundle:@acme\/lint\)/
    )
  })

  it('lets a disabled entry name a plugin that is not in the catalog, and checks it when a layer enables it', () => {
    const inserted = compose('- insert: [{ id: later, plugin: "bundle:not-installed", disabled: true }]\n')
    expect(inserted.find((e) => e.id === 'later')).toMatchObject({ plugin: 'bundle:not-installed', disabled: true })
    const error = errorOf(() => compose('- insert: [{ id: later, plugin: "bundle:not-installed", disabled: true }]\n', '\n- id: later\n  disabled: false\n'))
    expect(error.message).toMatch(/^\/layer1\.yml:3: row 1: id "later": plugin: unknown plugin "bundle:not-installed"/)
  })

  it.each([
    ['malformed YAML', '- id: tools\n  config: [unclosed\n', /cordis\.patch\.yml:\d+: invalid YAML/],
    ['a mapping at the top', 'id: tools\n', /cordis\.patch\.yml:1: a patch file is a YAML list of rows/],
    ['a row that is not a mapping', '- just a string\n', /:1: row 1: a row is a mapping/],
    ['a row without insert or id', '- before: tools\n', /:1: row 1: a row needs insert: or id:/],
    ['an id row with no action', '- id: tools\n', /:1: row 1: row for id "tools" has no action/],
    ['an unknown key', '- id: tools\n  disabled: true\n  confg: { a: 1 }\n', /:3: row 1: unknown key "confg"/],
    ['insert with both before and after', '- insert: [{ id: x, plugin: "builtin:tools" }]\n  before: tools\n  after: tools\n', /:3: row 1: after: use before or after, not both/],
    ['remove: false', '- id: tools\n  remove: false\n', /:2: row 1: remove: remove must be true/],
    ['remove mixed with config', '- id: tools\n  remove: true\n  config: {}\n', /:3: row 1: unknown key "config"/],
    ['disabled that is not a boolean', '- id: tools\n  disabled: "yes"\n', /:2: row 1: disabled: /],
    ['an entry with an unknown field', '- insert:\n    - id: x\n      plugin: "builtin:tools"\n      enabled: true\n', /:4: row 1: insert\[0\]: unknown key "enabled"/],
    ['an empty insert', '- insert: []\n', /:1: row 1: insert: insert needs at least one entry/],
    ['a bad id', '- insert: [{ id: "has space", plugin: "builtin:tools" }]\n', /row 1: insert\[0\]\.id: an id starts with/],
    ['duplicate keys', '- id: tools\n  disabled: true\n  disabled: false\n', /cordis\.patch\.yml:\d+: invalid YAML: Map keys must be unique/],
    ['a code-execution tag', '- id: tools\n  config: !!js/function "function () { globalThis.pwned = 1 }"\n', /cordis\.patch\.yml:2: invalid YAML: Unresolved tag/]
  ])('rejects %s with the file and line', (_name, text, message) => {
    const error = errorOf(() => compose(text))
    expect(error.message).toMatch(message)
    expect(error.file).toBe(FILE)
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
  })

  it('checks the base profile itself', () => {
    expect(() => composeProfile([...base, { id: 'tools', plugin: 'builtin:tools' }], [], catalog)).toThrow(
      /base profile: entry 4: duplicate id "tools" \(also base profile entry 1\)/
    )
    expect(() => composeProfile([{ id: 't', plugin: 'builtin:timeout', config: {} }], [], catalog)).toThrow(/base profile: entry 1: config\.timeoutMs/)
  })

  it('a later layer sees the result of the earlier ones (config replaced twice, last wins)', () => {
    const result = compose('- id: timeout\n  config: { timeoutMs: 2 }\n', '- id: timeout\n  config: { timeoutMs: 3 }\n')
    expect(result.find((e) => e.id === 'timeout')?.config).toEqual({ timeoutMs: 3 })
  })
})

describe('dumpProfile', () => {
  it('prints id, plugin, disabled and config (sorted keys) with where each entry came from, and reads back', () => {
    const entries = compose('- id: timeout\n  config: { timeoutMs: 5, mode: hard }\n- id: approval\n  disabled: true\n')
    const text = dumpProfile(entries)
    expect(text).toBe(
      [
        '# from base profile entry 1',
        '- id: tools',
        '  plugin: builtin:tools',
        '  disabled: false',
        `# from ${FILE}:3`,
        '- id: approval',
        '  plugin: builtin:approval',
        '  disabled: true',
        `# from ${FILE}:1`,
        '- id: timeout',
        '  plugin: builtin:timeout',
        '  disabled: false',
        '  config:',
        '    mode: hard',
        '    timeoutMs: 5',
        ''
      ].join('\n')
    )
    expect(parse(text)).toEqual([
      { id: 'tools', plugin: 'builtin:tools', disabled: false },
      { id: 'approval', plugin: 'builtin:approval', disabled: true },
      { id: 'timeout', plugin: 'builtin:timeout', disabled: false, config: { mode: 'hard', timeoutMs: 5 } }
    ])
    expect(dumpProfile(entries)).toBe(text)
  })
})

describe('loadLayers', () => {
  let tmp: string
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'seam-layers-'))
  })
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true })
  })

  it('reads home, then the workspace only when trusted, then --patch; missing optional files are skipped', async () => {
    const seamHome = path.join(tmp, 'home')
    const workspace = path.join(tmp, 'ws')
    await mkdir(seamHome, { recursive: true })
    await mkdir(path.join(workspace, '.seam'), { recursive: true })
    await writeFile(path.join(seamHome, 'cordis.patch.yml'), '# home\n')
    await writeFile(path.join(workspace, '.seam', 'cordis.patch.yml'), '# workspace\n')
    const patchFile = path.join(tmp, 'extra.yml')
    await writeFile(patchFile, '# extra\n')

    const untrusted = await loadLayers({ seamHome, workspace, trusted: false, patchFile })
    expect(untrusted.map((l) => l.text)).toEqual(['# home\n', '# extra\n'])
    const trusted = await loadLayers({ seamHome, workspace, trusted: true, patchFile })
    expect(trusted.map((l) => l.text)).toEqual(['# home\n', '# workspace\n', '# extra\n'])
    expect(trusted[1].file).toBe(path.join(workspace, '.seam', 'cordis.patch.yml'))
    expect(await loadLayers({ seamHome: path.join(tmp, 'nowhere'), trusted: true })).toEqual([])
    await expect(loadLayers({ seamHome, trusted: false, patchFile: path.join(tmp, 'missing.yml') })).rejects.toThrow(/missing\.yml: cannot read patch file/)
  })

  it('an untrusted workspace cannot break the boot either: its bad patch is not even read', async () => {
    const workspace = path.join(tmp, 'ws')
    await mkdir(path.join(workspace, '.seam'), { recursive: true })
    await writeFile(path.join(workspace, '.seam', 'cordis.patch.yml'), '- id: tools\n  remove: true\n')
    const layers = await loadLayers({ seamHome: path.join(tmp, 'home'), workspace, trusted: false })
    expect(ids(composeProfile(base, layers, catalog))).toEqual(['tools', 'approval', 'timeout'])
    const trustedLayers = await loadLayers({ seamHome: path.join(tmp, 'home'), workspace, trusted: true })
    expect(ids(composeProfile(base, trustedLayers, catalog))).toEqual(['approval', 'timeout'])
  })
})
