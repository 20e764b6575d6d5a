// A Claude Code plugin's `dependencies` with the built `seam` as a real process (issue 29), from a
// marketplace in a git repository on disk: installing a plugin installs the plugins of its
// marketplace it names (a `{name, version}` range checked against the version installed); one
// that is not in the marketplace, or whose version does not satisfy the range, refuses the
// install naming the field and leaves nothing installed; disable and uninstall say who depends on
// the plugin.
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'
import { git, put } from '../../test-support/claude-plugin-cli'

let home: string
let workspace: string
useCliScratch('claude-plugin-dependencies', (dirs) => ({ home, workspace } = dirs))

const seam = (...args: string[]): Promise<CliResult> => runSeamHeadless(args, { cwd: workspace, home })

const PLUGINS: Record<string, Record<string, unknown>> = {
  base: { version: '1.2.0' },
  lib: { version: '1.0.0' },
  app: { version: '0.1.0', dependencies: ['base', { name: 'lib', version: '^1.0.0' }] },
  lost: { version: '0.1.0', dependencies: ['base', 'missing'] },
  picky: { version: '0.1.0', dependencies: ['lib', { name: 'base', version: '>=2' }] },
  vague: { version: '0.1.0', dependencies: [{ name: 'lib', version: 'soon' }] }
}

async function installed(): Promise<string[]> {
  try {
    return Object.keys(JSON.parse(await readFile(join(home, 'seam', 'claude-plugins', 'installed_plugins.json'), 'utf8')).plugins ?? {}).sort()
  } catch {
    return []
  }
}

describe('Claude Code plugin dependencies, with the built seam (issue 29)', () => {
  it('install brings its marketplace dependencies (ranges checked); a missing or unsatisfied one refuses and installs nothing; disable and uninstall name the dependents', async () => {
    const source = join(home, 'market-src')
    await mkdir(source, { recursive: true })
    git(source, 'init', '--quiet', '--initial-branch=main')
    await put(join(source, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'team-tools', owner: { name: 'Team' }, plugins: Object.keys(PLUGINS).map((name) => ({ name, source: `./plugins/${name}` })) }))
    for (const [name, fields] of Object.entries(PLUGINS)) {
      await put(join(source, 'plugins', name, '.claude-plugin', 'plugin.json'), JSON.stringify({ name, ...fields }))
      await put(join(source, 'plugins', name, 'commands', `${name}.md`), `The ${name} command.\n`)
    }
    git(source, 'add', '-A')
    git(source, 'commit', '--quiet', '-m', 'plugins')
    expect((await seam('plugin', 'marketplace', 'add', source)).code).toBe(0)

    const lost = await seam('plugin', 'install', 'lost@team-tools')
    expect(lost.code).not.toBe(0)
    expect(lost.stderr).toContain(`lost's plugin.json: dependencies[1]: marketplace "team-tools" has no plugin "missing" (it lists base, lib, app, lost, picky, vague); lost@team-tools is not installed`)
    // base was installed for it, and removed again with the refusal.
    expect(await installed()).toEqual([])

    const picky = await seam('plugin', 'install', 'picky@team-tools')
    expect(picky.code).not.toBe(0)
    expect(picky.stderr).toContain(`picky's plugin.json: dependencies[1]: base@team-tools is at version 1.2.0, which does not satisfy ">=2"; picky@team-tools is not installed`)
    expect(await installed()).toEqual([])

    const vague = await seam('plugin', 'install', 'vague@team-tools')
    expect(vague.code).not.toBe(0)
    expect(vague.stderr).toMatch(/plugin\.json: dependencies\[0\]\.version: not a semver range\n/)
    expect(await installed()).toEqual([])

    const app = await seam('plugin', 'install', 'app@team-tools')
    expect(app.stderr).toBe('')
    expect(app.code).toBe(0)
    expect(app.stdout).toMatch(/^installed base@team-tools 1\.2\.0 .*\ninstalled lib@team-tools 1\.0\.0 .*\ninstalled app@team-tools 0\.1\.0 /)
    expect(await installed()).toEqual(['app@team-tools', 'base@team-tools', 'lib@team-tools'])
    const listed = (await seam('plugin', 'list')).stdout
    for (const id of ['app@team-tools', 'base@team-tools', 'lib@team-tools']) expect(listed).toMatch(new RegExp(`${id} {2}claude-plugin {2}\\S+ {2}enabled`))

    // Installed already: the dependency is used as it is.
    const again = await seam('plugin', 'install', 'app@team-tools')
    expect(again.stdout).toContain('dependency base@team-tools 1.2.0 is installed already\ndependency lib@team-tools 1.0.0 is installed already\n')

    const disabled = await seam('plugin', 'disable', 'base@team-tools')
    expect(disabled.code).toBe(0)
    expect(disabled.stderr).toBe('warning: app@team-tools depends on base@team-tools, which is now disabled\n')
    const removed = await seam('plugin', 'uninstall', 'lib@team-tools')
    expect(removed.code).toBe(0)
    expect(removed.stdout).toBe('uninstalled lib@team-tools\n')
    expect(removed.stderr).toBe('warning: app@team-tools depends on lib@team-tools, which is now uninstalled\n')
    expect((await seam('plugin', 'uninstall', 'app@team-tools')).stderr).toBe('')
  }, 120_000)
})
