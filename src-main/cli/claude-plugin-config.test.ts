// A Claude Code plugin's userConfig with the built `seam` as a real process (issue 29): installed
// from a git marketplace, the plugin does not load until its required options have values; `seam
// plugin config` validates them (the message names the field) and keeps them in a 0600 file of
// Seam's home, never in installed_plugins.json; then a session runs the plugin's hook (a real
// process) and stdio MCP server with `${user_config.KEY}` written into their command line and env,
// and its command with the non-sensitive value written in and the sensitive one never sent to the
// loopback model server.
import { statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import type { CliResult } from '../../test-support/built-cli'
import { gitMarketplace, put, stdioServerScript, useClaudePluginCli } from '../../test-support/claude-plugin-cli'

const cli = useClaudePluginCli('claude-plugin-config')
const { seam, flags } = cli

// A stdio MCP server that says whether the token it was given in its environment is the expected one, never the token itself.
const SERVER = stdioServerScript({
  name: 'vault',
  tool: { name: 'check', description: 'Checks', inputSchema: { type: 'object', properties: {} } },
  reply: `'token ok=' + (process.env.VAULT_TOKEN === 's3cret-token') + ' url=' + process.argv[2]`
})

async function vaultPlugin(root: string): Promise<void> {
  await put(
    join(root, '.claude-plugin', 'plugin.json'),
    JSON.stringify({
      name: 'vault',
      version: '1.0.0',
      userConfig: {
        API_URL: { type: 'string', title: 'API address', required: true },
        TOKEN: { type: 'string', title: 'Token', required: true, sensitive: true },
        RETRIES: { type: 'number', min: 0, max: 10, default: 3 }
      }
    })
  )
  await put(join(root, 'commands', 'where.md'), '---\ndescription: Where\n---\nThe API is ${user_config.API_URL} (token ${user_config.TOKEN}), retries ${user_config.RETRIES}.\n')
  await put(join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/record.sh ${user_config.API_URL} ${user_config.TOKEN}' }] }] } }))
  await put(join(root, 'record.sh'), '#!/bin/sh\ncat > /dev/null\nprintf "%s %s\\n" "$1" "$2" >> "$CLAUDE_PLUGIN_DATA/hook-args.txt"\n', 0o755)
  await put(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { keys: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs', '${user_config.API_URL}'], env: { VAULT_TOKEN: '${user_config.TOKEN}' } } } }))
  await put(join(root, 'server.mjs'), SERVER)
}

describe('Claude Code plugin userConfig, with the built seam (issue 29)', () => {
  it('install names the missing settings; config validates and stores them 0600; hooks, MCP servers and commands get them as ${user_config.KEY}', async () => {
    const source = join(cli.home, 'market-src')
    await gitMarketplace(source, 'team-tools', [{ name: 'vault', source: './plugins/vault' }], () => vaultPlugin(join(source, 'plugins', 'vault')), 'vault')
    expect((await seam('plugin', 'marketplace', 'add', source)).code).toBe(0)

    // No terminal here (setsid): nothing is asked, and what is missing is named.
    const installed = await seam('plugin', 'install', 'vault@team-tools')
    expect(installed.code).toBe(0)
    expect(installed.stdout).toContain('  API_URL = (not set, required)\n  TOKEN = (not set, required)\n  RETRIES = 3\n')
    expect(installed.stderr).toContain('vault@team-tools needs its settings before it loads: seam plugin config vault@team-tools API_URL=… TOKEN=…')
    expect((await seam('plugin', 'list')).stdout).toMatch(/vault@team-tools {2}claude-plugin {2}1\.0\.0 {2}unconfigured \(default\).*userConfig\.API_URL, userConfig\.TOKEN/)

    // Bad values are refused naming the field, and nothing is stored.
    const bad = await seam('plugin', 'config', 'vault@team-tools', 'RETRIES=11')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('userConfig.RETRIES: 11 is above the maximum 10')
    const unknown = await seam('plugin', 'config', 'vault@team-tools', 'NOPE=1')
    expect(unknown.stderr).toContain('userConfig.NOPE: the plugin has no such option (it has API_URL, TOKEN, RETRIES)')
    const file = join(cli.home, 'seam', 'claude-plugins', 'user-config', 'vault-team-tools.json')
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/)

    const set = await seam('plugin', 'config', 'vault@team-tools', 'API_URL=https://api.example.test', 'TOKEN=s3cret-token', 'RETRIES=5')
    expect(set.stderr).toBe('')
    expect(set.stdout).toBe('  API_URL = "https://api.example.test"\n  TOKEN = (set, hidden)\n  RETRIES = 5\n')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, values: { API_URL: 'https://api.example.test', TOKEN: 's3cret-token', RETRIES: 5 } })
    expect(await readFile(join(cli.home, 'seam', 'claude-plugins', 'installed_plugins.json'), 'utf8')).not.toContain('s3cret')
    const listed = await seam('plugin', 'list')
    expect(listed.stdout).toContain('vault@team-tools  claude-plugin  1.0.0  enabled (default)')
    expect(listed.stdout).not.toContain('s3cret')

    const server = await startFakeAnthropic([
      { text: 'Running.', toolCalls: [{ name: 'Bash', args: { command: 'true' } }] },
      { text: 'Checking.', toolCalls: [{ name: 'mcp__plugin_vault_keys__check', args: {} }] },
      { text: 'done' }
    ])
    let run: CliResult
    try {
      run = await seam('run', ...flags(server.url), '/vault:where')
    } finally {
      await server.close()
    }
    expect(run.code).toBe(0)
    const bodies = server.requests.map((r) => JSON.stringify(r.body))
    // The command's body: the value written in; the sensitive one is left as written, never sent.
    expect(bodies[0]).toContain('The API is https://api.example.test (token ${user_config.TOKEN}), retries 5.')
    expect(bodies.join('\n')).not.toContain('s3cret')
    // The MCP server got the sensitive value in its env and the other in its arguments.
    expect(bodies[2]).toContain('token ok=true url=https://api.example.test')
    // The hook ran as a real process with both values on its command line.
    const data = join(cli.home, 'seam', 'claude-plugins', 'data', 'vault-team-tools')
    expect(await readFile(join(data, 'hook-args.txt'), 'utf8')).toBe('https://api.example.test s3cret-token\n')

    // Unsetting a required value unloads the plugin again; uninstall forgets the values.
    expect((await seam('plugin', 'config', 'vault@team-tools', 'API_URL=')).stderr).toContain('needs its settings before it loads')
    expect((await seam('plugin', 'uninstall', 'vault@team-tools')).code).toBe(0)
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/)
  }, 120_000)
})
