// The themes plugin on a real host with the real claude-plugins catalog (issue 29): a plugin
// installed from a marketplace in a git repository on disk offers its themes (`themes/`, and
// `experimental.themes` pointing elsewhere), named `plugin@marketplace`; a bad theme file is a
// problem naming its file and field while the plugin and its other themes load; disabling the
// plugin takes its themes away; `~/.claude/themes` and Claude Code's `theme` in `~/.claude.json`
// are read; an edit of a theme file on disk and a plugin turned off are told to the listeners.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins from '../claude-plugins/index'
import { parseMarketplaceArg } from '../claude-plugins/manager'
import { gitRepo, marketplaceJson } from '../claude-plugins/test-fixtures'
import themes from './index'

let dir: string
let host: TestHost | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-themes-'))
})
afterEach(async () => {
  await host?.cleanup()
  host = undefined
  rmSync(dir, { recursive: true, force: true })
})

const HARBOUR = { name: 'Harbour', base: 'dark', overrides: { text: 'rgb(216,222,233)', background: 'rgb(46,52,64)', claude: '#88c0d0', error: 'ansi:redBright' } }

async function start(): Promise<{ host: TestHost; home: string }> {
  const home = join(dir, 'home')
  mkdirSync(home)
  const market = join(dir, 'market')
  gitRepo(market, {
    '.claude-plugin/marketplace.json': marketplaceJson('palettes', [
      { name: 'harbour', source: './plugins/harbour' },
      { name: 'studio', source: './plugins/studio' }
    ]),
    'plugins/harbour/.claude-plugin/plugin.json': JSON.stringify({ name: 'harbour', version: '0.2.0' }),
    'plugins/harbour/themes/harbour.json': JSON.stringify(HARBOUR),
    'plugins/harbour/themes/harbour-light.json': JSON.stringify({ name: 'Harbour Light', base: 'light', overrides: { background: '#eceff4', text: 'rgb(46,52,64)', subtle: 'crimson' } }),
    'plugins/harbour/themes/broken.json': JSON.stringify({ name: 'Broken', base: 'sepia' }),
    'plugins/studio/.claude-plugin/plugin.json': JSON.stringify({ name: 'studio', experimental: { themes: './palettes/' } }),
    'plugins/studio/palettes/studio.json': JSON.stringify({ name: 'Studio', base: 'light-ansi', overrides: { claude: 'ansi:magenta' } })
  })
  host = await createTestHost({
    plugins: [
      [claudePlugins, { userSettingsPath: join(home, '.claude', 'settings.json'), seamHome: join(dir, 'seam-home') }],
      [themes, { home, debounceMs: 20 }]
    ],
    trusted: true
  })
  const { manager } = host.kernel.getService('claudePluginManager')!
  await manager.addMarketplace(parseMarketplaceArg(`file://${market}`, dir))
  await manager.install('harbour@palettes')
  await manager.install('studio@palettes')
  return { host, home }
}

describe('plugin themes (issue 29)', () => {
  it('lists each enabled plugin\'s themes with plugin@marketplace, mapped; a bad file is a problem and the rest load', async () => {
    const { host: h } = await start()
    const view = h.kernel.getService('themes')!.view()
    expect(view.themes.map((t) => [t.id, t.name, t.source, t.scheme])).toEqual([
      ['harbour@palettes:harbour-light', 'Harbour Light', 'harbour@palettes', 'light'],
      ['harbour@palettes:harbour', 'Harbour', 'harbour@palettes', 'dark'],
      ['studio@palettes:studio', 'Studio', 'studio@palettes', 'light']
    ])
    const harbour = view.themes.find((t) => t.name === 'Harbour')!
    expect(harbour.variables).toMatchObject({ '--text': '#d8dee9', '--bg': '#2e3440', '--accent': '#88c0d0', '--focus-ring': '#88c0d0' })
    // Not overridden: the base's value stays (not emitted); Seam's own muted grey is too faint on this background, so it is moved and said.
    expect(harbour.variables['--border']).toBeUndefined()
    expect(harbour.adjustments).toContainEqual(expect.stringMatching(/^--muted \(Seam's #9aa1ab\) → #[0-9a-f]{6}: /))
    expect(view.problems).toEqual([expect.stringMatching(/themes[\\/]broken\.json: base: .*; skipped$/)])
    expect(view.themes.find((t) => t.name === 'Harbour Light')!.warnings).toEqual([expect.stringMatching(/harbour-light\.json: overrides\.subtle: "crimson" is not a colour/)])
  })

  it('a disabled plugin\'s themes are gone; enabled again, they are back', async () => {
    const { host: h } = await start()
    const { manager } = h.kernel.getService('claudePluginManager')!
    manager.setEnabled('harbour@palettes', false)
    expect(h.kernel.getService('themes')!.view().themes.map((t) => t.id)).toEqual(['studio@palettes:studio'])
    manager.setEnabled('harbour@palettes', true)
    expect(h.kernel.getService('themes')!.view().themes.map((t) => t.id)).toContain('harbour@palettes:harbour')
  })

  it('tells its listeners when a theme file is edited on disk and when a plugin with themes is turned off, as Claude Code repaints on an edit', async () => {
    const { host: h } = await start()
    const service = h.kernel.getService('themes')!
    const nextChange = () => new Promise<void>((resolve) => {
      const off = service.onChange(() => {
        off()
        resolve()
      })
    })
    const [file] = service.view().themes.filter((t) => t.name === 'Harbour').map((t) => t.file)
    const edited = nextChange()
    writeFileSync(file, JSON.stringify({ ...HARBOUR, overrides: { ...HARBOUR.overrides, background: 'rgb(20,20,30)' } }))
    await edited
    expect(service.view().themes.find((t) => t.name === 'Harbour')!.variables['--bg']).toBe('#14141e')
    const turnedOff = nextChange()
    h.kernel.getService('claudePluginManager')!.manager.setEnabled('harbour@palettes', false)
    await turnedOff
    expect(service.view().themes.map((t) => t.name)).toEqual(['Studio'])
    expect(readdirSync(join(file, '..'))).toContain('harbour.json')
  })

  it('reads ~/.claude/themes as custom:<slug> and Claude Code\'s theme preference from ~/.claude.json', async () => {
    const { host: h, home } = await start()
    const service = h.kernel.getService('themes')!
    const nextChange = () => new Promise<void>((resolve) => {
      const off = service.onChange(() => {
        off()
        resolve()
      })
    })
    // Neither ~/.claude nor ~/.claude/themes exists at the start: each, once made, is seen and watched.
    for (const folder of [join(home, '.claude'), join(home, '.claude', 'themes')]) {
      const made = nextChange()
      mkdirSync(folder)
      await made
    }
    const added = new Promise<void>((resolve) => {
      const off = service.onChange(() => {
        if (!service.view().themes.some((t) => t.id === 'custom:midnight')) return
        off()
        resolve()
      })
    })
    writeFileSync(join(home, '.claude', 'themes', 'midnight.json'), JSON.stringify({ name: 'Midnight', overrides: { claude: '#a78bfa' } }))
    await added
    expect(service.view().claudeCode).toBeUndefined()
    const cases: Array<[string, string | undefined]> = [['custom:midnight', 'custom:midnight'], ['custom:harbour', 'harbour@palettes:harbour'], ['light-daltonized', 'light'], ['dark-ansi', 'dark'], ['auto', 'system'], ['custom:nowhere', undefined]]
    for (const [value, choice] of cases) {
      writeFileSync(join(home, '.claude.json'), JSON.stringify({ numStartups: 3, theme: value }))
      const view = service.view()
      expect(view.themes[0]).toMatchObject({ id: 'custom:midnight', source: 'user' })
      expect(view.claudeCode, value).toEqual({ value, file: join(home, '.claude.json'), ...(choice ? { choice } : {}) })
    }
    writeFileSync(join(home, '.claude.json'), '{ not json')
    expect(service.view().problems).toContainEqual(expect.stringMatching(/\.claude\.json: not valid JSON: .*; its theme is ignored$/))
  })
})
