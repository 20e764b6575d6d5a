// A Claude Code plugin's monitors with the built `seam` as a real process (issue 29): installed from
// a git marketplace, the plugin's `always` monitor starts with the session as a real process (its
// command with ${CLAUDE_PLUGIN_ROOT} and ${user_config.KEY} written in, CLAUDE_PLUGIN_DATA in its
// environment), its stdout line reaches the loopback model server as a <monitor-event>; the
// `on-skill-invoke:go` monitor starts only once the model invokes the plugin's skill; both
// processes end with the session; a disabled plugin starts none. Each model step waits on the
// monitor's output file holding the line (a Bash loop), never on a fixed sleep.
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scaledTestMs, waitUntilDead } from '@seam/sdk/testing'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'
import { anthropicRunFlags, git, put } from '../../test-support/claude-plugin-cli'

let home: string
let workspace: string
useCliScratch('claude-plugin-monitors', (dirs) => ({ home, workspace } = dirs))

const seam = (...args: string[]): Promise<CliResult> => runSeamHeadless(args, { cwd: workspace, home })
const flags = (url: string) => anthropicRunFlags(workspace, url)

// Records its pid (exec keeps it for sleep), prints one line, then waits to be stopped.
const TICK = '#!/bin/sh\necho $$ > "$CLAUDE_PLUGIN_DATA/$1.pid"\necho "tick from $1 root=$CLAUDE_PLUGIN_ROOT"\nexec sleep 600\n'

async function watchPlugin(root: string): Promise<void> {
  await put(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'watch', version: '1.0.0', userConfig: { LABEL: { type: 'string', default: 'blue' } } }))
  await put(
    join(root, 'monitors', 'monitors.json'),
    JSON.stringify([
      { name: 'ticks', command: '${CLAUDE_PLUGIN_ROOT}/tick.sh ${user_config.LABEL}', description: 'Build ticks' },
      { name: 'on-demand', command: '${CLAUDE_PLUGIN_ROOT}/tick.sh skill', description: 'Skill ticks', when: 'on-skill-invoke:go' }
    ])
  )
  await put(join(root, 'skills', 'go', 'SKILL.md'), '---\nname: go\ndescription: Starts the on-demand monitor\n---\nGo.\n')
  await put(join(root, 'tick.sh'), TICK, 0o755)
}

/** A Bash command that returns once a task output file under Seam's home holds `text`. */
const untilOutputHas = (text: string) => ({ name: 'Bash', args: { command: `until grep -rqs --include='*.output' '${text}' '${join(home, 'seam')}'; do sleep 0.05; done` } })
/** How many background tasks the sessions' logs recorded, all sessions together. */
async function tasksStarted(): Promise<number> {
  const folder = join(home, 'seam', 'sessions')
  const logs = (await readdir(folder)).filter((name) => name.endsWith('.jsonl'))
  const texts = await Promise.all(logs.map((name) => readFile(join(folder, name), 'utf8')))
  return texts.join('\n').split('"type":"task/started"').length - 1
}
const event = (description: string, line: string) => new RegExp(`<monitor-event>\\\\n<task-id>b[0-9a-z]{8}</task-id>\\\\n<description>${description}</description>\\\\n<event>${line.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}</event>`)

describe('Claude Code plugin monitors, with the built seam (issue 29)', () => {
  it('an always monitor runs with the session and its lines reach the model; an on-skill-invoke one starts with its skill; both end with the session; a disabled plugin runs none', async () => {
    const source = join(home, 'market-src')
    await mkdir(source, { recursive: true })
    git(source, 'init', '--quiet', '--initial-branch=main')
    await put(join(source, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'team-tools', owner: { name: 'Team' }, plugins: [{ name: 'watch', source: './plugins/watch' }] }))
    await watchPlugin(join(source, 'plugins', 'watch'))
    git(source, 'add', '-A')
    git(source, 'commit', '--quiet', '-m', 'watch')
    expect((await seam('plugin', 'marketplace', 'add', source)).code).toBe(0)
    expect((await seam('plugin', 'install', 'watch@team-tools', 'LABEL=green')).code).toBe(0)
    const root = join(home, 'seam', 'claude-plugins', 'cache', 'team-tools', 'watch', '1.0.0')
    const data = join(home, 'seam', 'claude-plugins', 'data', 'watch-team-tools')

    const server = await startFakeAnthropic([
      { toolCalls: [untilOutputHas('tick from green')] },
      { toolCalls: [{ name: 'Skill', args: { skill: 'watch:go' } }] },
      { toolCalls: [untilOutputHas('tick from skill')] },
      { text: 'done' }
    ])
    let run: CliResult
    try {
      run = await seam('run', ...flags(server.url), 'watch the build')
    } finally {
      await server.close()
    }
    expect(run.stderr).not.toMatch(/did not start/)
    expect(run.code, run.stderr).toBe(0)
    const bodies = server.requests.map((r) => JSON.stringify(r.body))
    expect(bodies).toHaveLength(4)
    // The always monitor's line, with the plugin's root and the userConfig value written in, on the step after it was printed.
    expect(bodies[1]).toMatch(event('Build ticks', `tick from green root=${root}`))
    expect(bodies[1]).not.toContain('tick from skill')
    // The on-skill-invoke monitor started only after the skill was invoked.
    expect(bodies[3]).toMatch(event('Skill ticks', `tick from skill root=${root}`))
    // One process each, both gone with the session.
    for (const name of ['green', 'skill']) {
      const pid = Number(await readFile(join(data, `${name}.pid`), 'utf8'))
      expect(await waitUntilDead(pid, scaledTestMs(5_000))).toBe(true)
    }

    expect(await tasksStarted()).toBe(2)

    // Disabled: no monitor starts.
    await rm(join(data, 'green.pid'))
    expect((await seam('plugin', 'disable', 'watch@team-tools')).code).toBe(0)
    const quiet = await startFakeAnthropic([{ toolCalls: [{ name: 'Bash', args: { command: 'true' } }] }, { text: 'done' }])
    try {
      expect((await seam('run', ...flags(quiet.url), 'hello')).code).toBe(0)
    } finally {
      await quiet.close()
    }
    expect(JSON.stringify(quiet.requests.map((r) => r.body))).not.toContain('tick from')
    expect(existsSync(join(data, 'green.pid'))).toBe(false)
    expect(await tasksStarted()).toBe(2)
  }, 120_000)
})
