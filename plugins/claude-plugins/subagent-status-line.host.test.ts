// A plugin's settings.json `subagentStatusLine` on a whole host (issue 29): the plugin comes from a
// marketplace made here as a git repository and is installed by the real manager; the loopback
// OpenAI-protocol model makes the main agent call `Agent`, whose subagent waits (a Bash loop) for a
// file the test writes. While it runs, the plugin's command (a real process) gets the session's
// tasks on stdin and its rows reach the host's `subagentStatusLines` state and the
// `agent/subagent-status-lines` notification (what the UI is pushed); when the subagent ends the
// row says so; turning the plugin off clears the rows. A command that fails, prints garbage or
// hangs is told once each, runs never overlap, and none runs once no subagent does. Two plugins
// setting one: the first is used and the session is told.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SubagentStatusLine } from '@seam/sdk'
import { startLoopbackHost, scaledTestMs, waitFor, type LoopbackHost } from '@seam/sdk/testing'
import { startFakeOpenAI, type OpenAIRequestBody, type ScriptedTurn } from '../../test-support/fake-openai.mjs'
import { gitMarketplace, put } from '../../test-support/claude-plugin-cli'
import { parseMarketplaceArg } from './manager'

/** Polling deadlines follow the machine's speed (scripts/time-factor.mjs). */
const WAIT_MS = scaledTestMs(20_000)

/** A run's timeout: far above what a quick run takes on a loaded machine, so only the hanging ones reach it. */
const TIMEOUT_MS = scaledTestMs(2000)

/** The built-in general-purpose agent's system prompt starts so (plugins/subagents/builtins.ts). */
const CHILD_MARKER = 'You are an agent working for a coding assistant'

/** The plugin's command: keeps each input it got, and answers one row per task. */
const ROWS_SCRIPT = `import { appendFileSync, readFileSync } from 'node:fs'
const input = readFileSync(0, 'utf8')
appendFileSync(process.env.CLAUDE_PLUGIN_DATA + '/inputs.jsonl', input.trim() + '\\n')
for (const task of JSON.parse(input).tasks) {
  const content = '\\u001b[32m' + task.status + '\\u001b[0m ' + task.name + ' · ' + task.description + ' · ' + task.tokenCount + ' tok'
  process.stdout.write(JSON.stringify({ id: task.id, content }) + '\\n')
}
`

function respond(body: OpenAIRequestBody): ScriptedTurn {
  const system = String(body.messages[0]?.content ?? '')
  const answered = body.messages.filter((m) => m.role === 'assistant').length
  if (system.includes(CHILD_MARKER)) {
    if (answered === 0) return { toolCalls: [{ name: 'Bash', args: { command: 'while [ ! -e go ]; do sleep 0.05; done; echo ready', description: 'Wait for go' } }], usage: { inputTokens: 100, outputTokens: 20 } }
    return { text: 'All looked at.', usage: { inputTokens: 150, outputTokens: 30 } }
  }
  if (answered === 0) return { toolCalls: [{ name: 'Agent', args: { description: 'Look around', prompt: 'Look at everything', subagent_type: 'general-purpose' } }] }
  return { text: 'The subagent is done.' }
}

/** Plugins (by name, their files) in a marketplace made as a git repository, each installed by the real manager in order. */
async function installPlugins(on: LoopbackHost, plugins: Record<string, Record<string, string>>): Promise<void> {
  const market = join(on.root, 'team-market')
  await gitMarketplace(
    market,
    'team',
    Object.keys(plugins).map((name) => ({ name, source: `./plugins/${name}` })),
    async () => {
      for (const [plugin, files] of Object.entries(plugins)) {
        await put(join(market, 'plugins', plugin, '.claude-plugin/plugin.json'), JSON.stringify({ name: plugin, version: '1.0.0' }))
        for (const [name, text] of Object.entries(files)) await put(join(market, 'plugins', plugin, name), text, name.endsWith('.sh') ? 0o755 : undefined)
      }
    },
    'plugins'
  )
  const manager = on.runtime.kernel.getService('claudePluginManager')
  if (!manager) throw new Error('no claudePluginManager service')
  await manager.manager.addMarketplace(parseMarketplaceArg(market, on.root))
  for (const name of Object.keys(plugins)) await manager.manager.install(`${name}@team`)
}

let host: LoopbackHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

describe('subagentStatusLine on a whole host', () => {
  it("runs the plugin's command with the real tasks while the subagent runs; its rows reach the session's state; turning the plugin off clears them", async () => {
    host = await startLoopbackHost({ prefix: 'status-line', model: await startFakeOpenAI(Array.from({ length: 20 }, () => respond)) })
    await installPlugins(host, { rows: { 'rows.mjs': ROWS_SCRIPT, 'settings.json': JSON.stringify({ subagentStatusLine: { type: 'command', command: `"${process.execPath}" "\${CLAUDE_PLUGIN_ROOT}/rows.mjs"`, padding: 0 } }) } })
    const kernel = host.runtime.kernel
    const manager = kernel.getService('claudePluginManager')
    if (!manager) throw new Error('no claudePluginManager service')

    const pushed: Array<{ sessionId: string; lines: readonly SubagentStatusLine[] }> = []
    kernel.context.on('agent/subagent-status-lines', (sessionId, lines) => pushed.push({ sessionId, lines }))
    const service = kernel.getService('subagentStatusLines')
    if (!service) throw new Error('no subagentStatusLines service')

    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('look around with a subagent')
    const rowOf = () => service.lines(session.log.id)[0]

    // Running: the row the command drew, after the subagent's first step (its tokens counted).
    await waitFor(() => rowOf()?.content.includes('120 tok') === true, WAIT_MS, 'a row for the running subagent with its first step counted')
    const start = session.log.events.find((event) => event.type === 'subagent/start')
    if (start?.type !== 'subagent/start') throw new Error('no subagent/start in the parent log')
    expect(rowOf()).toEqual({ agentId: start.agentId, content: '\u001b[32mrunning\u001b[0m general-purpose · Look around · 120 tok', plugin: 'rows' })
    expect(pushed.at(-1)).toEqual({ sessionId: session.log.id, lines: [rowOf()] })

    // What the command got on stdin: the real task, as Claude Code's status lines read it.
    const dataDir = join(host.seamHome, 'claude-plugins', 'data', 'rows-team')
    const inputs = () => readFileSync(join(dataDir, 'inputs.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { session_id: string; cwd: string; columns: number; tasks: unknown[] })
    expect(inputs().at(-1)).toEqual({
      session_id: session.log.id,
      cwd: host.workspace,
      columns: 100,
      tasks: [{ id: start.agentId, type: 'local_agent', name: 'general-purpose', status: 'running', description: 'Look around', startTime: start.ts, tokenCount: 120, model: 'm', cwd: host.workspace }]
    })

    // The width where the rows are shown (a window's measure, seam run's terminal): the command is run again for it.
    service.setColumns?.(session.log.id, 57)
    await waitFor(() => inputs().at(-1)?.columns === 57, WAIT_MS, 'a run with the width told')

    // It ends: the row says completed, with the whole run's tokens.
    writeFileSync(join(host.workspace, 'go'), '')
    await waitFor(() => rowOf()?.content.startsWith('\u001b[32mcompleted') === true, WAIT_MS, 'the row of the ended subagent')
    expect(rowOf()?.content).toBe('\u001b[32mcompleted\u001b[0m general-purpose · Look around · 300 tok')
    await session.agent.whenIdle()
    expect(session.log.events.filter((event) => event.type === 'notice' && event.source === 'claude-plugins')).toEqual([])

    // The plugin turned off: the rows are gone (the default rows again).
    manager.setEnabled('rows@team', false)
    await waitFor(() => service.lines(session.log.id).length === 0, WAIT_MS, 'the rows cleared once the plugin is off')
    expect(pushed.at(-1)).toEqual({ sessionId: session.log.id, lines: [] })
  })

  it('a command that fails, prints garbage or hangs: one notice of each, not a flood; runs never overlap; none once nothing runs', async () => {
    host = await startLoopbackHost({
      prefix: 'status-line',
      model: await startFakeOpenAI(Array.from({ length: 20 }, () => respond)),
      patch: `- id: claude-plugins\n  config: { subagentStatusLine: { intervalMs: 100, debounceMs: 0, timeoutMs: ${TIMEOUT_MS} } }\n`
    })
    // Each run logs its start and end; a run that finds another still alive logs OVERLAP. What it
    // does is read from the `mode` file the test writes (fail, garbage, hang, rows).
    const script = [
      '#!/bin/sh',
      'log="$CLAUDE_PLUGIN_DATA/runs.log"',
      'lock="$CLAUDE_PLUGIN_DATA/lock"',
      // Alive and not a zombie (a killed run's script may wait a moment to be reaped by init).
      'if [ -e "$lock" ] && st=$(ps -o stat= -p "$(cat "$lock")") && [ "${st#Z}" = "$st" ]; then echo OVERLAP >> "$log"; fi',
      'echo $$ > "$lock"',
      'echo start >> "$log"',
      'input=$(cat)',
      'id=$(printf "%s" "$input" | sed -n \'s/.*"tasks":\\[{"id":"\\([^"]*\\)".*/\\1/p\')',
      'status=$(printf "%s" "$input" | sed -n \'s/.*"status":"\\([^"]*\\)".*/\\1/p\')',
      'mode=$(cat "$CLAUDE_PLUGIN_DATA/mode" 2>/dev/null)',
      'sleep 0.05',
      'case "$mode" in',
      '  fail) echo "no config file" >&2; echo end >> "$log"; exit 1 ;;',
      '  garbage) echo "hello"; echo end >> "$log" ;;',
      '  hang) sleep 30 ;;',
      '  *) printf \'{"id":"%s","content":"drawn %s"}\\n\' "$id" "$status"; echo end >> "$log" ;;',
      'esac',
      ''
    ].join('\n')
    await installPlugins(host, { rows: { 'rows.sh': script, 'settings.json': JSON.stringify({ subagentStatusLine: { type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/rows.sh' } }) } })
    const dataDir = join(host.seamHome, 'claude-plugins', 'data', 'rows-team')
    mkdirSync(dataDir, { recursive: true })
    const log = () => (existsSync(join(dataDir, 'runs.log')) ? readFileSync(join(dataDir, 'runs.log'), 'utf8').trim().split('\n') : [])
    const count = (word: string) => log().filter((line) => line === word).length
    // Renamed into place: a run never reads a half-written mode.
    const setMode = (mode: string) => {
      writeFileSync(join(dataDir, 'mode.new'), mode)
      renameSync(join(dataDir, 'mode.new'), join(dataDir, 'mode'))
    }
    const service = host.runtime.kernel.getService('subagentStatusLines')
    if (!service) throw new Error('no subagentStatusLines service')

    setMode('fail')
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('look around with a subagent')
    const notices = () => session.log.events.flatMap((event) => (event.type === 'notice' && event.source === 'claude-plugins' ? [event.text] : []))

    await waitFor(() => count('end') >= 4, WAIT_MS, 'four failing runs')
    setMode('garbage')
    let ends = count('end')
    await waitFor(() => count('end') >= ends + 4, WAIT_MS, 'four runs printing garbage')
    setMode('hang')
    let starts = count('start')
    await waitFor(() => count('start') >= starts + 2, WAIT_MS, 'two runs that hang past the timeout')
    setMode('rows')
    await waitFor(() => service.lines(session.log.id).length === 1, WAIT_MS, 'a row once the command answers')
    expect(service.lines(session.log.id)[0]).toMatchObject({ content: 'drawn running', plugin: 'rows' })

    const settings = join(host.seamHome, 'claude-plugins', 'cache', 'team', 'rows', '1.0.0', 'settings.json')
    expect(notices()).toEqual([
      `Claude Code plugin rows: its subagentStatusLine command (${settings}) exited with code 1: no config file; the subagents' default rows are shown`,
      `Claude Code plugin rows: its subagentStatusLine command (${settings}) printed lines Seam ignores (line 1 is not JSON: hello); each line must be {"id": "<a subagent's id>", "content": "..."}`,
      `Claude Code plugin rows: its subagentStatusLine command (${settings}) did not finish within ${TIMEOUT_MS} ms and was stopped; the subagents' default rows are shown`
    ])

    // The subagent ends: its last run says so; then nothing runs, whatever the interval.
    writeFileSync(join(host.workspace, 'go'), '')
    await session.agent.whenIdle()
    await waitFor(() => service.lines(session.log.id)[0]?.content === 'drawn completed', WAIT_MS, 'the run after the end')
    starts = count('start')
    ends = count('end')
    // A negative: ten intervals with no run (a missed run could only make this pass late, never fail early).
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect([count('start'), count('end')]).toEqual([starts, ends])
    expect(log()).not.toContain('OVERLAP')
  })

  it('two enabled plugins setting one: the first is used, and each session is told which', async () => {
    const settings = (name: string) => JSON.stringify({ subagentStatusLine: { type: 'command', command: `echo ${name}` } })
    host = await startLoopbackHost({ prefix: 'status-line', model: await startFakeOpenAI([{ text: 'Hello.' }]) })
    await installPlugins(host, { alpha: { 'settings.json': settings('alpha') }, beta: { 'settings.json': settings('beta') } })
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('hello')
    await session.agent.whenIdle()
    const told = session.log.events.flatMap((event) => (event.type === 'notice' && event.source === 'claude-plugins' ? [event.text] : []))
    const first = host.runtime.kernel.getService('claudePlugins')?.list(host.workspace).find((plugin) => plugin.subagentStatusLine !== undefined)
    expect(first?.subagentStatusLine?.command).toBe(`echo ${first?.name}`)
    const other = first?.name === 'alpha' ? 'beta' : 'alpha'
    expect(told).toEqual([`Claude Code plugins: plugins ${first?.name}, ${other} each set subagentStatusLine in settings.json; ${first?.name}'s (${join(first?.root ?? '', 'settings.json')}) is used`])
  })
})
