// Issue 18 "Sharing": the plugin manager searches a real npm registry (verdaccio on loopback, the
// bundles published with `npm publish`), shows whether each bundle fits this Seam, and installs
// one by name through the host's registry client.
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hostSource, makeBundleDir } from '../test-support/bundles'
import { startLocalRegistry, type LocalRegistry } from '../test-support/local-registry'
import { expect, test as seamTest } from './support/seam-test'
import { ui } from './support/ui'
import { repoRoot, scaledTimeout } from './fixtures'

/** The plugin API version engines.seam is checked against (Playwright's loader does not import JSON modules). */
const SDK_VERSION = (JSON.parse(readFileSync(join(repoRoot, 'packages/sdk/package.json'), 'utf8')) as { version: string }).version

let registry: LocalRegistry
let work = ''

const test = seamTest.extend({
  // npm's settings for the host: this registry, and no user or global npmrc of the machine.
  hostEnv: async ({ hostEnv, tempRoot }, use) => {
    // Two files: npm refuses to load one file as both layers.
    const user = join(tempRoot, 'user-npmrc')
    const global = join(tempRoot, 'global-npmrc')
    await writeFile(user, '')
    await writeFile(global, '')
    await use({ ...hostEnv, npm_config_registry: registry.proxyUrl, npm_config_userconfig: user, npm_config_globalconfig: global })
  }
})

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(scaledTimeout(120_000))
  work = await mkdtemp(join(tmpdir(), 'seam-e2e-registry-'))
  registry = await startLocalRegistry()
  const token = await registry.addUser('publisher', 'publisher-password')
  const publish = async (name: string, version: string, engines: string, description: string) => {
    const dir = await makeBundleDir(join(work, name), {
      name,
      version,
      enginesSeam: engines,
      host: hostSource(name),
      manifest: { keywords: ['seam-plugin'], description }
    })
    await registry.publish(dir, token)
  }
  await Promise.all([
    publish('seam-e2e-fits', '1.0.0', `>=${SDK_VERSION}`, 'a bundle for this Seam'),
    publish('seam-e2e-future', '3.0.0', '>=99.0.0', 'a bundle for a future Seam')
  ])
})

test.afterAll(async () => {
  await registry?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

test('search the registry, see which bundles fit this Seam, install one by name', async ({ app }, testInfo) => {
  await ui.pageButton(app, 'Plugins').click()
  const page = app.getByRole('main', { name: 'Plugins page' })
  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('seam-e2e')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  const results = page.getByRole('table', { name: 'Registry bundles' })
  const fits = results.getByRole('row', { name: 'seam-e2e-fits', exact: true })
  const future = results.getByRole('row', { name: 'seam-e2e-future', exact: true })
  await expect(fits).toContainText('a bundle for this Seam')
  await expect(fits).toContainText('1.0.0')
  await expect(fits.locator('[data-fits]')).toHaveText('fits')
  await expect(future.locator('[data-fits]')).toHaveText('does not fit (needs Seam >=99.0.0)')
  await expect(future.getByRole('button', { name: 'Install seam-e2e-future' })).toBeDisabled()
  await testInfo.attach('search', { body: await app.screenshot(), contentType: 'image/png' })

  await fits.getByRole('button', { name: 'Install seam-e2e-fits' }).click()
  const dialog = app.getByRole('dialog', { name: 'Install plugin bundle' })
  await expect(dialog.getByLabel('Bundle version')).toHaveText('1.0.0')
  await expect(dialog.getByLabel('Registry')).toHaveText(registry.proxyUrl)
  await expect(dialog.getByLabel('Update range')).toHaveText('^1.0.0')
  // Resolving downloaded nothing yet.
  expect(registry.requests.filter((r) => r.path.endsWith('.tgz'))).toEqual([])
  await dialog.getByRole('button', { name: 'Install', exact: true }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('status')).toHaveText(`Installed seam-e2e-fits 1.0.0 from ${registry.proxyUrl}.`)
  await expect(page.getByRole('row', { name: 'seam-e2e-fits', exact: true }).first()).toBeVisible()
  const installedRow = page.getByRole('table', { name: 'Installed plugins' }).getByRole('row', { name: 'seam-e2e-fits', exact: true })
  await expect(installedRow).toContainText('active')
  expect(registry.requests.filter((r) => r.path.endsWith('.tgz')).map((r) => r.path)).toEqual(['/seam-e2e-fits/-/seam-e2e-fits-1.0.0.tgz'])
})
