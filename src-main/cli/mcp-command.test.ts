// `seam mcp` end to end: the built CLI as a real process, with server-everything (npm, pinned)
// declared in the workspace's .mcp.json.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../../test-support/built-cli'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const seamBin = join(root, 'bin', 'seam.mjs')
const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
let home: string
let workspace: string

beforeAll(async () => {
  await ensureBuilt()
  home = await mkdtemp(join(tmpdir(), 'seam-mcp-cli-home-'))
  workspace = await mkdtemp(join(tmpdir(), 'seam-mcp-cli-ws-'))
  await writeFile(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }))
}, 120_000)

afterAll(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

async function seam(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [seamBin, ...args], { cwd: workspace, env: { ...process.env, SEAM_HOME: home, CODEX_HOME: home }, timeout: 60_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('seam mcp', () => {
  it('list shows transport, state, target and tools; disable/enable persist; restart reconnects', async () => {
    const untrusted = await seam(['mcp', 'list'])
    expect(untrusted.stdout).toContain('everything  stdio  untrusted (declared in the workspace, which is not trusted')

    const listed = await seam(['mcp', 'list', '--trust-workspace'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain('everything  stdio  connected')
    expect(listed.stdout).toContain(`  ${process.execPath} ${everything} stdio`)
    expect(listed.stdout).toMatch(/tools: .*mcp__everything__echo/)

    const disabled = await seam(['mcp', 'disable', 'everything', '--trust-workspace', '--json'])
    expect(JSON.parse(disabled.stdout)).toMatchObject({ name: 'everything', state: 'disabled' })
    expect(JSON.parse(await readFile(join(home, 'settings.json'), 'utf8')).mcpDisabled).toEqual(['everything'])
    expect((await seam(['mcp', 'list', '--trust-workspace'])).stdout).toContain('everything  stdio  disabled (disabled in Seam\'s settings)')

    await seam(['mcp', 'enable', 'everything', '--trust-workspace'])
    expect(JSON.parse(await readFile(join(home, 'settings.json'), 'utf8')).mcpDisabled).toEqual([])
    const restarted = await seam(['mcp', 'restart', 'everything', '--trust-workspace', '--json'])
    expect(JSON.parse(restarted.stdout)).toMatchObject({ name: 'everything', state: 'connected' })

    const unknown = await seam(['mcp', 'restart', 'nope', '--trust-workspace'])
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain('no MCP server named "nope" (configured: everything)')
  }, 120_000)
})
