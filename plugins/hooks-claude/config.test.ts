// Where hooks come from: the trust gate, disableAllHooks, invalid files, live edits, the
// concurrency cap, unsupported handler types, and the bridge's own configuration.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Kernel, PluginConfigError } from '@seam/sdk'
import hooksClaude from './index'
import { bashThenDone, createHarness, eventually, firstToolResult, hookCommand, hooksOf, type Harness } from './test-harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

const deny = (reason: string) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })

describe('trust gate on the workspace files', () => {
  it('untrusted: project and local hooks do not run; the session is told once which hooks were skipped; user hooks still run', async () => {
    const projectCmd = hookCommand('bash', { stdout: deny('project hook') })
    const localCmd = hookCommand('bash', { record: 'local.jsonl' })
    h = await createHarness({
      trusted: false,
      user: { hooks: hooksOf(['PreToolUse', 'Bash', hookCommand('bash', { record: 'user.jsonl' })]) },
      project: { hooks: hooksOf(['PreToolUse', 'Bash', projectCmd]) },
      local: { hooks: hooksOf(['Stop', undefined, localCmd]) },
      script: [...bashThenDone(), { text: 'again' }]
    })
    await h.run('go')
    await h.run('second prompt')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.records('user.jsonl')).toHaveLength(1)
    expect(h.records('local.jsonl')).toEqual([])
    const skipped = h.notices().filter((n) => n.includes('this workspace is not trusted'))
    expect(skipped).toHaveLength(1)
    expect(skipped[0]).toContain(`2 hook(s) declared in its .claude settings did not run: PreToolUse [${projectCmd}] (${h.pathOf('project')}); Stop [${localCmd}] (${h.pathOf('local')})`)
  })

  it('contributes every command declared in the workspace files as a trust item', async () => {
    h = await createHarness({
      trusted: false,
      project: { hooks: hooksOf(['PreToolUse', 'Bash', 'echo one'], ['Stop', undefined, { type: 'http', url: 'http://127.0.0.1:9/x' }]) },
      local: { hooks: hooksOf(['SessionStart', undefined, 'echo two']) }
    })
    expect(h.trustItems()).toEqual([
      // The matcher and the whole handler definition are part of what trust pins (issue 13).
      { source: 'Claude Code hooks', file: h.pathOf('project'), event: 'PreToolUse', matcher: 'Bash', command: 'echo one', content: '{"type":"command","command":"echo one"}' },
      { source: 'Claude Code hooks', file: h.pathOf('project'), event: 'Stop', command: 'http://127.0.0.1:9/x', content: expect.stringContaining('"url":"http://127.0.0.1:9/x"') },
      { source: 'Claude Code hooks', file: h.pathOf('local'), event: 'SessionStart', command: 'echo two', content: expect.stringContaining('"command":"echo two"') }
    ])
  })

  it('once the workspace is trusted, its hooks run (also for a session that started untrusted)', async () => {
    h = await createHarness({
      trusted: false,
      project: { hooks: hooksOf(['PreToolUse', 'Bash', hookCommand('bash', { stdout: deny('project hook') })]) },
      script: [...bashThenDone(), ...bashThenDone()]
    })
    await h.run('first')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    h.setTrusted(true)
    await h.run('second')
    expect(h.events('tool/result')[1]).toMatchObject({ content: 'PreToolUse:Bash hook error: project hook', isError: true })
    // The session was captured before the restart: the run is recorded in it.
    expect(h.events('hook/invoked')).toHaveLength(1)
  })
})

describe('disableAllHooks, invalid files, unknown events, unsupported handlers', () => {
  it('disableAllHooks in the local file turns off the user and Seam hooks too; the session is told', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Bash', hookCommand('bash', { record: 'user.jsonl' })]) },
      seamHooks: hooksOf(['PreToolUse', 'Bash', hookCommand('bash', { record: 'seam.jsonl' })]),
      local: { disableAllHooks: true },
      script: bashThenDone()
    })
    await h.run('go')
    expect(h.records('user.jsonl')).toEqual([])
    expect(h.records('seam.jsonl')).toEqual([])
    expect(h.notices()).toContain(`info: Claude Code hooks are off: disableAllHooks is true in ${h.pathOf('local')}`)
  })

  it('a file that fails validation is skipped whole, with a warning naming the file and the field; the other sources run', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['PreToolUse', 'Bash', { command: hookCommand('bash', { stdout: deny('user') }), timeout: '30' }]) },
      project: { hooks: hooksOf(['PreToolUse', 'Bash', hookCommand('bash', { record: 'project.jsonl' })]) },
      script: bashThenDone()
    })
    await h.run('go')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })
    expect(h.records('project.jsonl')).toHaveLength(1)
    const warning = h.notices().find((n) => n.includes('was skipped'))
    expect(warning).toMatch(new RegExp(`^warn: Claude Code hooks: ${h.userSettingsPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was skipped: hooks\\.PreToolUse\\[0\\]\\.hooks\\[0\\]\\.timeout: `))
  })

  it('unknown events are ignored; prompt/agent hooks get a "not supported yet" warning naming the hook and never run', async () => {
    h = await createHarness({
      user: {
        hooks: {
          NotAnEvent: [{ hooks: [{ type: 'command', command: 'exit 2' }] }],
          Stop: [{ hooks: [{ type: 'prompt', prompt: 'Is the task complete?' }, { type: 'agent', prompt: 'verify' }] }],
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('bash', { record: 'ok.jsonl' }) }] }]
        }
      },
      script: bashThenDone()
    })
    await h.run('go')
    expect(h.records('ok.jsonl')).toHaveLength(1)
    const notices = h.notices().join('\n')
    expect(notices).toContain(`${h.userSettingsPath}: hooks.Stop[0].hooks[0] (prompt: Is the task complete?): "prompt" hooks are not supported yet; this hook will not run`)
    expect(notices).toContain('hooks.Stop[0].hooks[1] (agent: verify): "agent" hooks are not supported yet')
    expect(h.events('hook/invoked').map((e) => e.event)).toEqual(['PreToolUse'])
  })

  it('hooks on events Seam does not fire are reported once, not run', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['TaskCreated', undefined, 'true'], ['TeammateIdle', undefined, 'true']) }, script: [{ text: 'ok' }] })
    await h.run('go')
    expect(h.notices()).toContain('info: Claude Code hooks: hooks on TaskCreated, TeammateIdle are loaded but Seam does not fire these events yet, so they never run')
  })

  it("Seam's own hooks run and are recorded with their source", async () => {
    h = await createHarness({ seamHooks: hooksOf(['PreToolUse', 'Bash', hookCommand('bash', { stdout: deny('from seam settings') })]), script: bashThenDone() })
    await h.run('go')
    expect(firstToolResult(h.model).content).toBe('PreToolUse:Bash hook error: from seam settings')
    expect(h.events('hook/invoked')[0].sourceFile).toBe('Seam settings')
  })
})

describe('live edits apply without a restart', () => {
  it('a hook added to the project file (whose .claude folder did not exist) runs on the next call; a broken edit warns the open session', async () => {
    h = await createHarness({ script: [...bashThenDone(), ...bashThenDone(), ...bashThenDone()] })
    await h.run('first')
    expect(firstToolResult(h.model)).toEqual({ content: 'ran', isError: false })

    h.write('project', { hooks: hooksOf(['PreToolUse', 'Bash', hookCommand('bash', { stdout: deny('added live') })]) })
    await eventually(() => (h?.service().snapshot().byEvent.get('PreToolUse')?.length ?? 0) === 1, 5000, 'the watcher to pick up the new file')
    await h.run('second')
    expect(h.events('tool/result')[1]).toMatchObject({ content: 'PreToolUse:Bash hook error: added live' })

    h.write('project', '{ "hooks": { "PreToolUse": [ { "hooks": [ { "type": "command", "command": "x", "timeout": "1" } ] } ] } }')
    await eventually(() => h?.service().snapshot().byEvent.get('PreToolUse') === undefined, 5000, 'the broken edit to load')
    await h.run('third')
    expect(h.events('tool/result')[2]).toMatchObject({ content: 'ran', isError: false })
    expect(h.notices().join('\n')).toContain(`${h.pathOf('project')} was skipped: hooks.PreToolUse[0].hooks[0].timeout`)
  })

  it('editing and deleting the user file', async () => {
    h = await createHarness({ user: { hooks: hooksOf(['Stop', undefined, 'true']) } })
    expect(h.service().snapshot().byEvent.get('Stop')?.map((x) => x.label)).toEqual(['true'])
    h.write('user', { hooks: hooksOf(['Stop', undefined, 'echo changed']) })
    await eventually(() => h?.service().snapshot().byEvent.get('Stop')?.[0]?.label === 'echo changed', 5000, 'the edit')
    rmSync(h.userSettingsPath)
    await eventually(() => h?.service().snapshot().byEvent.get('Stop') === undefined, 5000, 'the deletion')
  })
})

describe('the concurrency cap', () => {
  it('never more than `concurrency` hook processes at once, across events; the rest wait and none fails', async () => {
    const marks = 'marks.txt'
    const hook = (i: number) => `echo + >> ${marks}; sleep 0.2; echo - >> ${marks}; exit 0 # hook ${i}`
    h = await createHarness({
      user: { hooks: hooksOf(...Array.from({ length: 6 }, (_, i): [string, string | undefined, string] => ['PreToolUse', undefined, hook(i)]), ...Array.from({ length: 3 }, (_, i): [string, string | undefined, string] => ['PostToolUse', undefined, hook(10 + i)])) },
      config: { concurrency: 3 },
      settings: { maxParallelToolCalls: 4 },
      script: [{ toolCalls: [1, 2, 3].map((n) => ({ name: 'Read', args: { file_path: '/etc/hostname', limit: n } })) }, { text: 'done' }]
    })
    await h.run('go')
    let running = 0
    let peak = 0
    for (const mark of readFileSync(join(h.workspace, marks), 'utf8').split('\n')) {
      if (mark === '+') peak = Math.max(peak, ++running)
      if (mark === '-') running--
    }
    expect(peak).toBeLessThanOrEqual(3)
    expect(h.service().stats()).toMatchObject({ peak: 3, limit: 3, active: 0, waiting: 0 })
    expect(h.events('hook/result').map((r) => r.event).sort()).toEqual([...Array(3 * 3).fill('PostToolUse'), ...Array(3 * 6).fill('PreToolUse')])
    expect(h.events('hook/result').every((r) => r.outcomeKind === 'ok')).toBe(true)
  })
})

describe('S3: disposing the bridge undoes everything it registered', () => {
  it('listeners, the claudeHooks service and the trust items go with it', async () => {
    h = await createHarness({ trusted: false, project: { hooks: hooksOf(['Stop', undefined, 'true']) } })
    const events = ['agent/session-start', 'agent/prompt-submit', 'tools/input-rewrite', 'tools/pre-execute', 'tools/post-execute', 'agent/tool-batch', 'agent/turn-continuation', 'agent/session-end', 'session/appended'] as const
    // Notification (notification.ts) adds a second session-end listener (its idle timers) and the session/appended one.
    const registered = [1, 1, 1, 1, 1, 1, 1, 2, 1]
    const counts = () => events.map((name) => h?.kernel.listenerCount(name) ?? 0)
    const before = counts()
    expect(h.trustItems()).toHaveLength(1)
    h.bridge.dispose()
    expect(counts()).toEqual(before.map((n, i) => n - registered[i]!))
    expect(h.kernel.getService('claudeHooks')).toBeUndefined()
    expect(h.trustItems()).toEqual([])
  })
})

describe('the bridge configuration', () => {
  it('is validated, naming the field', () => {
    const kernel = new Kernel()
    expect(() => kernel.plugin(hooksClaude, { concurrency: 0 })).toThrow(PluginConfigError)
    expect(() => kernel.plugin(hooksClaude, { concurrency: 0 })).toThrow(/concurrency/)
    expect(() => kernel.plugin(hooksClaude, { stopBlockCap: 'nine' })).toThrow(/stopBlockCap/)
    expect(() => kernel.plugin(hooksClaude, { typo: 1 })).toThrow(/typo/)
    kernel.dispose()
  })
})
