// The `columns` a Claude Code plugin's `subagentStatusLine` command gets in `seam run` (issue 29),
// with the built `seam` as a real process and the loopback Anthropic server: on a terminal (a
// pseudo-terminal made by util-linux `script`, sized with `stty`) it is the terminal's width, and
// the new width once the terminal is resized; with stdout a pipe it is the plugin's default, 100. The command records each input it gets and then
// lets the subagent (a Bash loop waiting for a file) finish.
import { execFile } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { SEAM_BIN } from '../../test-support/built-cli'
import { gitMarketplace, put, useClaudePluginCli } from '../../test-support/claude-plugin-cli'

const cli = useClaudePluginCli('claude-plugin-status-columns')

/**
 * Keeps its input, then lets the waiting subagent go on; but first, given the terminal's 87 cells,
 * it narrows that terminal to 61 (`stty -F` on it: seam gets SIGWINCH), so the next run must say 61.
 */
const ROWS = `#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" >> "$CLAUDE_PLUGIN_DATA/inputs.jsonl"
case "$input" in
  *'"columns":87,'*) stty -F "$SEAM_TEST_TTY" cols 61 ;;
  *) touch "$CLAUDE_PROJECT_DIR/go" ;;
esac
`

async function installRowsPlugin(): Promise<void> {
  const source = join(cli.home, 'market-src')
  await gitMarketplace(
    source,
    'team',
    [{ name: 'rows', source: './plugins/rows' }],
    async () => {
      await put(join(source, 'plugins', 'rows', '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'rows', version: '1.0.0' }))
      await put(join(source, 'plugins', 'rows', 'rows.sh'), ROWS, 0o755)
      await put(join(source, 'plugins', 'rows', 'settings.json'), JSON.stringify({ subagentStatusLine: { type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/rows.sh' } }))
    },
    'rows'
  )
  expect((await cli.seam('plugin', 'marketplace', 'add', source)).code).toBe(0)
  expect((await cli.seam('plugin', 'install', 'rows@team')).code).toBe(0)
}

/** The main agent starts a subagent that waits for `go` (which the status line command makes). */
function script() {
  return [
    { toolCalls: [{ name: 'Agent', args: { description: 'Wait a little', prompt: 'Wait for go', subagent_type: 'general-purpose' } }] },
    { toolCalls: [{ name: 'Bash', args: { command: 'while [ ! -e go ]; do sleep 0.05; done; echo ready', description: 'Wait for go' } }] },
    { text: 'Waited.' },
    { text: 'The subagent is done.' }
  ]
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`

async function inputs(): Promise<Array<{ columns: number }>> {
  const file = join(cli.home, 'seam', 'claude-plugins', 'data', 'rows-team', 'inputs.jsonl')
  const text = await readFile(file, 'utf8')
  return text.trim().split('\n').map((line) => JSON.parse(line) as { columns: number })
}

describe('subagentStatusLine columns in seam run (issue 29)', () => {
  it("is the terminal's width on a terminal, and the default (100) when stdout is a pipe", async () => {
    await installRowsPlugin()

    // A pseudo-terminal 87 cells wide: `script` runs seam on it, `stty` sets its size first.
    const onTerminal = await startFakeAnthropic(script())
    try {
      const args = [process.execPath, SEAM_BIN, 'run', ...cli.flags(onTerminal.url), 'wait with a subagent']
      const command = `stty cols 87 rows 30 && export SEAM_TEST_TTY="$(tty)" && exec ${args.map(quote).join(' ')}`
      const run = await promisify(execFile)('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
        cwd: cli.workspace,
        env: { ...process.env, SEAM_HOME: join(cli.home, 'seam'), HOME: cli.home, FAKE_KEY: 'sk-test' },
        timeout: 60_000
      })
      expect(run.stdout).toContain('The subagent is done.')
    } finally {
      await onTerminal.close()
    }
    // 87 first; then, the terminal resized, 61 (the run going when it changed ends first).
    const seen = (await inputs()).map((input) => input.columns)
    expect(seen[0]).toBe(87)
    expect(seen.at(-1)).toBe(61)
    expect(new Set(seen)).toEqual(new Set([87, 61]))

    // stdout a pipe (the test's): no terminal, so the default.
    await rm(join(cli.home, 'seam', 'claude-plugins', 'data', 'rows-team', 'inputs.jsonl'))
    await rm(join(cli.workspace, 'go'))
    const piped = await startFakeAnthropic(script())
    try {
      const run = await cli.seam('run', ...cli.flags(piped.url), 'wait with a subagent')
      expect(run.code, run.stderr).toBe(0)
    } finally {
      await piped.close()
    }
    expect(new Set((await inputs()).map((input) => input.columns))).toEqual(new Set([100]))
  })
})
