// Issue 18, the author's loop: `seam plugin dev PATH` against the running app. A bundle scaffolded
// by `seam plugin new` is served by a real `seam plugin dev` process on the app's Seam home; its
// sidebar panel appears, and editing its client source re-renders the panel with the new code in
// the open page (no reload). A syntax error is shown on the plugin's row with file and line while
// the panel keeps the last good build; the fix brings the new text.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { seedSeamHome } from '../test-support/packed-sdk'
import { repoRoot, scaledTimeout } from './fixtures'
import { expect, test } from './support/seam-test'
import { snap, ui } from './support/ui'

const NAME = 'panel-dev'
const TOOL = 'PanelDev'
const SEAM_BIN = join(repoRoot, 'bin', 'seam.mjs')

let work = ''
let bundle = ''

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [SEAM_BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  return { child, output: () => output }
}

test.beforeAll(async ({}, testInfo) => {
  // The first file of the run to need the SDK packs it (a Vite build and tsc), as plugin-dev.test.ts allows for.
  testInfo.setTimeout(scaledTimeout(180_000))
  // Inside the repository (under out/), so the bundle resolves @seam/sdk and Vite from node_modules.
  await mkdir(join(repoRoot, 'out'), { recursive: true })
  work = await mkdtemp(join(repoRoot, 'out', 'e2e-plugin-dev-'))
  bundle = join(work, NAME)
  // Its own Seam home, holding the SDK packed once for the run (test-support/packed-sdk.ts), where
  // `seam plugin new` takes one packed earlier: never the developer's ~/.seam.
  const home = join(work, 'home')
  await seedSeamHome(home)
  const created = run(['plugin', 'new', NAME, '--client'], work, { ...process.env, SEAM_HOME: home })
  const code = await new Promise((resolve) => created.child.once('exit', resolve))
  expect(code, created.output()).toBe(0)
})

test.afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

async function editClient(edit: (source: string) => string): Promise<void> {
  const file = join(bundle, 'src', 'client.tsx')
  await writeFile(file, edit(await readFile(file, 'utf8')))
}

test('seam plugin dev: the panel appears, re-renders on each edit, and a syntax error keeps the last good build', async ({ app, seamHome }, testInfo) => {
  test.setTimeout(scaledTimeout(120_000))
  const dev = run(['plugin', 'dev', bundle], work, { ...process.env, SEAM_HOME: seamHome })
  try {
    const panel = app.getByRole('region', { name: TOOL })
    await expect(panel).toContainText(`Ask the agent to use ${TOOL}.`, { timeout: 60_000 })

    await ui.pageButton(app, 'Plugins').click()
    const row = app.getByRole('main', { name: 'Plugins page' }).getByRole('row', { name: NAME, exact: true })
    await expect(row).toContainText('dev')
    await expect(row).toContainText(`dev: ${bundle}`)
    await snap(app, testInfo, 'dev-bundle-row')

    await editClient((source) => source.replace('Ask the agent to use', 'Edited while running: use'))
    await expect(panel).toContainText(`Edited while running: use ${TOOL}.`, { timeout: 60_000 })

    await editClient((source) => source.replace('render: () => <p>', 'render: () => <p'))
    await expect(row).toContainText(/src\/client\.tsx:\d+:\d+/, { timeout: 60_000 })
    await expect(panel).toContainText(`Edited while running: use ${TOOL}.`)
    await snap(app, testInfo, 'build-error')

    await editClient((source) => source.replace('render: () => <p', 'render: () => <p>').replace('Edited while running', 'Fixed'))
    await expect(panel).toContainText(`Fixed: use ${TOOL}.`, { timeout: 60_000 })
    await expect(row).not.toContainText('src/client.tsx')
  } finally {
    dev.child.kill('SIGTERM')
    await new Promise((resolve) => (dev.child.exitCode !== null ? resolve(null) : dev.child.once('exit', resolve)))
    testInfo.attach('seam plugin dev', { body: dev.output(), contentType: 'text/plain' }).catch(() => undefined)
  }
})
