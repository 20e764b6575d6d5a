// Issue 29, the plugin manager: a Claude Code plugin (a real folder with a command, an agent, a
// skill, a hook and an MCP server) in a local marketplace made here as a git repository on disk,
// installed with the real `seam plugin` CLI into the test's Seam home before the app starts, is
// listed beside Seam's bundles with its source, version, components (names on expand) and state.
// Its switch asks first, naming what stops or starts running; turning it off writes Seam's switch
// (the same operation as `seam plugin disable`, which the CLI then reports) and really stops its
// MCP server; turning it on starts it again. Checked with axe at 1280x800 and 800x600, light and dark.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { scaledTimeout } from './fixtures'
import { gitRepository, openPlugins, seam } from './support/claude-plugins'
import { expect, test as base } from './support/seam-test'
import { expectSchemesOk, onScreen, SIZES, sizeName } from './support/screens'
import { settingsSection } from './support/ui'

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const ID = 'kit@team-tools'

const test = base.extend<{ cliEnv: NodeJS.ProcessEnv }>({
  cliEnv: async ({ tempRoot }, use) => {
    await use({ ...process.env, HOME: join(tempRoot, 'home') })
  },
  // The marketplace and the install happen before the host starts, as a user would have done.
  seamHome: async ({ seamHome, tempRoot, cliEnv }, use) => {
    const repo = join(tempRoot, 'team-tools')
    gitRepository(repo, {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'team-tools', owner: { name: 'Test' }, plugins: [{ name: 'kit', source: './plugins/kit', description: 'the team kit' }] }),
      'plugins/kit/.claude-plugin/plugin.json': JSON.stringify({ name: 'kit', version: '1.0.0', description: 'the team kit' }),
      'plugins/kit/commands/hello.md': '---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS.\n',
      'plugins/kit/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code\n---\nYou review code.\n',
      'plugins/kit/skills/greet/SKILL.md': '---\nname: greet\ndescription: Greets warmly\n---\nGreet warmly.\n',
      'plugins/kit/hooks/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh' }] }] } }),
      'plugins/kit/scripts/guard.sh': '#!/bin/sh\nexit 0\n',
      'plugins/kit/.mcp.json': JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } })
    })
    const env = { ...cliEnv, SEAM_HOME: seamHome }
    const added = await seam(['plugin', 'marketplace', 'add', repo], env)
    expect(added.code, added.output).toBe(0)
    const installed = await seam(['plugin', 'install', ID], env)
    expect(installed.code, installed.output).toBe(0)
    await use(seamHome)
  }
})

for (const size of SIZES) {
  test(`plugin manager at ${sizeName(size)}, light and dark: a Claude Code plugin beside Seam bundles, its components, its switch with a confirmation`, async ({ app, seamHome, cliEnv }, testInfo) => {
    test.setTimeout(scaledTimeout(120_000))
    const name = sizeName(size)
    await onScreen(app, { ...size, colorScheme: 'light' })

    // The MCP server the plugin brings is running (listed in Settings).
    await settingsSection(app, 'MCP servers')
    const server = app.getByRole('listitem', { name: 'MCP server plugin_kit_everything' })
    await expect(server).toBeVisible({ timeout: scaledTimeout(20_000) })

    await openPlugins(app)
    const page = app.getByRole('main', { name: 'Plugins page' })
    await expect(page.getByRole('table', { name: 'Installed plugins' }).getByRole('row').nth(1)).toBeVisible()
    const row = page.getByRole('table', { name: 'Claude Code and Codex plugins' }).getByRole('row', { name: ID, exact: true })
    await expect(row).toContainText('Claude Code plugin')
    await expect(row).toContainText('1.0.0')
    await expect(row).toContainText('marketplace team-tools')
    await expect(row).toContainText('team-tools:./plugins/kit')
    await expect(row).toContainText('enabled')
    const summary = row.getByLabel(/^Components of kit@team-tools/)
    await expect(summary).toHaveText('1 command, 1 agent, 1 skill, 1 hook, 1 MCP server')
    await summary.click()
    for (const component of ['/kit:hello', 'reviewer', 'kit:greet', 'plugin_kit_everything']) await expect(row).toContainText(component)
    await expect(row).toContainText(/PreToolUse: .*claude-plugins\/cache\/team-tools\/kit\/1\.0\.0\/scripts\/guard\.sh/)
    await expectSchemesOk(app, testInfo, `plugins-${name}`, { screenshot: true })

    // Off: asked first, naming what stops; Cancel changes nothing.
    const toggle = row.getByRole('switch', { name: `${ID} enabled` })
    await expect(toggle).toHaveAttribute('aria-checked', 'true')
    await toggle.click()
    const off = app.getByRole('dialog', { name: `Turn off ${ID}?` })
    await expect(off).toContainText('These stop running:')
    await expect(off).toContainText(`MCP server plugin_kit_everything: ${process.execPath} ${EVERYTHING} stdio`)
    await expect(off).toContainText('hook PreToolUse:')
    await expect(off).toContainText('No longer offered to sessions: /kit:hello, skill kit:greet, agent reviewer.')
    await expectSchemesOk(app, testInfo, `confirm-off-${name}`)
    await off.getByRole('button', { name: 'Cancel' }).click()
    await expect(toggle).toHaveAttribute('aria-checked', 'true')
    await toggle.click()
    await off.getByRole('button', { name: `Turn off ${ID}` }).click()
    await expect(off).toHaveCount(0)
    await expect(toggle).toHaveAttribute('aria-checked', 'false')
    await expect(row).toContainText('disabled')
    await expect(row).toContainText('set in Seam')

    // The switch is Seam's, the same one the CLI uses: its file says so, and so does `seam plugin list`.
    const file = JSON.parse(readFileSync(join(seamHome, 'claude-plugins', 'installed_plugins.json'), 'utf8')) as { plugins: Record<string, { enabled?: boolean }> }
    expect(file.plugins[ID].enabled).toBe(false)
    const listed = await seam(['plugin', 'list'], { ...cliEnv, SEAM_HOME: seamHome })
    expect(listed.output).toMatch(/kit@team-tools .*disabled \(Seam\)/)

    // Its MCP server really stopped.
    await settingsSection(app, 'MCP servers')
    await expect(server).toHaveCount(0)

    // On again: the confirmation names what starts; the server comes back.
    await openPlugins(app)
    await toggle.click()
    const on = app.getByRole('dialog', { name: `Turn on ${ID}?` })
    await expect(on).toContainText('These start running:')
    await expect(on).toContainText('MCP server plugin_kit_everything')
    await expectSchemesOk(app, testInfo, `confirm-on-${name}`)
    await on.getByRole('button', { name: `Turn on ${ID}` }).click()
    await expect(toggle).toHaveAttribute('aria-checked', 'true')
    await settingsSection(app, 'MCP servers')
    await expect(server).toBeVisible({ timeout: scaledTimeout(20_000) })
  })
}
