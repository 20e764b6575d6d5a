import { describe, expect, it } from 'vitest'
import type { AgentHandle, PromptSource, SessionStartSource } from '../../src-shared/host/agent'
import { Agent } from './agent'
import type { AgentState } from './events'
import { testTool } from './loop-fixture'
import { useLoopFixture } from './loop-fixture-hooks'
import { AgentSettingsSchema, parseAgentSettings } from './settings'

const loop = useLoopFixture()
const setup = loop.setup
const fixture = loop.current

describe('agent: one turn', () => {
  it('a prompt opens a turn: turn/start, user/message, assistant/message, turn/end completed; the log is flushed', async () => {
    const f = await setup({ script: [{ text: 'hello there' }] })
    expect(f.agent.send('hi')).toEqual({ queued: 'turn' })
    await f.agent.whenIdle()
    expect(f.types()).toEqual(['session/header', 'turn/start', 'user/message', 'model/context', 'assistant/message', 'turn/end'])
    const end = f.ofType('turn/end')[0]
    expect(end).toMatchObject({ reason: 'completed', steps: 1 })
    expect(f.ofType('assistant/message')[0]).toMatchObject({ text: 'hello there', toolCalls: [], stopReason: 'end_turn' })
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: 'hi' }])
    // Flushed at the turn boundary: the file holds the turn/end.
    const reopened = await f.store.open(f.log.id)
    expect(reopened).toBe(f.log)
    const { readFile } = await import('node:fs/promises')
    const lines = (await readFile(f.log.path, 'utf8')).trim().split('\n')
    expect(JSON.parse(lines[lines.length - 1])).toMatchObject({ type: 'turn/end', reason: 'completed' })
  })

  it('publishes its state (queued, running, turnId) and goes idle', async () => {
    const f = await setup({ script: [{ text: 'a' }] })
    const states: AgentState[] = []
    f.kernel.context.on('agent/state', (id, state) => {
      expect(id).toBe(f.log.id)
      states.push(state)
    })
    expect(f.agent.state).toEqual({ running: false, queued: 0, steering: 0 })
    f.agent.send('go')
    expect(f.agent.state.running).toBe(true)
    await f.agent.whenIdle()
    expect(f.agent.state).toEqual({ running: false, queued: 0, steering: 0 })
    expect(states.some((s) => s.running && s.turnId === 'turn-1')).toBe(true)
    expect(states[states.length - 1]).toEqual({ running: false, queued: 0, steering: 0 })
  })

  it('rejects an empty prompt and bad settings, naming the field', async () => {
    const f = await setup({ script: [] })
    expect(() => f.agent.send('')).toThrow(/content/)
    expect(() => parseAgentSettings({ maxParallelToolCalls: 0 })).toThrow(/maxParallelToolCalls/)
    expect(() => new Agent({ kernel: f.kernel, log: f.log, model: f.model, workspace: f.dir, settings: { maxSteps: -1 }, source: 'startup' })).toThrow(/maxSteps/)
    expect(AgentSettingsSchema.parse({})).toEqual({ maxParallelToolCalls: 10, maxSteps: 50, maxContinuations: 9, model: {}, compaction: { auto: true, threshold: 0.8 } })
  })
})

describe('a broken session log', () => {
  it('does not hang the agent: the failure is reported, queued messages are dropped, the agent goes idle', async () => {
    const f = await setup({ script: [{ text: 'never' }] })
    const errors: string[] = []
    f.kernel.onLog((record) => void (record.level === 'error' && errors.push(record.message)))
    await f.log.close()
    f.agent.send('one')
    f.agent.send('two')
    await f.agent.whenIdle()
    expect(f.agent.state).toEqual({ running: false, queued: 0, steering: 0 })
    expect(errors.join('\n')).toMatch(/append after close/)
    expect(errors.join('\n')).toMatch(/2 queued message\(s\) dropped/)
    expect(f.model.calls).toBe(0)
  })
})

describe('agent/session-start (S4)', () => {
  it('S4: fires once before turn 1 with `startup`; inject() is a context/message the next request carries', async () => {
    const seen: Array<{ source: SessionStartSource; turnId: string | undefined; logged: number }> = []
    const f = await setup({
      script: [{ text: 'one' }, { text: 'two' }],
      setup: (kernel) =>
        kernel.context.on('agent/session-start', (agent, source) => {
          seen.push({ source, turnId: agent.currentTurnId, logged: fixture()?.log.events.length ?? -1 })
          agent.inject('project rules: be brief', 'test-plugin')
        })
    })
    f.agent.send('first')
    await f.agent.whenIdle()
    f.agent.send('second')
    await f.agent.whenIdle()
    expect(seen).toEqual([{ source: 'startup', turnId: undefined, logged: 1 }])
    expect(f.types().slice(0, 3)).toEqual(['session/header', 'context/message', 'turn/start'])
    expect(f.ofType('context/message')[0]).toMatchObject({ text: 'project rules: be brief', source: 'test-plugin' })
    expect(f.ofType('context/message')[0].turnId).toBeUndefined()
    const firstRequest = JSON.stringify(f.model.requests[0].messages)
    expect(firstRequest).toContain('project rules: be brief')
    expect(f.ofType('turn/start')).toHaveLength(2)
  })

  it('S4: a session reloaded from disk starts with `resume`', async () => {
    const f = await setup({ script: [{ text: 'one' }, { text: 'two' }] })
    f.agent.send('first')
    await f.agent.whenIdle()
    await f.agent.close()
    await f.log.close()
    const reopened = await f.store.open(f.log.id)
    const sources: SessionStartSource[] = []
    f.kernel.context.on('agent/session-start', (_agent, source) => void sources.push(source))
    const resumed = new Agent({ kernel: f.kernel, log: reopened, model: f.model, workspace: f.dir, source: 'resume' })
    resumed.send('second')
    await resumed.whenIdle()
    expect(sources).toEqual(['resume'])
    expect(reopened.events.filter((e) => e.type === 'turn/start').map((e) => (e as { turnId: string }).turnId)).toEqual(['turn-1', 'turn-2'])
    expect(f.model.requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    await resumed.close()
    await reopened.close()
  })

  it('a resumed log that ends inside a turn gets that turn closed (every opened turn has a turn/end)', async () => {
    const f = await setup({ script: [] })
    f.log.append({ type: 'turn/start', turnId: 'turn-1' })
    f.log.append({ type: 'user/message', turnId: 'turn-1', content: 'lost', source: 'user' })
    await f.log.flush()
    const again = new Agent({ kernel: f.kernel, log: f.log, model: f.model, workspace: f.dir, source: 'resume' })
    expect(f.ofType('turn/end')).toEqual([expect.objectContaining({ turnId: 'turn-1', reason: 'error', error: expect.stringContaining('interrupted') })])
    await again.close()
  })
})

describe('agent/prompt-submit (S5, S6)', () => {
  it('S6: the turn is opened before prompt policy runs; S5: a rewrite is logged with originalContent and additionalContext after it', async () => {
    const seen: Array<{ content: string; source: PromptSource; turnId?: string; last?: string }> = []
    const f = await setup({
      script: [{ text: 'done' }],
      setup: (kernel) =>
        kernel.context.on('agent/prompt-submit', async (agent, content, source) => {
          const events = fixture()!.log.events
          seen.push({ content, source, turnId: agent.currentTurnId, last: events[events.length - 1]?.type })
          return { action: 'allow', content: content.toUpperCase(), additionalContext: ['checked by policy'] }
        })
    })
    f.agent.send('make it loud', 'cli')
    await f.agent.whenIdle()
    expect(seen).toEqual([{ content: 'make it loud', source: 'cli', turnId: 'turn-1', last: 'turn/start' }])
    expect(f.types()).toEqual(['session/header', 'turn/start', 'user/message', 'context/message', 'model/context', 'assistant/message', 'turn/end'])
    expect(f.ofType('user/message')[0]).toMatchObject({ content: 'MAKE IT LOUD', originalContent: 'make it loud', source: 'cli' })
    expect(f.ofType('context/message')[0]).toMatchObject({ text: 'checked by policy', turnId: 'turn-1' })
    const sent = JSON.stringify(f.model.requests[0].messages)
    expect(sent).toContain('MAKE IT LOUD')
    expect(sent).not.toContain('make it loud')
    expect(sent).toContain('checked by policy')
  })

  it('S5/S6: a batch whose prompts are all blocked is a zero-step turn ending `rejected`; the model is never asked', async () => {
    const f = await setup({
      script: [],
      setup: (kernel) => kernel.context.on('agent/prompt-submit', async () => ({ action: 'block', reason: 'contains a secret', by: 'secret-scan' }))
    })
    f.agent.send('my password is hunter2')
    await f.agent.whenIdle()
    expect(f.types()).toEqual(['session/header', 'turn/start', 'prompt/blocked', 'turn/end'])
    expect(f.ofType('prompt/blocked')[0]).toMatchObject({ prompt: 'my password is hunter2', reason: 'contains a secret', by: 'secret-scan', turnId: 'turn-1' })
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'rejected', steps: 0 })
    expect(f.model.calls).toBe(0)
  })

  it('S6: a mixed batch keeps its blocked inputs as prompt/blocked and runs the allowed ones in one turn', async () => {
    const f = await setup({
      script: [{ text: 'ok' }],
      setup: (kernel) =>
        kernel.context.on('agent/prompt-submit', async (_agent, content, _source, next) =>
          content.includes('secret') ? { action: 'block', reason: 'no secrets' } : next()
        )
    })
    expect(f.agent.send('the secret is 42')).toEqual({ queued: 'turn' })
    expect(f.agent.send('what is 6*7?')).toEqual({ queued: 'turn' })
    await f.agent.whenIdle()
    expect(f.types()).toEqual(['session/header', 'turn/start', 'prompt/blocked', 'user/message', 'model/context', 'assistant/message', 'turn/end'])
    expect(f.ofType('turn/end')[0].reason).toBe('completed')
    expect(f.model.requests[0].messages).toEqual([{ role: 'user', content: 'what is 6*7?' }])
  })

  it('S2/S20: a decision outside the union ends the turn `error`; the next prompt opens a new turn normally', async () => {
    let broken = true
    const f = await setup({
      script: [{ text: 'fine' }],
      setup: (kernel) =>
        kernel.context.on('agent/prompt-submit', async (_a, _c, _s, next) =>
          broken ? ({ action: 'maybe' } as unknown as Awaited<ReturnType<typeof next>>) : next()
        )
    })
    f.agent.send('one')
    await f.agent.whenIdle()
    const end = f.ofType('turn/end')[0]
    expect(end.reason).toBe('error')
    expect(end.error).toMatch(/agent\/prompt-submit returned an invalid decision/)
    broken = false
    f.agent.send('two')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end').map((e) => e.reason)).toEqual(['error', 'completed'])
  })

  it('S20: a throwing prompt policy ends the turn `error` with its message', async () => {
    const f = await setup({
      script: [],
      setup: (kernel) =>
        kernel.context.on('agent/prompt-submit', async () => {
          throw new Error('policy exploded')
        })
    })
    f.agent.send('x')
    await f.agent.whenIdle()
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'error', error: 'policy exploded', steps: 0 })
  })

  it('S6/S20: a prompt policy that throws on the first prompt of a queued batch keeps the whole batch as prompt/blocked with the reason', async () => {
    const f = await setup({
      script: [{ text: 'fine' }],
      setup: (kernel) =>
        kernel.context.on('agent/prompt-submit', async (_agent, content, _source, next) => {
          if (content === 'first') throw new Error('policy exploded')
          return next()
        })
    })
    expect(f.agent.send('first')).toEqual({ queued: 'turn' })
    expect(f.agent.send('second')).toEqual({ queued: 'turn' })
    expect(f.agent.send('third')).toEqual({ queued: 'turn' })
    await f.agent.whenIdle()
    expect(f.types()).toEqual(['session/header', 'turn/start', 'prompt/blocked', 'prompt/blocked', 'prompt/blocked', 'turn/end'])
    expect(f.ofType('prompt/blocked').map((e) => [e.prompt, e.reason])).toEqual([
      ['first', 'prompt policy failed: policy exploded'],
      ['second', 'not submitted: prompt policy failed: policy exploded (on an earlier message of the same batch)'],
      ['third', 'not submitted: prompt policy failed: policy exploded (on an earlier message of the same batch)']
    ])
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'error', error: 'policy exploded', steps: 0 })
    expect(f.model.calls).toBe(0)
  })
})

describe('failing notification listeners (S15, S4, S21)', () => {
  it('an agent/turn-stop listener that fails is a notice in the session and a log record (issue 25: it was recorded nowhere)', async () => {
    const logged: string[] = []
    const f = await setup({
      script: [{ text: 'first' }, { text: 'never' }],
      setup: (kernel) => {
        kernel.onLog((record) => void (record.level === 'error' && logged.push(record.message)))
        kernel.context.on('agent/turn-continuation', async (agent, _info, next) => {
          agent.stop('budget exhausted', 'budget-plugin')
          return next()
        })
        kernel.plugin({
          name: 'broken-stop-observer',
          apply(ctx) {
            ctx.on('agent/turn-stop', async () => Promise.reject(new Error('stop observer broke')))
          }
        })
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.ofType('notice').map((n) => [n.level, n.source, n.text])).toEqual([
      ['info', 'budget-plugin', 'Turn stopped by budget-plugin: budget exhausted'],
      ['error', 'broken-stop-observer', 'agent/turn-stop listener of plugin "broken-stop-observer" failed: stop observer broke']
    ])
    expect(f.ofType('notice')[1].turnId).toBe('turn-1')
    expect(logged).toEqual(['emit agent/turn-stop: stop observer broke'])
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed' })
  })

  it('a tools/result, session-start, turn-end or session-end listener that fails is a notice in the session and a log record', async () => {
    const logged: string[] = []
    const f = await setup({
      script: [{ toolCalls: [{ name: 'noop' }] }, { text: 'done' }],
      setup: (kernel, tools) => {
        kernel.onLog((record) => void (record.level === 'error' && logged.push(record.message)))
        tools.register(testTool('noop'))
        kernel.plugin({
          name: 'broken-observer',
          apply(ctx) {
            ctx.on('tools/result', () => {
              throw new Error('result observer broke')
            })
            ctx.on('agent/session-start', async () => Promise.reject(new Error('start observer broke')))
            ctx.on('agent/turn-end', () => {
              throw new Error('turn-end observer broke')
            })
            ctx.on('agent/session-end', () => {
              throw new Error('session-end observer broke')
            })
          }
        })
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    await f.agent.close('closed')
    const notices = f.ofType('notice').map((n) => [n.level, n.source, n.text])
    expect(notices).toEqual([
      ['error', 'broken-observer', 'agent/session-start listener of plugin "broken-observer" failed: start observer broke'],
      ['error', 'broken-observer', 'tools/result listener of plugin "broken-observer" failed on "noop": result observer broke'],
      ['error', 'broken-observer', 'agent/turn-end listener of plugin "broken-observer" failed: turn-end observer broke'],
      ['error', 'broken-observer', 'agent/session-end listener of plugin "broken-observer" failed: session-end observer broke']
    ])
    expect(f.ofType('notice')[1].turnId).toBe('turn-1')
    expect(logged).toEqual([
      'parallel agent/session-start: start observer broke',
      'emit tools/result: result observer broke',
      'emit agent/turn-end: turn-end observer broke',
      'parallel agent/session-end: session-end observer broke'
    ])
  })
})

describe('the agent handle', () => {
  it('exposes the session, records notices, and passes setEnv values to tool calls', async () => {
    let handle: AgentHandle | undefined
    const envs: Array<Readonly<Record<string, string>>> = []
    const f = await setup({
      script: [{ toolCalls: [{ name: 'env' }] }, { text: 'done' }],
      setup: (kernel, tools) => {
        tools.register(testTool('env', { body: (_args, exec) => (envs.push(exec.env), 'env') }))
        kernel.context.on('agent/session-start', (agent) => {
          handle = agent
          agent.setEnv('PROJECT_MODE', 'strict')
          agent.notify('warn', 'hook printed a warning', 'hook:SessionStart')
        })
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(handle).toBeDefined()
    expect(handle!.sessionId).toBe(f.log.id)
    expect(handle!.transcriptPath).toBe(f.log.path)
    expect(handle!.cwd).toBe(f.dir)
    expect(handle!.workspace).toBe(f.dir)
    expect(() => handle!.setEnv('BAD NAME', 'x')).toThrow(/not a valid environment variable name/)
    expect(envs).toEqual([{ PROJECT_MODE: 'strict' }])
    expect(f.ofType('notice')[0]).toMatchObject({ level: 'warn', text: 'hook printed a warning', source: 'hook:SessionStart' })
    // Notices are never model-visible.
    expect(JSON.stringify(f.model.requests)).not.toContain('hook printed a warning')
  })

  it('settings env (the settingsEnv service) reaches tool calls under the session\'s own setEnv values', async () => {
    const envs: Array<Readonly<Record<string, string>>> = []
    let settingsVars: Record<string, string> = { FROM_SETTINGS: 'settings', SHARED: 'settings' }
    const f = await setup({
      script: [{ toolCalls: [{ name: 'env' }] }, { toolCalls: [{ name: 'env' }] }, { text: 'done' }],
      setup: (kernel, tools) => {
        tools.register(testTool('env', { body: (_args, exec) => (envs.push(exec.env), 'env') }))
        kernel.context.provide('settingsEnv', { vars: () => settingsVars })
        kernel.context.on('agent/session-start', (agent) => agent.setEnv('SHARED', 'session'))
        kernel.context.on('tools/result', () => void (settingsVars = { FROM_SETTINGS: 'edited' }))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    // Read per call: an edit of the settings applies to the next call.
    expect(envs).toEqual([
      { FROM_SETTINGS: 'settings', SHARED: 'session' },
      { FROM_SETTINGS: 'edited', SHARED: 'session' }
    ])
  })

  it('close() cancels the running turn, fires agent/session-end once and refuses later sends', async () => {
    const ends: string[] = []
    const f = await setup({
      script: [{ text: 'thinking...', hang: true }],
      setup: (kernel) => kernel.context.on('agent/session-end', (_agent, reason) => void ends.push(reason))
    })
    const deltas: string[] = []
    const firstDelta = new Promise<void>((resolve) =>
      f.kernel.context.on('agent/delta', (_id, d) => {
        deltas.push(d.text)
        resolve()
      })
    )
    f.agent.send('go')
    await firstDelta
    await f.agent.close('shutdown')
    await f.agent.close('shutdown')
    expect(ends).toEqual(['shutdown'])
    expect(f.ofType('turn/end')[0].reason).toBe('cancelled')
    expect(() => f.agent.send('late')).toThrow(/closed/)
  })
})

describe('news from outside a turn (AgentHandle.deliver)', () => {
  it('an idle session opens a turn with it: the turn starts with its context/message, no user message, and the model answers it', async () => {
    const f = await setup({ script: [{ text: 'heard it' }] })
    f.agent.handle.deliver('<task-notification>agent done</task-notification>', 'background-agent')
    expect(f.agent.state.running).toBe(true)
    await f.agent.whenIdle()
    expect(f.types()).toEqual(['session/header', 'turn/start', 'context/message', 'model/context', 'assistant/message', 'turn/end'])
    expect(f.ofType('context/message')[0]).toMatchObject({ turnId: 'turn-1', text: '<task-notification>agent done</task-notification>', source: 'background-agent' })
    expect(JSON.stringify(f.model.requests[0].messages)).toContain('<task-notification>agent done</task-notification>')
    expect(f.ofType('turn/end')[0].reason).toBe('completed')
  })

  it('a running turn gets it at its next step (one turn); news the turn did not take before it ended opens the next turn', async () => {
    let handle: AgentHandle | undefined
    const f = await setup({
      script: [{ toolCalls: [{ name: 'news' }] }, { text: 'noted' }, { text: 'and the late one' }],
      setup: (kernel, tools) => {
        kernel.context.on('agent/session-start', (agent) => void (handle = agent))
        tools.register(testTool('news', { body: () => (handle!.deliver('news during the call', 'test'), 'called') }))
        // Delivered while the turn closes after the model's last answer: no step takes it, so it opens the next turn.
        kernel.context.on('agent/turn-continuation', async (agent, _info, next) => {
          if (agent.currentTurnId === 'turn-1') agent.deliver('news at the end', 'test')
          return next()
        })
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    const context = f.ofType('context/message')
    expect(context.map((e) => [e.turnId, e.text])).toEqual([
      ['turn-1', 'news during the call'],
      ['turn-2', 'news at the end']
    ])
    expect(JSON.stringify(f.model.requests[1].messages)).toContain('news during the call')
    expect(f.ofType('turn/end').map((e) => e.reason)).toEqual(['completed', 'completed'])
    expect(f.ofType('user/message')).toHaveLength(1)
  })

  it('a closing session drops it: no turn opens', async () => {
    const f = await setup({ script: [{ text: 'never' }] })
    await f.agent.close('closed')
    f.agent.handle.deliver('too late', 'test')
    await f.agent.whenIdle()
    expect(f.ofType('turn/start')).toHaveLength(0)
    expect(f.model.requests).toHaveLength(0)
  })
})
