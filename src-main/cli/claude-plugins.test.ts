// Claude Code plugins end to end (issue 29): the built `seam` as a real process adds a marketplace
// from a git repository on disk (cloned with the system git), installs a plugin from it, and a
// session runs the plugin's command (/kit:hello), its PreToolUse hook (a real process), its bin/
// (on Bash's PATH) and its MCP server (a real stdio process) against a loopback server speaking
// the Anthropic wire protocol. Then update, disable, uninstall and remove the marketplace.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import type { CliResult } from '../../test-support/built-cli'
import { git, gitMarketplace, put, stdioServerScript, useClaudePluginCli } from '../../test-support/claude-plugin-cli'

const cli = useClaudePluginCli('claude-plugins')
const { seam, flags } = cli


// A stdio MCP server written as a plugin would ship it: one tool that echoes its text with the plugin's data folder and its argument.
const SERVER = stdioServerScript({
  name: 'kit-echo',
  tool: { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  reply: `'echo: ' + m.params.arguments.text + ' data=' + process.env.CLAUDE_PLUGIN_DATA + ' arg=' + process.argv[2]`
})

async function kitPlugin(root: string, version: string): Promise<void> {
  await put(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'kit', version, description: 'A kit' }))
  await put(join(root, 'commands', 'hello.md'), '---\ndescription: Greets someone\n---\nSay hello to $ARGUMENTS. Plugin root: ${CLAUDE_PLUGIN_ROOT}\n')
  await put(join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/record.sh' }] }] } }))
  await put(
    join(root, 'scripts', 'record.sh'),
    '#!/bin/sh\ninput=$(cat)\nprintf \'{"root":"%s","data":"%s","project":"%s","input":%s}\\n\' "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" "$CLAUDE_PROJECT_DIR" "$input" >> "$CLAUDE_PLUGIN_DATA/pre-tool.jsonl"\n',
    0o755
  )
  await put(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { echo: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs', '${CLAUDE_PLUGIN_DATA}'] } } }))
  await put(join(root, 'server.mjs'), SERVER)
  await put(join(root, 'bin', 'kit-tool'), '#!/bin/sh\necho "kit tool ran"\n', 0o755)
  await put(join(root, 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews\n---\nReview.\n')
  await put(join(root, 'skills', 'greet', 'SKILL.md'), '---\nname: greet\ndescription: Greets\n---\nGreet.\n')
}

describe('Claude Code plugins from a git marketplace, with the built seam (issue 29)', () => {
  it('marketplace add (git path) → install → the command, hook, bin/ and MCP server work in a session → update → disable → uninstall → remove', async () => {
    const source = join(cli.home, 'market-src')
    await gitMarketplace(source, 'team-tools', [{ name: 'kit', source: './plugins/kit' }], () => kitPlugin(join(source, 'plugins', 'kit'), '1.0.0'), 'kit 1.0.0')
    const bare = join(cli.home, 'market.git')
    git(cli.home, 'clone', '--quiet', '--bare', source, bare)

    const added = await seam('plugin', 'marketplace', 'add', bare)
    expect(added.stderr).toBe('')
    expect(added.stdout).toBe(`added marketplace team-tools (${bare}): 1 plugin(s): kit\n`)

    const installed = await seam('plugin', 'install', 'kit@team-tools')
    const root = join(cli.home, 'seam', 'claude-plugins', 'cache', 'team-tools', 'kit', '1.0.0')
    const data = join(cli.home, 'seam', 'claude-plugins', 'data', 'kit-team-tools')
    expect(installed.code).toBe(0)
    expect(installed.stdout).toContain(`installed kit@team-tools 1.0.0 (content `)
    expect(installed.stdout).toContain(`runs: hook PreToolUse: ${root}/scripts/record.sh`)
    expect(installed.stdout).toContain(`MCP server echo: node ${root}/server.mjs ${data}`)

    const listed = await seam('plugin', 'list')
    expect(listed.stdout).toContain(`kit@team-tools  claude-plugin  1.0.0  enabled (default)  team-tools:./plugins/kit  commands 1, agents 1, skills 1, hooks 1, servers 1`)

    const server = await startFakeAnthropic([
      { text: 'Running it.', toolCalls: [{ name: 'Bash', args: { command: 'kit-tool' } }] },
      { text: 'Asking the server.', toolCalls: [{ name: 'mcp__plugin_kit_echo__echo', args: { text: 'ping' } }] },
      { text: 'done' }
    ])
    let run: CliResult
    try {
      run = await seam('run', ...flags(server.url), '/kit:hello world')
    } finally {
      await server.close()
    }
    expect(run.stderr).not.toMatch(/error|failed/i)
    expect(run.code).toBe(0)
    const bodies = server.requests.map((r) => JSON.stringify(r.body))
    // The command, namespaced by the plugin, expanded with ${CLAUDE_PLUGIN_ROOT} written in.
    expect(bodies[0]).toContain(`Say hello to world. Plugin root: ${root}`)
    // The MCP server's tool, named mcp__plugin_<plugin>_<server>__<tool>.
    expect(bodies[0]).toContain('"name":"mcp__plugin_kit_echo__echo"')
    // bin/ on Bash's PATH.
    expect(bodies[1]).toContain('kit tool ran')
    // The server ran with its arguments and CLAUDE_PLUGIN_DATA substituted and exported.
    expect(bodies[2]).toContain(`echo: ping data=${data} arg=${data}`)
    // The hook ran once (matcher Bash), as a real process with the plugin's variables.
    const records = (await readFile(join(data, 'pre-tool.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { root: string; data: string; project: string; input: { tool_name: string; tool_input: { command: string } } })
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ root, data, project: cli.workspace, input: { tool_name: 'Bash', tool_input: { command: 'kit-tool' } } })

    // A new version pushed to the marketplace: update installs it into its own folder; the data folder stays.
    await kitPlugin(join(source, 'plugins', 'kit'), '1.1.0')
    git(source, 'commit', '--quiet', '-am', 'kit 1.1.0')
    git(source, 'push', '--quiet', bare, 'main')
    const updated = await seam('plugin', 'update', 'kit@team-tools')
    expect(updated.stdout).toContain('updated kit@team-tools 1.1.0')
    expect(existsSync(join(root, '..', '1.1.0', 'commands', 'hello.md'))).toBe(true)
    expect(existsSync(join(data, 'pre-tool.jsonl'))).toBe(true)

    expect((await seam('plugin', 'disable', 'kit@team-tools')).stdout).toBe('disabled kit@team-tools\n')
    const offline = await startFakeAnthropic([{ text: 'never asked' }])
    try {
      const refused = await seam('run', ...flags(offline.url), '/kit:hello world')
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('Unknown slash command: /kit:hello')
      expect(offline.requests).toHaveLength(0)
    } finally {
      await offline.close()
    }
    expect((await seam('plugin', 'enable', 'kit@team-tools')).stdout).toBe('enabled kit@team-tools\n')
    expect((await seam('plugin', 'uninstall', 'kit@team-tools')).stdout).toBe('uninstalled kit@team-tools\n')
    expect(existsSync(join(root, '..', '1.1.0'))).toBe(false)
    expect((await seam('plugin', 'marketplace', 'list')).stdout).toBe(`team-tools  ${bare}  1 plugin(s)\n`)
    expect((await seam('plugin', 'marketplace', 'remove', 'team-tools')).stdout).toBe('removed marketplace team-tools\n')
    expect((await seam('plugin', 'marketplace', 'list')).stdout).toBe('')
  }, 120_000)

  it('bad input is refused with a message naming what is wrong, and nothing is written', async () => {
    const notMarket = await seam('plugin', 'marketplace', 'add', 'no/such/place/here')
    expect(notMarket.code).not.toBe(0)
    expect(notMarket.stderr).toContain('"no/such/place/here" is not a marketplace')
    const broken = join(cli.home, 'broken-market')
    await put(join(broken, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'Bad Name', owner: { name: 'x' }, plugins: [] }))
    const bad = await seam('plugin', 'marketplace', 'add', broken)
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain(`${join(broken, '.claude-plugin', 'marketplace.json')}: name: a marketplace name is kebab-case`)
    const known = join(cli.home, 'seam', 'claude-plugins', 'known_marketplaces.json')
    expect(existsSync(known) ? await readFile(known, 'utf8') : '').not.toContain('Bad Name')
  })
})
