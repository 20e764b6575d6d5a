// Claude Code theme files as the published marketplaces ship them (issue 29): every colour form
// Claude Code accepts is read; a file that is not JSON or whose name, base or overrides has the
// wrong shape is skipped with the file and the field named; an override that is not a colour is
// ignored (as Claude Code does) and said, the rest of the theme kept.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readThemeFile } from './theme-file'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-theme-file-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function write(name: string, content: unknown): string {
  const file = join(dir, name)
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return file
}

describe('theme files (issue 29)', () => {
  it('reads name, base and every colour form: #rgb, #rrggbb, rgb(), ansi:<name>[Bright], ansi256()', () => {
    const file = write('harbour-night.json', {
      $schema: 'https://example.invalid/theme.schema.json',
      name: 'Harbour Night',
      base: 'dark-ansi',
      overrides: { text: 'rgb(220, 224, 232)', background: '#123', claude: '#d08770', error: 'ansi:redBright', success: 'ansi:green', subtle: 'ansi256(245)', planMode: 'ansi256(37)', inverseText: 'ansi256(3)' }
    })
    const { theme, problem } = readThemeFile(file)
    expect(problem).toBeUndefined()
    expect(theme).toMatchObject({ slug: 'harbour-night', name: 'Harbour Night', base: 'dark-ansi', scheme: 'dark', file, warnings: [] })
    expect(theme!.colours).toMatchObject({
      text: { r: 220, g: 224, b: 232 },
      background: { r: 0x11, g: 0x22, b: 0x33 },
      claude: { r: 0xd0, g: 0x87, b: 0x70 },
      subtle: { r: 138, g: 138, b: 138 }, // grey ramp: 8 + 10 × 13
      planMode: { r: 0, g: 175, b: 175 } // the 6×6×6 cube: 37 = 16 + 0·36 + 3·6 + 3
    })
    // ANSI names go through the palette of the base's scheme: a bright red is redder than the normal one.
    expect(theme!.colours.error.r).toBeGreaterThan(theme!.colours.error.g)
    expect(theme!.colours.success.g).toBeGreaterThan(theme!.colours.success.r)
  })

  it('defaults the name to the file name and the base to dark; a light* base is Seam\'s light scheme', () => {
    expect(readThemeFile(write('plain.json', {})).theme).toMatchObject({ name: 'plain', base: 'dark', scheme: 'dark', colours: {} })
    expect(readThemeFile(write('paper.json', { base: 'light-daltonized', overrides: { error: 'ansi:red' } })).theme).toMatchObject({ scheme: 'light' })
  })

  it.each([
    ['not JSON', '{ "name": "Broken", ', /broken\.json: not JSON: .*; skipped$/],
    ['not an object', '["dark"]', /broken\.json: expected a JSON object with name, base and overrides; skipped$/],
    ['a base Claude Code does not have', { name: 'Sepia', base: 'sepia' }, /broken\.json: base: .*; skipped$/],
    ['a name that is not text', { name: 7 }, /broken\.json: name: .*; skipped$/],
    ['overrides that are not a map', { overrides: ['#fff'] }, /broken\.json: overrides: .*; skipped$/]
  ])('a theme with %s is skipped, naming the file and the field', (_what, content, message) => {
    const read = readThemeFile(write('broken.json', content))
    expect(read.theme).toBeUndefined()
    expect(read.problem).toMatch(message)
  })

  it('an override that is not a colour is ignored with a warning naming overrides.<token>; the rest applies', () => {
    const file = write('half.json', { overrides: { text: 'rgb(300,0,0)', error: 'crimson', warning: 12, success: '#00ff00' } })
    const { theme } = readThemeFile(file)
    expect(Object.keys(theme!.colours)).toEqual(['success'])
    expect(theme!.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: overrides\\.text: "rgb\\(300,0,0\\)" is not a colour \\(.*\\); ignored, the base's colour is kept$`)),
      expect.stringContaining('overrides.error: "crimson" is not a colour'),
      expect.stringContaining('overrides.warning: 12 is not a colour')
    ])
  })

  it('a missing file is a problem naming it', () => {
    expect(readThemeFile(join(dir, 'gone.json')).problem).toMatch(/gone\.json: cannot be read: .*; skipped$/)
  })
})
