// `seam plugin tag` with the built `seam` as a real process (issue 29), as `claude plugin tag`: in a
// marketplace repository made here with a bare `origin`, it tags the plugin's version
// `name--v<version>` (dry run first), refuses a tag that exists, changes under the plugin's folder
// and a plugin.json that disagrees with its marketplace entry, moves one with --force, pushes with
// --push (a failed push keeps the tag and exits 1); and the tags it
// made are what a dependency's range then installs from.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { git, put, useClaudePluginCli } from '../../test-support/claude-plugin-cli'

const cli = useClaudePluginCli('claude-plugin-tag')

async function setVersion(market: string, version: string, entryVersion = version): Promise<void> {
  await put(join(market, 'plugins', 'lib', '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'lib', version }))
  await put(join(market, 'plugins', 'lib', 'commands', 'lib.md'), `lib at ${version}\n`)
  await put(
    join(market, '.claude-plugin', 'marketplace.json'),
    JSON.stringify({
      name: 'team',
      owner: { name: 'Team' },
      plugins: [
        { name: 'lib', source: './plugins/lib', version: entryVersion },
        { name: 'app', source: './plugins/app' }
      ]
    })
  )
}

describe('seam plugin tag (issue 29)', () => {
  it('tags name--v<version> at HEAD, refusing an existing tag, changes under the plugin and a disagreeing entry; --push pushes; a range installs from the tags', async () => {
    const market = join(cli.home, 'team-src')
    const origin = join(cli.home, 'team.git')
    git(cli.home, 'init', '--quiet', '--bare', '--initial-branch=main', origin)
    git(cli.home, 'init', '--quiet', '--initial-branch=main', market)
    git(market, 'remote', 'add', 'origin', origin)
    await setVersion(market, '1.0.0')
    await put(join(market, 'plugins', 'app', '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'app', version: '0.1.0', dependencies: [{ name: 'lib', version: '~1.0' }] }))
    git(market, 'add', '-A')
    git(market, 'commit', '--quiet', '-m', 'lib 1.0.0')
    const lib = join(market, 'plugins', 'lib')
    const tag = (...args: string[]) => cli.seam('plugin', 'tag', ...args)
    const tags = () => git(market, 'tag', '--list').trim()

    const dry = await tag(lib, '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toMatch(/^Would create tag lib--v1\.0\.0: lib 1\.0\.0 at [0-9a-f]{12} \(listed in .*marketplace\.json\)\n$/)
    expect(tags()).toBe('')

    const created = await tag(lib)
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toContain('Created tag lib--v1.0.0')
    expect(created.stdout).toContain('Push it with: git push origin refs/tags/lib--v1.0.0')
    expect(git(market, 'rev-parse', 'lib--v1.0.0^{commit}')).toBe(git(market, 'rev-parse', 'HEAD'))

    const again = await tag(lib)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('seam: tag lib--v1.0.0 already exists in')
    const forced = await tag(lib, '--force')
    expect(forced.code, forced.stderr).toBe(0)
    expect(forced.stdout).toContain('Moved tag lib--v1.0.0')

    // A change outside the plugin's folder does not count; one inside it does, untracked too.
    await put(join(market, 'README.md'), 'notes\n')
    await setVersion(market, '1.0.4')
    const dirty = await tag(lib)
    expect(dirty.code).toBe(1)
    expect(dirty.stderr).toContain(`the working tree has changes under ${lib}`)
    expect(dirty.stderr).toContain('plugins/lib/.claude-plugin/plugin.json')
    expect(dirty.stderr).not.toContain('README.md')
    git(market, 'add', 'plugins', '.claude-plugin')
    git(market, 'commit', '--quiet', '-m', 'lib 1.0.4')

    // Without PATH it is the current folder: here the workspace, in no git repository.
    const outside = await tag('--push')
    expect(outside.code).toBe(1)
    expect(outside.stderr).toMatch(/is not in a git repository: release tags live in the repository that hosts the plugin/)
    const fromInside = await cli.seam('plugin', 'tag', lib, '--push')
    expect(fromInside.code, fromInside.stderr).toBe(0)
    expect(fromInside.stdout).toContain('Created tag lib--v1.0.4')
    expect(fromInside.stdout).toContain('Pushed to origin\n')
    expect(git(origin, 'tag', '--list').trim().split('\n')).toEqual(['lib--v1.0.4'])

    await setVersion(market, '1.1.0', '1.2.0')
    git(market, 'commit', '--quiet', '-am', 'lib 1.1.0, entry 1.2.0')
    const disagree = await tag(lib)
    expect(disagree.code).toBe(1)
    expect(disagree.stderr).toContain(`${join(lib, '.claude-plugin', 'plugin.json')} says version 1.1.0 but the entry "lib" of ${join(market, '.claude-plugin', 'marketplace.json')} says 1.2.0: make them agree before tagging`)
    await setVersion(market, '1.1.0')
    git(market, 'commit', '--quiet', '-am', 'lib 1.1.0')
    // A push that fails keeps the tag made here and exits 1.
    const unpushed = await tag(lib, '--push', '--remote', 'nowhere')
    expect(unpushed.code).toBe(1)
    expect(unpushed.stdout).toContain('Created tag lib--v1.1.0')
    expect(unpushed.stderr).toContain('seam: git push nowhere refs/tags/lib--v1.1.0 failed (the tag is created here)')
    expect(tags().split('\n')).toContain('lib--v1.1.0')
    git(market, 'push', '--quiet', 'origin', 'main', 'lib--v1.0.0', 'lib--v1.1.0')

    // The marketplace lists lib at 1.1.0 now; app's ~1.0 installs the highest tag in it.
    const added = await cli.seam('plugin', 'marketplace', 'add', pathToFileURL(origin).href)
    expect(added.code, added.stderr).toBe(0)
    const install = await cli.seam('plugin', 'install', 'app@team')
    expect(install.code, install.stderr).toBe(0)
    const installed = JSON.parse(await readFile(join(cli.home, 'seam', 'claude-plugins', 'installed_plugins.json'), 'utf8')) as { plugins: Record<string, { version: string; installPath: string }> }
    expect(installed.plugins['lib@team'].version).toBe('1.0.4')
    expect(await readFile(join(installed.plugins['lib@team'].installPath, 'commands', 'lib.md'), 'utf8')).toBe('lib at 1.0.4\n')
  })
})
