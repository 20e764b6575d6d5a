// The `command` plugin source with the built `seam` as a real process (issue 29): scripts in a git
// marketplace print a plugin's folder. `copy` installs a copy whose command works in a session
// against a loopback Anthropic server; `link` installs a link to the folder in place; a script
// exiting 1 (its stderr shown), one printing a missing folder and one hanging past its timeout (its
// whole process group killed, a background child too) are refused, leaving nothing in the cache.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scaledTestMs } from '../process/liveness'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import type { CliResult } from '../../test-support/built-cli'
import { gitMarketplace, put, useClaudePluginCli } from '../../test-support/claude-plugin-cli'

const cli = useClaudePluginCli('claude-plugin-command-source')
const { seam, flags } = cli

async function pluginFolder(folder: string, name: string): Promise<void> {
  await put(join(folder, '.claude-plugin', 'plugin.json'), JSON.stringify({ name, version: '3.0.0' }))
  await put(join(folder, 'commands', 'hello.md'), 'Say hello from the command source to $ARGUMENTS. Root: ${CLAUDE_PLUGIN_ROOT}\n')
}

function cacheOf(market: string): string[] {
  const dir = join(cli.home, 'seam', 'claude-plugins', 'cache', market)
  return existsSync(dir) ? readdirSync(dir).sort() : []
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  // A zombie not yet reaped counts as gone.
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

async function gone(pid: number): Promise<boolean> {
  const until = Date.now() + scaledTestMs(5000)
  while (alive(pid)) {
    if (Date.now() > until) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return true
}

describe('the command plugin source, with the built seam (issue 29)', () => {
  it('copy and link the printed folder; a failing, hanging or wrong command is refused and leaves nothing', async () => {
    const market = join(cli.home, 'market-src')
    const outside = join(cli.home, 'elsewhere', 'linked-kit')
    await pluginFolder(outside, 'linked')
    const pidFile = join(cli.home, 'hang.pid')
    const plugins = [
      { name: 'kit', source: { source: 'command', command: 'sh tools/build.sh' } },
      { name: 'linked', source: { source: 'command', command: `echo resolving >&2; echo ${outside}`, mode: 'link' } },
      { name: 'broken', source: { source: 'command', command: 'echo "no licence for this plugin" >&2; exit 1' } },
      { name: 'missing', source: { source: 'command', command: 'echo ./nowhere' } },
      { name: 'hang', source: { source: 'command', command: `sleep 600 & echo $! > ${pidFile}; wait`, timeout: 1 } }
    ]
    await gitMarketplace(market, 'made', plugins as unknown as Array<{ name: string; source: string }>, async () => {
      // Prints progress, then the folder relative to the marketplace's folder (its working folder).
      await put(join(market, 'tools', 'build.sh'), 'mkdir -p out\ncp -R kit-src out/kit\necho "built"\necho "  ./out/kit  "\necho\n')
      await pluginFolder(join(market, 'kit-src'), 'kit')
    }, 'command sources')
    const added = await seam('plugin', 'marketplace', 'add', market)
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)

    const refusals: Array<[string, string]> = [
      ['broken', 'command source "echo "no licence for this plugin" >&2; exit 1": command: exited with 1; stderr: no licence for this plugin'],
      ['missing', `command source "echo ./nowhere": command: printed "./nowhere", which is not a folder (${join(market, 'nowhere')})`],
      ['hang', `command source "sleep 600 & echo $! > ${pidFile}; wait": timeout: still running after 1s, its process group was killed`]
    ]
    for (const [name, message] of refusals) {
      const refused = await seam('plugin', 'install', `${name}@made`)
      expect(refused.stderr, name).toContain(message)
      expect(refused.code, name).not.toBe(0)
      expect(cacheOf('made'), name).toEqual([])
    }
    // The hanging command's background child went with its group.
    expect(await gone(Number(readFileSync(pidFile, 'utf8').trim()))).toBe(true)

    const linked = await seam('plugin', 'install', 'linked@made')
    expect(linked.stderr).toBe('')
    expect(linked.code).toBe(0)
    const linkPath = join(cli.home, 'seam', 'claude-plugins', 'cache', 'made', 'linked', '3.0.0')
    expect(lstatSync(linkPath).isSymbolicLink()).toBe(true)
    expect(readlinkSync(linkPath)).toBe(outside)

    const installed = await seam('plugin', 'install', 'kit@made')
    expect(installed.stderr).toBe('')
    expect(installed.code).toBe(0)
    const root = join(cli.home, 'seam', 'claude-plugins', 'cache', 'made', 'kit', '3.0.0')
    expect(lstatSync(root).isDirectory()).toBe(true)
    expect(cacheOf('made')).toEqual(['kit', 'linked'])

    const model = await startFakeAnthropic([{ text: 'done' }])
    let run: CliResult
    try {
      run = await seam('run', ...flags(model.url), '/kit:hello world')
    } finally {
      await model.close()
    }
    expect(run.stderr).not.toMatch(/error|failed/i)
    expect(run.code).toBe(0)
    expect(JSON.stringify(model.requests[0]?.body)).toContain(`Say hello from the command source to world. Root: ${root}`)

    // Uninstalling the linked plugin removes the link, never the folder it points to.
    expect((await seam('plugin', 'uninstall', 'linked@made')).code).toBe(0)
    expect(existsSync(linkPath)).toBe(false)
    expect(existsSync(join(outside, '.claude-plugin', 'plugin.json'))).toBe(true)
  })
})
