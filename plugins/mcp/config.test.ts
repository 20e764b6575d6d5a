// Declarations as Claude Code and Codex users have them: the .mcp.json shapes, ${VAR} expansion,
// Codex's [mcp_servers.NAME] tables, precedence, and bad entries naming their field.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { claudeEntryToSpec, loadServers, targetOf } from './config'
import { expandVariables } from './expand'
import { mcpToolName, toolNameProblem } from './names'
import { capText } from './tool-adapter'

describe('${VAR} expansion (Claude Code .mcp.json)', () => {
  it('expands ${VAR} and ${VAR:-default}, and reports unset variables without a default', () => {
    const env = { TOKEN: 'abc', EMPTY: '' }
    expect(expandVariables('Bearer ${TOKEN}', env)).toEqual({ value: 'Bearer abc', missing: [] })
    expect(expandVariables('${NOPE:-fallback}/${TOKEN:-x}', env)).toEqual({ value: 'fallback/abc', missing: [] })
    expect(expandVariables('${EMPTY:-d}', env)).toEqual({ value: '', missing: [] })
    expect(expandVariables('${NOPE}-${ALSO}', env)).toEqual({ value: '-', missing: ['NOPE', 'ALSO'] })
    expect(expandVariables('$TOKEN stays', env).value).toBe('$TOKEN stays')
  })

  it('applies to command, args, env, url and headers; a missing variable fails that server naming it', () => {
    const env = { BIN: '/usr/bin/tool', KEY: 'k1', HOST: 'example.test' }
    const stdio = claudeEntryToSpec('s', { command: '${BIN}', args: ['--key=${KEY}', '${MODE:-fast}'], env: { API_KEY: '${KEY}' } }, 'project', '.mcp.json', env)
    expect(stdio).toMatchObject({ transport: 'stdio', command: '/usr/bin/tool', args: ['--key=k1', 'fast'], env: { API_KEY: 'k1' } })
    expect(stdio.error).toBeUndefined()
    const http = claudeEntryToSpec('h', { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${KEY}' } }, 'project', '.mcp.json', env)
    expect(http).toMatchObject({ transport: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer k1' } })
    const missing = claudeEntryToSpec('m', { type: 'sse', url: 'https://${NO_HOST}/sse' }, 'project', '.mcp.json', env)
    expect(missing.error).toMatch(/mcpServers\.m: missing environment variable\(s\) NO_HOST/)
  })

  it('a malformed entry fails that server with the field named', () => {
    expect(claudeEntryToSpec('x', { command: 42 }, 'project', '.mcp.json', {}).error).toMatch(/\.mcp\.json: mcpServers\.x.*command/)
    expect(claudeEntryToSpec('y', { type: 'http' }, 'project', '.mcp.json', {}).error).toMatch(/mcpServers\.y.*url/)
    expect(claudeEntryToSpec('z', { type: 'http', url: 'not a url' }, 'project', '.mcp.json', {}).error).toMatch(/mcpServers\.z\.url: not a valid URL/)
  })

  it('the target is the exact command line (quoted where needed) or the URL', () => {
    expect(targetOf(claudeEntryToSpec('s', { command: 'npx', args: ['-y', 'a b', "it's"] }, 'seam', 'f', {}))).toBe(`npx -y 'a b' 'it'\\''s'`)
    expect(targetOf(claudeEntryToSpec('h', { type: 'sse', url: 'http://127.0.0.1:1/sse' }, 'seam', 'f', {}))).toBe('SSE http://127.0.0.1:1/sse')
  })
})

describe('tool names (Claude Code normalization)', () => {
  it('mcp__<server>__<tool>, every character outside [A-Za-z0-9_-] becoming "_"; too long or empty is a problem', () => {
    expect(mcpToolName('my server', 'read.file/v2')).toBe('mcp__my_server__read_file_v2')
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue')
    expect(toolNameProblem('s', 'x'.repeat(60))).toMatch(/at most 64/)
    expect(toolNameProblem('s', '')).toMatch(/empty name/)
    expect(toolNameProblem('s', 'ok')).toBeUndefined()
  })

  it('output past the token cap is cut with a note naming the limit', () => {
    expect(capText('short', 10)).toBe('short')
    const cut = capText('y'.repeat(100), 10)
    expect(cut.startsWith('y'.repeat(40) + '\n\n[Output cut')).toBe(true)
    expect(cut).toMatch(/about 25 tokens, more than the 10-token limit \(MAX_MCP_OUTPUT_TOKENS\)/)
  })
})

describe('sources and precedence', () => {
  let root: string
  let workspace: string
  let codexHome: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'seam-mcp-config-'))
    workspace = join(root, 'ws')
    codexHome = join(root, 'codex')
    await mkdir(join(workspace, '.codex'), { recursive: true })
    await mkdir(codexHome, { recursive: true })
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  it('.mcp.json > workspace .codex/config.toml > Seam settings > ~/.codex/config.toml; each duplicate says which won', async () => {
    await writeFile(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { shared: { command: 'from-mcp-json' }, project: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }))
    await writeFile(join(workspace, '.codex', 'config.toml'), '[mcp_servers.shared]\ncommand = "from-codex-project"\n[mcp_servers.cproj]\ncommand = "cp"\n')
    await writeFile(join(codexHome, 'config.toml'), '[mcp_servers.shared]\ncommand = "from-codex-user"\n[mcp_servers.seamdup]\ncommand = "codex"\n[mcp_servers.cuser]\ncommand = "cu"\n')
    const seam = { shared: { command: 'from-seam' }, seamdup: { command: 'seam' } }
    const { servers, warnings } = loadServers({ workspace, codexHome }, seam, 'settings.json', {})
    const byName = Object.fromEntries(servers.map((spec) => [spec.name, spec]))
    expect(Object.keys(byName).sort()).toEqual(['cproj', 'cuser', 'project', 'seamdup', 'shared'])
    expect(byName.shared).toMatchObject({ command: 'from-mcp-json', source: 'project' })
    expect(byName.seamdup).toMatchObject({ command: 'seam', source: 'seam' })
    expect(byName.cproj).toMatchObject({ source: 'codex-project' })
    expect(byName.cuser).toMatchObject({ source: 'codex-user' })
    const mcpJson = join(workspace, '.mcp.json')
    expect(warnings).toEqual([
      `MCP server "shared" is declared in ${mcpJson} and in ${join(workspace, '.codex', 'config.toml')}; the one in ${mcpJson} is used`,
      `MCP server "shared" is declared in ${mcpJson} and in settings.json; the one in ${mcpJson} is used`,
      `MCP server "shared" is declared in ${mcpJson} and in ${join(codexHome, 'config.toml')}; the one in ${mcpJson} is used`,
      `MCP server "seamdup" is declared in settings.json and in ${join(codexHome, 'config.toml')}; the one in settings.json is used`
    ])
  })

  it('Codex tables: command/args/env/cwd, url with bearer_token_env_var and headers, enabled, timeouts, tool filters', async () => {
    await writeFile(
      join(codexHome, 'config.toml'),
      [
        '[mcp_servers.docs]',
        'command = "docs-server"',
        'args = ["--port", "0"]',
        'env = { MODE = "x" }',
        'env_vars = ["PASS_ME"]',
        'cwd = "/srv"',
        'startup_timeout_sec = 20',
        'tool_timeout_sec = 5',
        'disabled_tools = ["drop"]',
        '[mcp_servers.web]',
        'url = "https://mcp.example.test/mcp"',
        'bearer_token_env_var = "WEB_TOKEN"',
        'http_headers = { "X-A" = "1" }',
        'enabled = false',
        '[mcp_servers.broken]',
        'args = ["no command"]'
      ].join('\n')
    )
    const { servers } = loadServers({ workspace: null, codexHome }, {}, 'settings.json', { PASS_ME: 'p', WEB_TOKEN: 't' })
    const byName = Object.fromEntries(servers.map((spec) => [spec.name, spec]))
    expect(byName.docs).toMatchObject({ transport: 'stdio', command: 'docs-server', args: ['--port', '0'], env: { MODE: 'x', PASS_ME: 'p' }, cwd: '/srv', startupTimeoutMs: 20_000, toolTimeoutMs: 5_000, disabledTools: ['drop'] })
    expect(byName.web).toMatchObject({ transport: 'http', url: 'https://mcp.example.test/mcp', headers: { 'X-A': '1', Authorization: 'Bearer t' }, enabled: false })
    expect(byName.broken!.error).toMatch(/mcp_servers\.broken: .*needs exactly one of "command"/)
  })

  it('an unreadable file is one warning and its servers are skipped; the others load', async () => {
    await writeFile(join(workspace, '.mcp.json'), '{ not json')
    await writeFile(join(codexHome, 'config.toml'), '[mcp_servers.fine]\ncommand = "ok"\n')
    const { servers, warnings } = loadServers({ workspace, codexHome }, {}, 'settings.json', {})
    expect(servers.map((spec) => spec.name)).toEqual(['fine'])
    expect(warnings).toEqual([expect.stringMatching(/\.mcp\.json: cannot be read as JSON: .*; its MCP servers are skipped/)])
  })
})
