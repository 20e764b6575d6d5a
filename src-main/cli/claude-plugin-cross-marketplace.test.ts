// Dependencies on another marketplace with the built `seam` as a real process (issue 29): two
// marketplaces in git repositories on disk; the one the plugin comes from lists the other in
// `allowCrossMarketplaceDependenciesOn`, so installing the plugin installs its dependency from
// there and a session (loopback Anthropic server) runs the dependency's command. A dependency on a
// marketplace not allowed, or not added, or outside the range, refuses and installs nothing;
// disable and uninstall name the dependents across marketplaces; `seam plugin prune` removes what
// was installed as a dependency once nothing needs it, asking on the terminal first (a real one,
// by `script`; `-y` skips it; none: nothing removed) and never removing what the user installed,
// and so does `uninstall --prune`; removing a marketplace names what depended on its plugins.
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { SEAM_BIN, type CliResult } from '../../test-support/built-cli'
import { gitMarketplace, put, useClaudePluginCli } from '../../test-support/claude-plugin-cli'

const cli = useClaudePluginCli('claude-plugin-xmarket')
const { seam, flags } = cli

async function installed(): Promise<string[]> {
  try {
    return Object.keys(JSON.parse(await readFile(join(cli.home, 'seam', 'claude-plugins', 'installed_plugins.json'), 'utf8')).plugins ?? {}).sort()
  } catch {
    return []
  }
}

/** `seam ARGS` on a real terminal (`script`): `answer` is typed once the question ending in `[y/N] ` shows. */
function seamOnTerminal(args: string[], answer: string): Promise<{ code: number; output: string }> {
  const command = [process.execPath, SEAM_BIN, ...args].map((a) => `'${a}'`).join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: cli.workspace, env: { ...process.env, SEAM_HOME: join(cli.home, 'seam'), HOME: cli.home } })
  let output = ''
  let answered = false
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    if (!answered && output.includes('[y/N] ')) {
      answered = true
      child.stdin.write(`${answer}\r`)
    }
  })
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? 1, output })))
}

/** A marketplace repository `name` whose plugins each have a plugin.json and one command. */
async function marketplace(name: string, plugins: Record<string, Record<string, unknown>>, allow?: string[]): Promise<string> {
  const source = join(cli.home, `${name}-src`)
  await gitMarketplace(
    source,
    name,
    Object.keys(plugins).map((plugin) => ({ name: plugin, source: `./plugins/${plugin}` })),
    async () => {
      if (allow) {
        const file = join(source, '.claude-plugin', 'marketplace.json')
        await put(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), allowCrossMarketplaceDependenciesOn: allow }))
      }
      for (const [plugin, fields] of Object.entries(plugins)) {
        await put(join(source, 'plugins', plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: plugin, ...fields }))
        await put(join(source, 'plugins', plugin, 'commands', 'hello.md'), `---\ndescription: Greets\n---\nThe ${plugin} plugin says hello to $ARGUMENTS.\n`)
      }
    },
    'plugins'
  )
  return source
}

describe('Claude Code plugin dependencies on another marketplace, with the built seam (issue 29)', () => {
  it('an allowed one installs from the other marketplace and its command runs in a session; not allowed or not added refuses; dependents named; prune', async () => {
    await marketplace(
      'team-tools',
      {
        app: { version: '0.1.0', dependencies: [{ name: 'lib', marketplace: 'shared', version: '^1.0.0' }] },
        rogue: { version: '0.1.0', dependencies: ['tool@other'] },
        ghost: { version: '0.1.0', dependencies: ['x@later'] },
        ahead: { version: '0.1.0', dependencies: ['tool@team-tools', { name: 'lib', marketplace: 'shared', version: '^2' }] },
        tool: { version: '1.0.0' }
      },
      ['shared', 'later']
    )
    await marketplace('shared', { lib: { version: '1.4.0' } })
    await marketplace('other', { tool: { version: '2.0.0' } })
    for (const name of ['team-tools', 'shared', 'other']) expect((await seam('plugin', 'marketplace', 'add', join(cli.home, `${name}-src`))).code).toBe(0)

    const rogue = await seam('plugin', 'install', 'rogue@team-tools')
    expect(rogue.code).not.toBe(0)
    expect(rogue.stderr).toContain(`rogue's plugin.json: dependencies[0]: tool@other is in marketplace "other", which marketplace "team-tools" (that rogue@team-tools comes from) does not list in allowCrossMarketplaceDependenciesOn`)
    expect(await installed()).toEqual([])
    const ghost = await seam('plugin', 'install', 'ghost@team-tools')
    expect(ghost.code).not.toBe(0)
    expect(ghost.stderr).toContain(`ghost's plugin.json: dependencies[0]: x@later: marketplace "later" is not added (seam plugin marketplace add SOURCE), then install again; ghost@team-tools is not installed`)
    expect(await installed()).toEqual([])

    // lib@shared is installed for it, found outside the range, and removed again with tool@team-tools.
    const ahead = await seam('plugin', 'install', 'ahead@team-tools')
    expect(ahead.code).not.toBe(0)
    expect(ahead.stderr).toContain(`ahead's plugin.json: dependencies[1]: lib@shared is at version 1.4.0, which does not satisfy "^2"; ahead@team-tools is not installed`)
    expect(await installed()).toEqual([])

    const app = await seam('plugin', 'install', 'app@team-tools')
    expect(app.stderr).toBe('')
    expect(app.code).toBe(0)
    expect(app.stdout).toMatch(/^installed lib@shared 1\.4\.0 .*\ninstalled app@team-tools 0\.1\.0 /)
    expect(await installed()).toEqual(['app@team-tools', 'lib@shared'])
    const listed = (await seam('plugin', 'list')).stdout
    expect(listed).toMatch(/app@team-tools {2}claude-plugin {2}0\.1\.0 {2}enabled \(default\) {2}team-tools:\.\/plugins\/app {2}commands 1, .*, depends on lib@shared \^1\.0\.0\n/)
    expect(listed).toMatch(/lib@shared {2}claude-plugin {2}1\.4\.0 {2}enabled \(default\) {2}shared:\.\/plugins\/lib {2}commands 1, .*, installed as a dependency\n/)

    // The dependency from the other marketplace is loaded in a session: its command, namespaced by its plugin.
    const server = await startFakeAnthropic([{ text: 'Hello.' }])
    let run: CliResult
    try {
      run = await seam('run', ...flags(server.url), '/lib:hello world')
    } finally {
      await server.close()
    }
    expect(run.stderr).not.toMatch(/error|failed/i)
    expect(run.code).toBe(0)
    expect(JSON.stringify(server.requests[0]?.body)).toContain('The lib plugin says hello to world.')

    expect((await seam('plugin', 'disable', 'lib@shared')).stderr).toBe('warning: app@team-tools depends on lib@shared, which is now disabled\n')
    expect((await seam('plugin', 'enable', 'lib@shared')).code).toBe(0)

    // Needed by app: nothing to prune.
    expect((await seam('plugin', 'prune')).stdout).toBe('no dependencies to prune: every plugin installed as a dependency is still needed\n')
    expect((await seam('plugin', 'install', 'tool@other')).code).toBe(0)
    expect((await seam('plugin', 'uninstall', 'app@team-tools')).stderr).toBe('')
    const dry = await seam('plugin', 'prune', '--dry-run')
    expect(dry.stdout).toBe('would uninstall lib@shared (installed as a dependency; nothing installed needs it)\n')
    // No terminal to ask, no -y: nothing removed.
    const unasked = await seam('plugin', 'prune')
    expect(unasked.code).toBe(1)
    expect(unasked.stderr).toBe('seam plugin prune would uninstall lib@shared: there is no terminal to ask, so nothing was removed (confirm with -y)\n')
    expect(await installed()).toEqual(['lib@shared', 'tool@other'])
    // On a terminal it asks first; anything but y keeps them.
    const declined = await seamOnTerminal(['plugin', 'prune'], 'n')
    expect(declined.output).toContain('Uninstall lib@shared (installed as dependencies; nothing installed needs them), with their data? [y/N] ')
    expect(declined.output).toContain('nothing was removed')
    expect(declined.code).toBe(0)
    expect(await installed()).toEqual(['lib@shared', 'tool@other'])
    const pruned = await seam('plugin', 'autoremove', '-y')
    expect(pruned.code).toBe(0)
    expect(pruned.stdout).toBe('uninstalled lib@shared (installed as a dependency; nothing installed needs it)\n')
    // tool@other was installed by name: prune never removes it.
    expect(await installed()).toEqual(['tool@other'])

    // uninstall --prune: the plugin, then what it alone needed.
    expect((await seam('plugin', 'install', 'app@team-tools')).code).toBe(0)
    const both = await seamOnTerminal(['plugin', 'uninstall', 'app@team-tools', '--prune'], 'y')
    expect(both.code).toBe(0)
    expect(both.output).toMatch(/^uninstalled app@team-tools\r?\nUninstall lib@shared .*\[y\/N\] y\r?\nuninstalled lib@shared \(installed as a dependency; nothing installed needs it\)\r?\n$/)
    expect(await installed()).toEqual(['tool@other'])
    expect((await seam('plugin', 'install', 'tool@other', '--dry-run')).stderr).toContain('--dry-run goes with seam plugin prune')

    // Removing a marketplace uninstalls its plugins and names what, in another marketplace, needed them.
    expect((await seam('plugin', 'install', 'app@team-tools')).code).toBe(0)
    const removed = await seam('plugin', 'marketplace', 'remove', 'shared')
    expect(removed.stdout).toBe('removed marketplace shared; uninstalled lib@shared\n')
    expect(removed.stderr).toBe('warning: app@team-tools depends on lib@shared, which is now uninstalled\n')
    expect(await installed()).toEqual(['app@team-tools', 'tool@other'])
  }, 180_000)
})
