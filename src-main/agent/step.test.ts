import { describe, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import type { AgentDelta } from './events'
import { sleep, testTool } from './loop-fixture'
import { useLoopFixture } from './loop-fixture-hooks'

const loop = useLoopFixture()
const setup = loop.setup
const fixture = loop.current

const calls = (name: string, n: number, args: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({ name, args: args(i) }))

describe('a step: streaming and the assistant message', () => {
  it('pushes deltas live and logs one final assistant message (deltas are not logged)', async () => {
    const f = await setup({ script: [{ thinking: 'let me see', text: 'abcdefgh', chunkSize: 3 }] })
    const deltas: AgentDelta[] = []
    f.kernel.context.on('agent/delta', (_id, delta) => void deltas.push(delta))
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(deltas.map((d) => [d.kind, d.text])).toEqual([
      ['thinking', 'let'],
      ['thinking', ' me'],
      ['thinking', ' se'],
      ['thinking', 'e'],
      ['text', 'abc'],
      ['text', 'def'],
      ['text', 'gh']
    ])
    expect(deltas.every((d) => d.turnId === 'turn-1' && d.step === 0)).toBe(true)
    expect(f.ofType('assistant/message')).toEqual([expect.objectContaining({ text: 'abcdefgh', thinking: 'let me see', step: 0 })])
  })

  it('logs tool/call with the sealed (rewritten) args before the tool runs, and tool/result after', async () => {
    const order: string[] = []
    const f = await setup({
      script: [{ toolCalls: [{ name: 'echo', args: { tag: 'raw' } }] }, { text: 'done' }],
      setup: (kernel, tools) => {
        tools.register(testTool('echo', { body: (args) => (order.push(`ran:${fixture()!.types().at(-1)}`), `echo:${args.tag}`) }))
        kernel.context.on('tools/input-rewrite', async (call) => ({ action: 'rewrite', args: { ...call.args, tag: 'safe' }, by: 'sanitizer' }))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(order).toEqual(['ran:tool/call'])
    expect(f.ofType('tool/call')[0]).toMatchObject({ callId: 'call_0_0', name: 'echo', args: { tag: 'safe' }, originalArgs: { tag: 'raw' }, rewrittenBy: 'sanitizer' })
    const result = f.ofType('tool/result')[0]
    expect(result).toMatchObject({ callId: 'call_0_0', content: 'echo:safe', isError: false, verdict: { outcome: 'allowed' } })
    expect(result.token).toBe(f.ofType('tool/call')[0].token)
  })

  it('flushes the log before a tool with side effects runs', async () => {
    let onDisk = ''
    const f = await setup({
      script: [{ toolCalls: [{ name: 'write' }] }, { text: 'done' }],
      setup: (_kernel, tools) =>
        void tools.register(testTool('write', { sideEffects: true, body: async () => ((onDisk = await readFile(fixture()!.log.path, 'utf8')), 'written') }))
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(onDisk).toContain('"type":"tool/call"')
  })

  it('writes the tool/call before a tool that does not declare itself free of side effects runs (a plugin or MCP tool)', async () => {
    let onDisk = ''
    const f = await setup({
      script: [{ toolCalls: [{ name: 'undeclared' }] }, { text: 'done' }],
      setup: (_kernel, tools) => void tools.register(testTool('undeclared', { body: () => ((onDisk = readFileSync(fixture()!.log.path, 'utf8')), 'ran') }))
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(onDisk).toContain('"type":"tool/call"')
  })

  it('a call whose arguments did not parse still gets a result (INVALID_ARGS); the tool never runs', async () => {
    let ran = false
    const f = await setup({
      script: [{ toolCalls: [{ name: 'echo', argsError: 'Tool arguments are not valid JSON: {"tag": ' }] }, { text: 'sorry' }],
      setup: (_kernel, tools) => void tools.register(testTool('echo', { body: () => ((ran = true), 'x') }))
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(ran).toBe(false)
    expect(f.ofType('tool/result')[0]).toMatchObject({ callId: 'call_0_0', isError: true, code: 'INVALID_ARGS' })
    expect(f.ofType('tool/result')[0].content).toContain('Tool arguments are not valid JSON')
    expect(f.ofType('turn/end')[0].reason).toBe('completed')
  })

  it('an unknown tool gets an UNKNOWN_TOOL result and the turn goes on', async () => {
    const f = await setup({ script: [{ toolCalls: [{ name: 'nope' }] }, { text: 'ok' }] })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.ofType('tool/result')[0]).toMatchObject({ code: 'UNKNOWN_TOOL', isError: true })
    expect(f.ofType('turn/end')[0]).toMatchObject({ reason: 'completed', steps: 2 })
  })
})

describe('tool calls of one step (S17, S19)', () => {
  it('S17: post-tool additionalContext is appended after all of the step\'s results, never between them', async () => {
    const f = await setup({
      script: [{ toolCalls: calls('lint', 3, (i) => ({ tag: `f${i}`, ms: [30, 0, 10][i] })) }, { text: 'done' }],
      setup: (kernel, tools) => {
        tools.register(testTool('lint', { concurrent: true, body: async (args, exec) => (await sleep(args.ms ?? 0, exec.signal), `linted ${args.tag}`) }))
        kernel.context.on('tools/post-execute', async (call) => ({ action: 'accept', additionalContext: [`remember ${String(call.args.tag)}`] }))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    const stepEvents = f.log.events.filter((e) => e.type === 'tool/result' || e.type === 'context/message').map((e) =>
      e.type === 'tool/result' ? `result:${e.callId}` : `context:${e.text}`
    )
    expect(stepEvents).toEqual(['result:call_0_0', 'result:call_0_1', 'result:call_0_2', 'context:remember f0', 'context:remember f1', 'context:remember f2'])
    expect(f.ofType('context/message').every((c) => c.source === 'tool:lint' && c.turnId === 'turn-1')).toBe(true)
    // The model reads the calls and results adjacent, then the context.
    const roles = f.model.requests[1].messages.map((m) => m.role)
    expect(roles).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'user'])
  })

  describe('S9/S17: additionalContext of nested tools.execute() calls is carried to the outer call\'s step', () => {
    /** `outer` calls `inner` twice through tools.execute() (as its child), then ends as `mode` says. */
    async function composite(mode: 'return' | 'throw' | 'blocked') {
      return setup({
        script: [{ toolCalls: [{ name: 'outer', args: {} }] }, { text: 'done' }],
        setup: (kernel, tools) => {
          tools.register(testTool('inner'))
          tools.register(
            testTool('outer', {
              body: async (_args, exec) => {
                for (const tag of ['a', 'b']) {
                  await tools.execute({ name: 'inner', args: { tag }, callId: `nested-${tag}`, sessionId: exec.sessionId, cwd: exec.cwd, parent: exec.token, signal: exec.signal })
                }
                if (mode === 'throw') throw new Error('outer failed after its nested calls')
                return 'outer done'
              }
            })
          )
          kernel.context.on('tools/post-execute', async (call, _result, _verdict, next) => {
            if (call.name === 'inner') return { action: 'accept', additionalContext: [`from inner ${String(call.args.tag)}`] }
            if (mode === 'blocked') return { action: 'block', feedback: 'outer result withheld' }
            return { action: 'accept', additionalContext: ['from outer'] }
          })
        }
      })
    }

    it('kept, before the outer call\'s own context, after the step\'s results', async () => {
      const f = await composite('return')
      f.agent.send('go')
      await f.agent.whenIdle()
      const stepEvents = f.log.events.filter((e) => e.type === 'tool/result' || e.type === 'context/message').map((e) => (e.type === 'tool/result' ? `result:${e.callId}` : `context:${e.text}`))
      expect(stepEvents).toEqual(['result:call_0_0', 'context:from inner a', 'context:from inner b', 'context:from outer'])
      expect(f.ofType('context/message').every((c) => c.source === 'tool:outer' && c.turnId === 'turn-1')).toBe(true)
      expect(JSON.stringify(f.model.requests[1].messages)).toContain('from inner b')
    })

    it('kept when the outer call throws', async () => {
      const f = await composite('throw')
      f.agent.send('go')
      await f.agent.whenIdle()
      expect(f.ofType('tool/result')[0]).toMatchObject({ isError: true })
      expect(f.ofType('context/message').map((c) => c.text)).toEqual(['from inner a', 'from inner b', 'from outer'])
    })

    it('dropped when post-execute blocks the outer call', async () => {
      const f = await composite('blocked')
      f.agent.send('go')
      await f.agent.whenIdle()
      expect(f.ofType('tool/result')[0]).toMatchObject({ isError: true })
      expect(f.ofType('context/message')).toEqual([])
    })
  })

  it('S19: calls run in parallel up to maxParallelToolCalls; results are logged in call order', async () => {
    let inFlight = 0
    let maxInFlight = 0
    const finished: number[] = []
    const n = 12
    const f = await setup({
      settings: { maxParallelToolCalls: 4 },
      // Earlier calls sleep longer, so they finish last.
      script: [{ toolCalls: calls('sleep', n, (i) => ({ ms: (n - i) * 3, tag: String(i) })) }, { text: 'done' }],
      setup: (_kernel, tools) =>
        void tools.register(
          testTool('sleep', {
            concurrent: true,
            body: async (args, exec) => {
              maxInFlight = Math.max(maxInFlight, ++inFlight)
              await sleep(args.ms ?? 0, exec.signal)
              inFlight--
              finished.push(Number(args.tag))
              return `slept ${args.tag}`
            }
          })
        )
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(maxInFlight).toBe(4)
    expect(finished).toHaveLength(n)
    expect(f.ofType('tool/result').map((r) => r.content)).toEqual(Array.from({ length: n }, (_, i) => `slept ${i}`))
  })

  it('S19: results are logged in call order even when a later call finishes first', async () => {
    const finished: string[] = []
    let secondDone: () => void = () => {}
    const gate = new Promise<void>((resolve) => (secondDone = resolve))
    const f = await setup({
      script: [{ toolCalls: [{ name: 'step', args: { tag: 'first' } }, { name: 'step', args: { tag: 'second' } }] }, { text: 'done' }],
      setup: (_kernel, tools) =>
        void tools.register(
          testTool('step', {
            concurrent: true,
            body: async (args) => {
              if (args.tag === 'first') await gate
              finished.push(args.tag ?? '')
              if (args.tag === 'second') secondDone()
              return `did ${args.tag}`
            }
          })
        )
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(finished).toEqual(['second', 'first'])
    expect(f.ofType('tool/result').map((r) => r.content)).toEqual(['did first', 'did second'])
  })

  it('S19: the default cap is 10', async () => {
    let inFlight = 0
    let maxInFlight = 0
    const f = await setup({
      script: [{ toolCalls: calls('sleep', 15, () => ({ ms: 20 })) }, { text: 'done' }],
      setup: (_kernel, tools) =>
        void tools.register(
          testTool('sleep', {
            concurrent: true,
            body: async (args, exec) => {
              maxInFlight = Math.max(maxInFlight, ++inFlight)
              await sleep(args.ms ?? 0, exec.signal)
              inFlight--
              return 'ok'
            }
          })
        )
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(maxInFlight).toBe(10)
  })

  it('S19: a tool that does not allow overlap runs alone: in-flight calls finish first, later calls wait for it', async () => {
    const timeline: string[] = []
    let inFlight = 0
    const body = (label: string) => async (args: { ms?: number; tag?: string }, exec: { signal: AbortSignal }) => {
      inFlight++
      timeline.push(`start ${label}${args.tag} (${inFlight})`)
      await sleep(args.ms ?? 0, exec.signal)
      inFlight--
      timeline.push(`end ${label}${args.tag}`)
      return 'ok'
    }
    const f = await setup({
      script: [
        {
          toolCalls: [
            { name: 'read', args: { tag: '1', ms: 20 } },
            { name: 'read', args: { tag: '2', ms: 10 } },
            { name: 'write', args: { tag: '3', ms: 10 } },
            { name: 'read', args: { tag: '4', ms: 10 } },
            { name: 'read', args: { tag: '5', ms: 10 } }
          ]
        },
        { text: 'done' }
      ],
      setup: (_kernel, tools) => {
        tools.register(testTool('read', { concurrent: true, body: body('r') }))
        tools.register(testTool('write', { body: body('w') }))
      }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    const at = (entry: string) => timeline.findIndex((t) => t.startsWith(entry))
    // The write starts alone, after both reads before it ended; the reads after it wait for it.
    expect(timeline[at('start w3')]).toBe('start w3 (1)')
    expect(at('start w3')).toBeGreaterThan(Math.max(at('end r1'), at('end r2')))
    expect(Math.min(at('start r4'), at('start r5'))).toBeGreaterThan(at('end w3'))
    // Reads overlap with each other.
    expect(timeline).toContain('start r2 (2)')
    expect(timeline).toContain('start r5 (2)')
    expect(f.ofType('tool/result').map((r) => r.callId)).toEqual(['call_0_0', 'call_0_1', 'call_0_2', 'call_0_3', 'call_0_4'])
  })
})
