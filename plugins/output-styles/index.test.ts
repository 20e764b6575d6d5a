// The output-styles plugin on the real loop (issue 29): Claude Code's built-in styles listed with
// a user style; the `outputStyles` service's switch saves `outputStyle` in the trusted workspace's
// `.claude/settings.local.json` (keeping its other keys) and the next turn's system prompt carries
// the style; an edit of a settings file on disk applies too; an unknown name and a settings file
// that is not JSON are refused, naming the field or the file, and nothing is written.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestHost, scaledTestMs, type TestHost } from '@seam/sdk/testing'
import outputStyles, { PROMPT_SECTION } from './index'


let host: TestHost | undefined
afterEach(async () => {
  await host?.cleanup()
  host = undefined
})

function put(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return file
}

async function start(): Promise<{ host: TestHost; home: string }> {
  host = await createTestHost({ script: () => ({ text: 'ok' }) })
  const home = join(dirname(host.workspace), 'home')
  put(join(home, '.claude', 'output-styles', 'haiku.md'), '---\nname: Haiku\ndescription: Answers as a haiku\n---\nAnswer as a haiku.\n')
  host.kernel.plugin(outputStyles, { home, userSettingsPath: join(home, '.claude', 'settings.json') })
  return { host, home }
}

const service = (h: TestHost) => h.kernel.getService('outputStyles')!
const styleSection = (h: TestHost) => h.kernel.getService('prompt')!.sections().find((s) => s.id === PROMPT_SECTION)?.text

describe('output styles: built-in styles and the switch (issue 29)', () => {
  it('lists the built-in styles after the user style; a switch saves outputStyle locally and the next turn sends it', async () => {
    const { host: h, home } = await start()
    const view = service(h).view()
    expect(view.styles.map((s) => [s.name, s.source])).toEqual([['Haiku', 'user'], ['Default', 'built-in'], ['Explanatory', 'built-in'], ['Learning', 'built-in']])
    expect(view.styles[0]).toMatchObject({ description: 'Answers as a haiku', file: join(home, '.claude', 'output-styles', 'haiku.md') })
    expect(view.current).toBe('Default')
    const local = join(h.workspace, '.claude', 'settings.local.json')
    expect(view.saveTo).toBe(local)
    await h.run('first')
    expect(h.model.requests.at(-1)!.system).not.toContain('# Output style')

    put(local, JSON.stringify({ permissions: { allow: ['Read'] } }))
    const after = service(h).select('explanatory')
    expect(after.current).toBe('Explanatory')
    expect(after.setting).toEqual({ value: 'Explanatory', file: local })
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ permissions: { allow: ['Read'] }, outputStyle: 'Explanatory' })
    await h.run('second')
    expect(h.model.requests.at(-1)!.system).toContain('# Output style: Explanatory\n\n')
    expect(h.model.requests.at(-1)!.system).toContain('Insight:')

    service(h).select('Default')
    await h.run('third')
    expect(h.model.requests.at(-1)!.system).not.toContain('# Output style')
  })

  it('an edit of a settings file on disk applies without a new session', async () => {
    const { host: h } = await start()
    await service(h).watching
    put(join(h.workspace, '.claude', 'settings.json'), JSON.stringify({ outputStyle: 'Haiku' }))
    await vi.waitFor(() => expect(styleSection(h)).toBe('# Output style: Haiku\n\nAnswer as a haiku.'), { timeout: scaledTestMs(10_000), interval: 20 })
    await h.run('go')
    expect(h.model.requests.at(-1)!.system).toContain('# Output style: Haiku')
  })

  it('refuses an unknown name (field name) and a settings file that is not JSON, writing nothing', async () => {
    const { host: h } = await start()
    let error: unknown
    try {
      service(h).select('pirate')
    } catch (e) {
      error = e
    }
    expect(error).toMatchObject({ field: 'name', message: 'no output style "pirate" (found: Haiku, Default, Explanatory, Learning)' })
    const local = put(join(h.workspace, '.claude', 'settings.local.json'), '{ "outputStyle": ')
    expect(() => service(h).select('Learning')).toThrow(new RegExp(`^${local}: not valid JSON: .*; Seam will not overwrite it`))
    expect(readFileSync(local, 'utf8')).toBe('{ "outputStyle": ')
    expect(service(h).view().problems).toEqual([expect.stringMatching(new RegExp(`^${local}: not valid JSON: .*; its outputStyle is ignored$`))])
  })

  it('an untrusted workspace: a switch goes to the user settings, the workspace files are not read', async () => {
    host = await createTestHost({ trusted: false, script: () => ({ text: 'ok' }) })
    const home = join(dirname(host.workspace), 'home')
    put(join(host.workspace, '.claude', 'settings.local.json'), JSON.stringify({ outputStyle: 'Learning' }))
    host.kernel.plugin(outputStyles, { home, userSettingsPath: join(home, '.claude', 'settings.json') })
    expect(service(host).view()).toMatchObject({ current: 'Default', saveTo: join(home, '.claude', 'settings.json') })
    service(host).select('Learning')
    expect(JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'))).toEqual({ outputStyle: 'Learning' })
    expect(styleSection(host)).toMatch(/^# Output style: Learning\n\n.*TODO\(human\)/s)
  })
})
