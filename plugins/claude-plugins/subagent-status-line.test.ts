// A plugin's settings.json `subagentStatusLine` (issue 29): its schema (a wrong shape names the file
// and field and the plugin still loads), the first-plugin rule, and one run of the command on real
// processes: a script that reads its stdin and answers rows, one that prints garbage, one that
// hangs past the timeout (its whole process group is killed), one that exits 1.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { InstalledPlugin } from '@seam/sdk'
import { readPluginFolder } from './manifest'
import { parseStatusLineOutput, resolveStatusLine, runStatusLineCommand, type StatusLineInput } from './subagent-status-line'
import { writeFiles } from './test-fixtures'
import { isAlive, scaledTestMs, waitFor } from '@seam/sdk/testing'

/** Polling deadlines follow the machine's speed (scripts/time-factor.mjs). */
const WAIT_MS = scaledTestMs(10_000)

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-status-line-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

function pluginWith(settings: unknown): ReturnType<typeof readPluginFolder> {
  const root = join(dir, 'kit')
  writeFiles(root, { '.claude-plugin/plugin.json': JSON.stringify({ name: 'kit' }), 'settings.json': JSON.stringify(settings) })
  return readPluginFolder(root)
}

const INPUT: StatusLineInput = {
  session_id: 's1',
  cwd: '/work',
  columns: 100,
  tasks: [
    { id: 'a1', type: 'local_agent', name: 'general-purpose', status: 'running', description: 'Look around', startTime: 1_700_000_000_000, tokenCount: 1234, model: 'm', cwd: '/work' },
    { id: 'a2', type: 'local_agent', name: 'kit:reviewer', status: 'completed', description: 'Review', startTime: 1_700_000_001_000, tokenCount: 99, cwd: '/work' }
  ]
}

describe('subagentStatusLine in a plugin settings.json (issue 29)', () => {
  it('accepts {type: "command", command}, keeping padding and other keys', () => {
    const layout = pluginWith({ subagentStatusLine: { type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/rows.sh', padding: 2, extra: true } })
    expect(layout.settings?.subagentStatusLine).toEqual({ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/rows.sh', padding: 2, extra: true })
    expect(layout.problems).toEqual([])
  })

  it.each([
    ['a string', 'echo hi', 'subagentStatusLine: Invalid input: expected object, received string'],
    ['another type', { type: 'static', command: 'echo' }, 'subagentStatusLine.type: Invalid input: expected "command"'],
    ['no command', { type: 'command' }, 'subagentStatusLine.command: Invalid input: expected string, received undefined'],
    ['an empty command', { type: 'command', command: '  ' }, 'subagentStatusLine.command: Too small: expected string to have >=1 characters']
  ])('a wrong shape (%s) is a problem naming the file and field; the plugin and its agent still load', (_, value, message) => {
    const layout = pluginWith({ agent: 'kit:reviewer', subagentStatusLine: value })
    expect(layout.name).toBe('kit')
    expect(layout.settings?.agent).toBe('kit:reviewer')
    expect(layout.settings?.subagentStatusLine).toBeUndefined()
    expect(layout.problems).toEqual([`${join(dir, 'kit', 'settings.json')}: ${message}; the subagent status line is not used`])
  })

  it('the first enabled plugin that sets one is used; a second is reported, naming both', () => {
    const plugin = (name: string, command?: string): InstalledPlugin => ({
      name,
      format: 'claude',
      root: `/p/${name}`,
      dataDir: `/d/${name}`,
      commands: [],
      agents: [],
      skills: [],
      ...(command !== undefined ? { subagentStatusLine: { file: `/p/${name}/settings.json`, command } } : {})
    })
    expect(resolveStatusLine([plugin('plain')])).toEqual({})
    expect(resolveStatusLine([plugin('plain'), plugin('rows', 'a')]).plugin?.name).toBe('rows')
    const both = resolveStatusLine([plugin('rows', 'a'), plugin('plain'), plugin('other', 'b')])
    expect(both.plugin?.name).toBe('rows')
    expect(both.problem).toBe("plugins rows, other each set subagentStatusLine in settings.json; rows's (/p/rows/settings.json) is used")
  })
})

describe('the command output', () => {
  it('takes one {id, content} line per subagent; malformed lines and unknown ids are ignored with why', () => {
    const parsed = parseStatusLineOutput(['{"id":"a1","content":"one"}', '', 'not json', '{"id":"a2"}', '{"id":"zz","content":"x"}', '{"id":"a2","content":"two","more":1}'].join('\n'), new Set(['a1', 'a2']))
    expect([...parsed.rows]).toEqual([
      ['a1', 'one'],
      ['a2', 'two']
    ])
    expect(parsed.ignored).toEqual(['line 3 is not JSON: not json', 'line 4: content: Invalid input: expected string, received undefined', 'line 5: no subagent "zz" in its input'])
  })
})

describe('one run of the command, on real processes', () => {
  const run = (script: string, timeoutMs = 5000) => {
    writeFiles(dir, { 'rows.sh': script })
    return runStatusLineCommand(`sh ${join(dir, 'rows.sh')}`, INPUT, { cwd: dir, env: { PATH: process.env.PATH ?? '', MARK: 'exported' }, timeoutMs })
  }

  it('gets the input JSON on stdin, in its cwd with its env, and its rows are read', async () => {
    const result = await run(
      [
        'cat > "$PWD/stdin.json"',
        // As jq writes it: the escape byte as \u001b inside the JSON string.
        'printf \'{"id":"a1","content":"\\\\u001b[32mrunning\\\\u001b[0m %s"}\\n\' "$MARK"',
        'printf \'{"id":"a2","content":"done"}\\n\''
      ].join('\n')
    )
    expect(result.failure).toBeUndefined()
    expect(result.ignored).toEqual([])
    expect([...result.rows]).toEqual([
      ['a1', '\u001b[32mrunning\u001b[0m exported'],
      ['a2', 'done']
    ])
    expect(JSON.parse(readFileSync(join(dir, 'stdin.json'), 'utf8'))).toEqual(INPUT)
  })

  it('garbage on stdout: nothing is drawn, each line says why', async () => {
    const result = await run('cat > /dev/null\necho hello\necho \'{"id": 3}\'\n')
    expect(result.failure).toBeUndefined()
    expect(result.rows.size).toBe(0)
    expect(result.ignored).toEqual(['line 1 is not JSON: hello', 'line 2: id: Invalid input: expected string, received number'])
  })

  it('a command that exits 1 is a failure with its stderr; its output is not used', async () => {
    const result = await run('echo \'{"id":"a1","content":"x"}\'\necho "no config" >&2\nexit 1\n')
    expect(result.rows.size).toBe(0)
    expect(result.failure).toEqual({ kind: 'failed', reason: 'exited with code 1: no config' })
  })

  it('a command that hangs past the timeout is stopped, its whole process group with it', async () => {
    // Long enough for the script to start and write the pid on a loaded machine.
    const timeoutMs = scaledTestMs(1500)
    const result = await run(`sleep 60 &\necho $! > ${join(dir, 'child.pid')}\nwait\n`, timeoutMs)
    expect(result.failure).toEqual({ kind: 'timeout', reason: `did not finish within ${timeoutMs} ms and was stopped` })
    const child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'))
    await waitFor(() => !isAlive(child), WAIT_MS, 'the sleep the command started is killed with it')
  })
})
