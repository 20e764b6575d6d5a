// Issue 25: provider keys reached every MCP server (its environment was Seam's, as is). A key probe
// (a tiny real MCP server over stdio that writes the environment it got to a file) shows what each
// server gets: no provider key, by name or by value, whether it is declared in .mcp.json or passed
// for one session (as an ACP editor does); a key the settings name for that server alone, or one the
// declaration's own `env` sets, does reach it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startMcpHost, type McpHost } from './test-host'

const PROBE = `
import { writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
writeFileSync(process.argv[2], JSON.stringify(process.env))
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'initialize') send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'key-probe', version: '1.0.0' } } })
  else if (message.method === 'tools/list') send({ id: message.id, result: { tools: [] } })
  else if (message.id !== undefined) send({ id: message.id, error: { code: -32601, message: 'no ' + message.method } })
})
`

const KEY = 'sk-probe-0123456789abcdefghij'
const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, KEY_COPY: process.env.KEY_COPY, PROBE_PLAIN: process.env.PROBE_PLAIN }
let host: McpHost | undefined
let dir: string | undefined

afterEach(async () => {
  await host?.close()
  host = undefined
  if (dir) await rm(dir, { recursive: true, force: true })
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

it('an MCP server gets Seam\'s environment without the provider keys, unless settings name the variable for that server or its own env sets it', async () => {
  process.env.OPENAI_API_KEY = KEY
  process.env.KEY_COPY = KEY // the key's text under another name goes too
  process.env.PROBE_PLAIN = 'plain value'
  dir = await mkdtemp(join(tmpdir(), 'seam-key-probe-'))
  const script = join(dir, 'key-probe.mjs')
  await writeFile(script, PROBE)
  const out = (name: string) => join(dir!, `${name}.env.json`)
  const probe = (name: string, env?: Record<string, string>) => ({ command: process.execPath, args: [script, out(name)], ...(env ? { env } : {}) })
  host = await startMcpHost({
    script: [],
    settings: { toolEnv: { mcpServers: { trusted: ['OPENAI_API_KEY'] } } },
    mcpJson: {
      plain: probe('plain', { FROM_MCP_JSON: 'declared' }),
      trusted: probe('trusted'),
      explicit: probe('explicit', { OPENAI_API_KEY: '${OPENAI_API_KEY}' })
    }
  })
  const mcp = host.runtime.kernel.getService('mcp')!
  await mcp.startAll()
  // A server given for one session (what seam acp does with an editor's mcpServers).
  const [editor] = await mcp.startForSession('acp-session', [{ name: 'editor', command: process.execPath, args: [script, out('editor')], env: { FROM_EDITOR: 'yes' } }])
  expect(mcp.servers().map((s) => [s.name, s.state, s.reason])).toEqual(expect.arrayContaining([['plain', 'connected', undefined], ['trusted', 'connected', undefined], ['explicit', 'connected', undefined]]))
  expect(editor).toMatchObject({ state: 'connected' })

  const envOf = async (name: string) => JSON.parse(await readFile(out(name), 'utf8')) as Record<string, string>
  const holdsKey = (env: Record<string, string>) => Object.entries(env).filter(([, value]) => value === KEY).map(([name]) => name)
  const plain = await envOf('plain')
  expect(holdsKey(plain)).toEqual([])
  expect(plain).toMatchObject({ PROBE_PLAIN: 'plain value', FROM_MCP_JSON: 'declared' })
  const fromEditor = await envOf('editor')
  expect(holdsKey(fromEditor)).toEqual([])
  expect(fromEditor).toMatchObject({ PROBE_PLAIN: 'plain value', FROM_EDITOR: 'yes' })
  // toolEnv.mcpServers.trusted names the variable: that server alone gets it (not the copy).
  expect(holdsKey(await envOf('trusted'))).toEqual(['OPENAI_API_KEY'])
  // The declaration's own env is the user's explicit choice, as in Claude Code.
  expect(holdsKey(await envOf('explicit'))).toEqual(['OPENAI_API_KEY'])
}, 60_000)
