// Issue 29, the plugin manager and dependencies on another marketplace: two marketplaces made here
// as git repositories on disk; `team-tools` lists `shared` in `allowCrossMarketplaceDependenciesOn`,
// so the real `seam plugin install app@team-tools` (before the app starts) installs `lib@shared`
// with it. The manager's rows say so: app's dependencies name lib with its marketplace and range,
// lib's row says it was installed as a dependency, and turning lib off asks first, naming app as
// the plugin that depends on it. After the switch, `seam plugin list` reports lib disabled.
import { join } from 'node:path'
import { scaledTimeout } from './fixtures'
import { gitRepository, openPlugins, seam } from './support/claude-plugins'
import { expect, test as base } from './support/seam-test'

const plugin = (name: string, fields: Record<string, unknown>): Record<string, string> => ({
  [`plugins/${name}/.claude-plugin/plugin.json`]: JSON.stringify({ name, ...fields }),
  [`plugins/${name}/commands/hello.md`]: `---\ndescription: Say hello\n---\nThe ${name} plugin says hello.\n`
})

const test = base.extend<{ cliEnv: NodeJS.ProcessEnv }>({
  cliEnv: async ({ tempRoot, seamHome }, use) => {
    await use({ ...process.env, HOME: join(tempRoot, 'home'), SEAM_HOME: seamHome })
  },
  seamHome: async ({ seamHome, tempRoot }, use) => {
    const env = { ...process.env, HOME: join(tempRoot, 'home'), SEAM_HOME: seamHome }
    gitRepository(join(tempRoot, 'team-tools'), {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'team-tools', owner: { name: 'Test' }, allowCrossMarketplaceDependenciesOn: ['shared'], plugins: [{ name: 'app', source: './plugins/app' }] }),
      ...plugin('app', { version: '0.1.0', dependencies: [{ name: 'lib', marketplace: 'shared', version: '^1.0.0' }] })
    })
    gitRepository(join(tempRoot, 'shared'), {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'shared', owner: { name: 'Test' }, plugins: [{ name: 'lib', source: './plugins/lib' }] }),
      ...plugin('lib', { version: '1.4.0' })
    })
    for (const name of ['team-tools', 'shared']) {
      const added = await seam(['plugin', 'marketplace', 'add', join(tempRoot, name)], env)
      expect(added.code, added.output).toBe(0)
    }
    const installed = await seam(['plugin', 'install', 'app@team-tools'], env)
    expect(installed.code, installed.output).toBe(0)
    expect(installed.output).toContain('installed lib@shared 1.4.0')
    await use(seamHome)
  }
})

test('a dependency from another marketplace: named with its marketplace, marked as installed for it, and its dependent named before it is turned off', async ({ app, cliEnv }) => {
  test.setTimeout(scaledTimeout(120_000))
  await openPlugins(app)
  const table = app.getByRole('main', { name: 'Plugins page' }).getByRole('table', { name: 'Claude Code and Codex plugins' })
  const appRow = table.getByRole('row', { name: 'app@team-tools', exact: true })
  const libRow = table.getByRole('row', { name: 'lib@shared', exact: true })
  await expect(libRow).toContainText('marketplace shared')
  await expect(libRow).toContainText('installed as a dependency')
  await expect(appRow).not.toContainText('installed as a dependency')

  const summary = appRow.getByLabel(/^Components of app@team-tools/)
  await expect(summary).toHaveText('1 command, 1 dependency')
  await summary.click()
  await expect(appRow).toContainText('lib@shared ^1.0.0')

  const toggle = libRow.getByRole('switch', { name: 'lib@shared enabled' })
  await toggle.click()
  const off = app.getByRole('dialog', { name: 'Turn off lib@shared?' })
  await expect(off).toContainText('app@team-tools depends on it and stays on without it.')
  await off.getByRole('button', { name: 'Turn off lib@shared' }).click()
  await expect(toggle).toHaveAttribute('aria-checked', 'false')
  const listed = await seam(['plugin', 'list'], cliEnv)
  expect(listed.output).toMatch(/lib@shared .*disabled \(Seam\).*installed as a dependency/)
  expect(listed.output).toMatch(/app@team-tools .*enabled .*depends on lib@shared \^1\.0\.0/)
})
