// app/status `trustNeeded` (issue 17, "Working fast": settings): "untrusted" is shown only for a
// workspace with something to trust, so an empty folder counts 0, and a hook, an MCP server or
// the workspace's own patch file each count.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppStatus } from '../../src-shared/contract/ipc'
import { createHost, type Host } from './host'

let home: string
let workspace: string
let host: Host | undefined

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-trust-needed-'))
  workspace = join(home, 'ws')
  await mkdir(workspace)
  await writeFile(join(home, 'settings.json'), JSON.stringify({ workspace }))
})

afterEach(async () => {
  await host?.close()
  host = undefined
  await rm(home, { recursive: true, force: true })
})

async function status(): Promise<AppStatus> {
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: join(home, 'user-home') } })
  const reply = await host.router.invoke('app/status', {}, { transport: 'web' })
  if (!reply.ok) throw new Error(reply.error.message)
  return reply.output as AppStatus
}

describe('app/status trustNeeded', () => {
  it('is 0 for an untrusted workspace that declares nothing', async () => {
    expect(await status()).toMatchObject({ workspace, workspaceTrusted: false, trustNeeded: 0 })
  })

  it('counts Claude Code hooks and MCP servers the workspace declares', async () => {
    await mkdir(join(workspace, '.claude'))
    await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }))
    await writeFile(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { files: { command: 'node', args: ['server.js'] } } }))
    expect((await status()).trustNeeded).toBeGreaterThanOrEqual(2)
  })

  it("counts the workspace's own patch layer", async () => {
    await mkdir(join(workspace, '.seam'))
    await writeFile(join(workspace, '.seam', 'cordis.patch.yml'), '- id: tool-timeout\n  disabled: true\n')
    expect((await status()).trustNeeded).toBe(1)
  })
})
