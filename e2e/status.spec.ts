// Issue 2: the page loads and the status line shows what the host pushed: its version (the one in
// package.json) and the transport in use ('web' in Chromium, 'electron' in the desktop app).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, repoRoot, test } from './fixtures'

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version

test('the status line shows the host version and the transport in use', async ({ app, target }, testInfo) => {
  const status = app.getByTestId('status-line')
  await expect(status).toContainText(`Seam v${version}`)
  await expect(status).toContainText(`transport: ${target}`)
  await expect(app.getByRole('status', { name: 'Connection' })).toHaveText('connected')
  await app.screenshot({ path: testInfo.outputPath('status.png') })
})
