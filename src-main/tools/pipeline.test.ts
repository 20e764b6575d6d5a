// The tool pipeline end to end on a real kernel (S2, S9-S18): every test names the rule it proves.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { PermissionRequestDecision, SealedCall, ToolCallRequest, ToolDefinition, ToolResult } from '../../src-shared/host/tools'
import { Kernel, type LogRecord } from '../../src-shared/kernel'
import { toolsPlugin } from './index'
import type { HostExecuteOptions } from './pipeline'

function setup() {
  const kernel = new Kernel()
  const logs: LogRecord[] = []
  kernel.onLog((record) => logs.push(record))
  kernel.plugin(toolsPlugin)
  const ctx = kernel.context
  const tools = kernel.getService('tools')!
  return { kernel, ctx, tools, logs }
}

function request(name: string, args: unknown, extra: Partial<ToolCallRequest> = {}): ToolCallRequest {
  return { name, args, callId: 'call-1', sessionId: 'session-1', turnId: 'turn-1', cwd: '/srv', ...extra }
}

function echoTool(seen: unknown[] = [], extra: Partial<ToolDefinition<{ text: string }>> = {}): ToolDefinition<{ text: string }> {
  return {
    name: 'Echo',
    description: 'Echoes its text.',
    inputSchema: z.object({ text: z.string() }),
    execute(args) {
      seen.push(args)
      return { content: args.text }
    },
    ...extra
  }
}

describe('tool pipeline order', () => {
  it('S9-S15: rewrite, seal, pre-execute, guards, wrappers, dispatch, post-execute, result run in this order', async () => {
    const { ctx, tools } = setup()
    const order: string[] = []
    ctx.tools.register(echoTool([], { execute: (args) => (order.push('tool body'), { content: args.text }) }))
    ctx.on('tools/input-rewrite', async (_call, next) => (order.push('input-rewrite'), next()))
    ctx.on('tools/pre-execute', async (_call, next) => (order.push('pre-execute'), next()))
    ctx.tools.guard(() => void order.push('guard'))
    ctx.on('tools/execute', async (_call, _control, next) => {
      order.push('wrapper before')
      const result = await next()
      order.push('wrapper after')
      return result
    })
    ctx.on('tools/post-execute', async (_call, _result, _verdict, next) => (order.push('post-execute'), next()))
    ctx.on('tools/result', () => void order.push('result'))
    const out = await tools.execute(request('Echo', { text: 'hi' }), { onSealed: () => void order.push('onSealed') })
    expect(out.result).toEqual({ content: 'hi', isError: false })
    expect(out.verdict).toMatchObject({ outcome: 'allowed', stage: 'pre-execute' })
    expect(order).toEqual(['input-rewrite', 'onSealed', 'pre-execute', 'guard', 'wrapper before', 'tool body', 'wrapper after', 'post-execute', 'result'])
    expect(out.durationMs).toBeGreaterThanOrEqual(0)
  })
})

describe('beforeRun (host-only: the loop syncs the log there)', () => {
  it('runs after policy and the wrappers, right before the tool body, and not at all for a denied call', async () => {
    const { ctx, tools } = setup()
    const order: string[] = []
    ctx.tools.register(echoTool([], { execute: (args) => (order.push('tool body'), { content: args.text }) }))
    ctx.on('tools/pre-execute', async (call, next) => (order.push('pre-execute'), call.args.text === 'no' ? { action: 'deny', reason: 'no' } : next()))
    ctx.on('tools/execute', async (_call, _control, next) => (order.push('wrapper'), next()))
    const options: HostExecuteOptions = { onSealed: () => void order.push('sealed'), beforeRun: async () => void order.push('beforeRun') }
    await tools.execute(request('Echo', { text: 'yes' }), options)
    expect(order).toEqual(['sealed', 'pre-execute', 'wrapper', 'beforeRun', 'tool body'])
    order.length = 0
    await tools.execute(request('Echo', { text: 'no' }), options)
    expect(order).toEqual(['sealed', 'pre-execute'])
  })

  it('a beforeRun that fails fails the call (LISTENER_THREW, naming the cause) and the tool never runs', async () => {
    const { ctx, tools } = setup()
    const seen: unknown[] = []
    ctx.tools.register(echoTool(seen))
    const options: HostExecuteOptions = { beforeRun: () => Promise.reject(new Error('syncing the session failed: EIO')) }
    const out = await tools.execute(request('Echo', { text: 'x' }), options)
    expect(seen).toEqual([])
    expect(out.result).toMatchObject({ isError: true, code: 'LISTENER_THREW' })
    expect(out.result.content).toContain('syncing the session failed: EIO')
  })
})

describe('identity sealing (S9)', () => {
  it('S9: sealed args are frozen JSON and the very same object in onSealed, pre-execute, the tool body, post-execute and result', async () => {
    const { ctx, tools } = setup()
    const seen: unknown[] = []
    const calls: SealedCall[] = []
    const schema = z.object({ text: z.string(), nested: z.object({ list: z.array(z.number()) }) })
    ctx.tools.register({ name: 'Deep', description: 'd', inputSchema: schema, execute: (args, exec) => (seen.push(args, exec.token), { content: 'ok' }) })
    ctx.on('tools/pre-execute', async (call, next) => (calls.push(call), next()))
    ctx.on('tools/post-execute', async (call, _r, _v, next) => (calls.push(call), next()))
    ctx.on('tools/result', (call) => void calls.push(call))
    const args = { text: 'a', nested: { list: [1, 2] } }
    const out = await tools.execute(request('Deep', args, { parent: 'call_parent-token' }), { onSealed: (call) => void calls.push(call) })
    args.nested.list.push(3) // the caller's object is not what was sealed
    expect(calls).toHaveLength(4)
    for (const call of calls) expect(call).toBe(out.call)
    expect(seen[0]).toBe(out.call.args)
    expect(seen[1]).toBe(out.call.token)
    expect(out.call.args).toEqual({ text: 'a', nested: { list: [1, 2] } })
    expect(Object.isFrozen(out.call)).toBe(true)
    expect(Object.isFrozen(out.call.args)).toBe(true)
    expect(Object.isFrozen(out.call.args.nested)).toBe(true)
    expect(Object.isFrozen((out.call.args.nested as { list: number[] }).list)).toBe(true)
    expect(out.call.parent).toBe('call_parent-token')
    expect(out.call.token).toMatch(/^call_[0-9a-f-]{36}$/)
    const again = await tools.execute(request('Deep', args))
    expect(again.call.token).not.toBe(out.call.token)
  })

  it('S9, S16: a malformed identity is an INVALID_IDENTITY result, still recorded and observed', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    const observed: ToolResult[] = []
    ctx.on('tools/result', (_call, result) => void observed.push(result))
    const sealed: SealedCall[] = []
    const out = await tools.execute({ ...request('Echo', { text: 'x' }), callId: 42 } as unknown as ToolCallRequest, { onSealed: (c) => void sealed.push(c) })
    expect(out.result).toMatchObject({ isError: true, code: 'INVALID_IDENTITY' })
    expect(out.result.content).toContain('callId')
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'seal' })
    expect(ran).toHaveLength(0)
    expect(sealed).toHaveLength(1)
    expect(observed).toEqual([out.result])
  })

  it('S16: arguments that fail the tool schema are INVALID_ARGS naming the field; the tool never runs but post-execute and result see it', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    const post: string[] = []
    ctx.on('tools/post-execute', async (_c, result, verdict, next) => (post.push(`${result.code}/${verdict.stage}`), next()))
    const out = await tools.execute(request('Echo', { text: 7 }))
    expect(out.result).toMatchObject({ isError: true, code: 'INVALID_ARGS' })
    expect(out.result.content).toMatch(/Invalid arguments for tool "Echo": text: /)
    expect(ran).toHaveLength(0)
    expect(post).toEqual(['INVALID_ARGS/seal'])
  })

  it('S16: arguments that are not JSON (a BigInt beyond 2^53, a function) are INVALID_ARGS naming the path', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    const big = await tools.execute(request('Echo', { text: 'a', n: { deep: 2n ** 64n } }))
    expect(big.result.code).toBe('INVALID_ARGS')
    expect(big.result.content).toContain('n.deep')
    const notObject = await tools.execute(request('Echo', ['text']))
    expect(notObject.result.code).toBe('INVALID_ARGS')
    expect(notObject.result.content).toContain('expected a JSON object')
    const parseError = await tools.execute(request('Echo', 'Tool arguments are not valid JSON (Unexpected end of JSON input): {"text": "a'))
    expect(parseError.result.content).toBe('Invalid arguments for tool "Echo": Tool arguments are not valid JSON (Unexpected end of JSON input): {"text": "a')
  })

  it('S16: an unknown tool is an UNKNOWN_TOOL result listing the tools there are', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    const out = await tools.execute(request('Nope', {}))
    expect(out.result).toMatchObject({ isError: true, code: 'UNKNOWN_TOOL' })
    expect(out.result.content).toContain('Available tools: Echo')
  })

  it('S9: the schema output (defaults applied) is what is sealed and run', async () => {
    const { ctx, tools } = setup()
    const seen: unknown[] = []
    ctx.tools.register({ name: 'Def', description: 'd', inputSchema: z.object({ a: z.string(), all: z.boolean().default(false) }), execute: (args) => (seen.push(args), { content: 'ok' }) })
    const out = await tools.execute(request('Def', { a: 'x' }))
    expect(out.call.args).toEqual({ a: 'x', all: false })
    expect(seen[0]).toBe(out.call.args)
  })
})

describe('input rewrite (S18)', () => {
  it('S18: a rewrite happens before sealing; history, approval and the tool body all see the rewritten args; the original is kept', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    ctx.on('tools/input-rewrite', async (call, next) => {
      expect(Object.isFrozen(call.args)).toBe(true)
      return { action: 'rewrite', args: { text: `${String(call.args.text)}!` }, by: 'shouter' }
    })
    const sealed: SealedCall[] = []
    const out = await tools.execute(request('Echo', { text: 'hi' }), { onSealed: (c) => void sealed.push(c) })
    expect(out.result.content).toBe('hi!')
    expect(ran).toEqual([{ text: 'hi!' }])
    expect(sealed[0]).toBe(out.call)
    expect(out.call).toMatchObject({ args: { text: 'hi!' }, originalArgs: { text: 'hi' }, rewrittenBy: 'shouter' })
  })

  it('S18: a rewrite the tool schema rejects fails with INVALID_ARGS naming the field; the tool never runs; the original is kept', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    ctx.on('tools/input-rewrite', async () => ({ action: 'rewrite', args: { text: 5 }, by: 'broken-rewriter' }))
    const out = await tools.execute(request('Echo', { text: 'hi' }))
    expect(out.result).toMatchObject({ isError: true, code: 'INVALID_ARGS' })
    expect(out.result.content).toMatch(/rewritten by "broken-rewriter" are invalid: text: /)
    expect(ran).toHaveLength(0)
    expect(out.call).toMatchObject({ originalArgs: { text: 'hi' }, rewrittenBy: 'broken-rewriter' })
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'rewrite' })
  })

  it('S2, S18: a rewrite listener returning something outside RewriteDecision is a listener failure', async () => {
    const { ctx, tools, logs } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    ctx.on('tools/input-rewrite', async () => ({ action: 'replace', args: {} }) as never)
    const out = await tools.execute(request('Echo', { text: 'hi' }))
    expect(out.result.code).toBe('LISTENER_THREW')
    expect(out.result.content).toContain('"replace"')
    expect(ran).toHaveLength(0)
    expect(logs.some((l) => l.level === 'error')).toBe(true)
  })
})

describe('pre-execute policy (S10) and guards (S12)', () => {
  it('S10, S11: a deny skips the wrappers and the tool but still reaches post-execute and result', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    const stages: string[] = []
    ctx.tools.register(echoTool(ran))
    ctx.on('tools/pre-execute', async () => ({ action: 'deny', reason: 'not today', by: 'policy' }))
    ctx.on('tools/execute', async (_c, _x, next) => (stages.push('wrapper'), next()))
    ctx.on('tools/post-execute', async (_c, result, verdict, next) => (stages.push(`post:${result.code}:${verdict.outcome}`), next()))
    ctx.on('tools/result', (_c, result) => void stages.push(`result:${result.code}`))
    const out = await tools.execute(request('Echo', { text: 'hi' }))
    expect(out.result).toEqual({ content: 'Permission denied: not today', isError: true, code: 'DENIED' })
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'pre-execute', reason: 'not today', by: 'policy' })
    expect(ran).toHaveLength(0)
    expect(stages).toEqual(['post:DENIED:denied', 'result:DENIED'])
  })

  it('S10: a deny with modelText is read by the model word for word', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    ctx.on('tools/pre-execute', async () => ({ action: 'deny', reason: 'r', modelText: 'Blocked by hook: exact words' }))
    const out = await tools.execute(request('Echo', { text: 'hi' }))
    expect(out.result.content).toBe('Blocked by hook: exact words')
  })

  it.each([
    ['an unknown action', async () => ({ action: 'maybe' })],
    ['a deny without a reason', async () => ({ action: 'deny' })],
    ['undefined', async () => undefined],
    ['a throw', async () => Promise.reject(new Error('policy crashed'))]
  ])('S2: a pre-execute listener returning %s is a listener failure, not an allow', async (_label, listener) => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    ctx.on('tools/pre-execute', listener as never)
    const out = await tools.execute(request('Echo', { text: 'hi' }))
    expect(out.result).toMatchObject({ isError: true, code: 'LISTENER_THREW' })
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'pre-execute' })
    expect(ran).toHaveLength(0)
  })

  it('S12: a guard denies after the whole pre-execute waterfall allowed', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    ctx.on('tools/pre-execute', async () => ({ action: 'allow', reason: 'fine by me' }))
    ctx.tools.guard((call) => (call.args.text === 'rm' ? 'no removing' : undefined))
    const out = await tools.execute(request('Echo', { text: 'rm' }))
    expect(out.result).toEqual({ content: 'Permission denied: no removing', isError: true, code: 'DENIED' })
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'guard', reason: 'no removing' })
    expect(ran).toHaveLength(0)
    expect((await tools.execute(request('Echo', { text: 'ls' }))).result.content).toBe('ls')
  })

  it('S1, S12: nothing registered later (an outer prepended allow, a later allow) revives a guard deny', async () => {
    const { ctx, tools, kernel } = setup()
    ctx.tools.register(echoTool())
    ctx.tools.guard(() => 'never')
    kernel.plugin({ name: 'late-allower', apply: (c) => void c.on('tools/pre-execute', async () => ({ action: 'allow' }), { prepend: true }) })
    kernel.plugin({ name: 'late-allower-2', apply: (c) => void c.on('tools/pre-execute', async () => ({ action: 'allow' })) })
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'guard' })
  })
})

describe('approval on ask (S11)', () => {
  function askingSetup() {
    const env = setup()
    const ran: unknown[] = []
    env.ctx.tools.register({
      name: 'Bash',
      description: 'runs',
      inputSchema: z.object({ command: z.string() }),
      sideEffects: true,
      execute: (args) => (ran.push(args), { content: `ran ${args.command}` })
    })
    env.ctx.on('tools/pre-execute', async () => ({ action: 'ask', reason: 'Bash can change files', by: 'policy' }))
    const events: SessionEventInput[] = []
    const record = (event: SessionEventInput) => void events.push(event)
    return { ...env, ran, events, record }
  }

  it('S11: ask with no answerer is an "unavailable" deny; the ask and the outcome are recorded', async () => {
    const { tools, ran, events, record } = askingSetup()
    const out = await tools.execute(request('Bash', { command: 'ls' }), { record })
    expect(ran).toHaveLength(0)
    expect(out.result).toMatchObject({ isError: true, code: 'DENIED' })
    expect(out.result.content).toMatch(/^Permission denied: approval was required \(Bash can change files\) but no approval answerer/)
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'approval', approval: 'unavailable' })
    expect(events.map((e) => e.type)).toEqual(['approval/asked', 'approval/decided'])
    expect(events[0]).toMatchObject({ turnId: 'turn-1', tool: 'Bash', args: { command: 'ls' }, token: out.call.token, scope: { description: 'Bash(ls:*)', rules: ['Bash(ls:*)'] } })
    expect(events[1]).toMatchObject({ outcome: 'unavailable', token: out.call.token })
  })

  it('S11: allowed-once runs the call and binds to the sealed arguments', async () => {
    const { ctx, tools, ran } = askingSetup()
    const asked: unknown[] = []
    ctx.on('approval/request', async (req) => (asked.push(req.args), { outcome: 'allowed-once', by: 'tester' }))
    const out = await tools.execute(request('Bash', { command: 'ls' }))
    expect(out.result.content).toBe('ran ls')
    expect(out.verdict).toMatchObject({ outcome: 'allowed', stage: 'approval', approval: 'allowed-once', by: 'tester' })
    expect(asked[0]).toBe(out.call.args)
    expect(ran[0]).toBe(out.call.args)
  })

  it('S11: an ask with no agent turn behind it is denied without asking; one nested in an agent call is asked', async () => {
    const { ctx, tools, ran } = askingSetup()
    const asked: string[] = []
    ctx.on('approval/request', async (req) => (asked.push(`${req.tool} ${String(req.args.command ?? '')}`.trim()), { outcome: 'allowed-once' }))
    const out = await tools.execute(request('Bash', { command: 'no turn' }, { turnId: undefined }))
    expect(out.result).toMatchObject({ isError: true, code: 'DENIED' })
    expect(out.result.content).toBe('Permission denied: approval was required (Bash can change files) but no agent turn is behind this call')
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'approval', approval: 'unavailable' })
    // A parent token that is not a running agent call does not count either.
    await tools.execute(request('Bash', { command: 'made-up parent' }, { turnId: undefined, parent: 'call_not-running' }))
    expect(asked).toEqual([])
    // Nested (without a turnId of its own) inside a call of an agent turn: asked.
    ctx.tools.register({
      name: 'Composite',
      description: 'calls Bash',
      inputSchema: z.object({}),
      execute: async (_args, exec) => {
        const inner = await tools.execute({ name: 'Bash', args: { command: 'nested' }, callId: 'n1', sessionId: exec.sessionId, cwd: exec.cwd, parent: exec.token })
        return { content: inner.result.content }
      }
    })
    const composite = await tools.execute(request('Composite', {}))
    expect(composite.result.content).toBe('ran nested')
    expect(asked).toEqual(['Composite', 'Bash nested'])
    expect(ran).toEqual([{ command: 'nested' }])
  })

  it('S11: a throwing answerer is a deny carrying the error, reported to the log', async () => {
    const { kernel, tools, ran, logs } = askingSetup()
    kernel.plugin({ name: 'broken-dialog', apply: (c) => void c.on('approval/request', async () => Promise.reject(new Error('dialog exploded'))) })
    const out = await tools.execute(request('Bash', { command: 'ls' }))
    expect(ran).toHaveLength(0)
    expect(out.result.code).toBe('DENIED')
    expect(out.result.content).toContain('dialog exploded')
    expect(out.verdict).toMatchObject({ approval: 'denied' })
    expect(logs.some((l) => l.plugin === 'broken-dialog' && l.message.includes('dialog exploded'))).toBe(true)
  })

  it('S11: the user note of a deny reaches the model', async () => {
    const { ctx, tools } = askingSetup()
    ctx.on('approval/request', async () => ({ outcome: 'denied', note: 'use git stash instead' }))
    const out = await tools.execute(request('Bash', { command: 'git reset --hard' }))
    expect(out.result.content).toBe('Permission denied: the user denied this call. The user said: use git stash instead')
  })

  it('S11: aborting the call while the user is asked cancels it (CANCELLED) and settles the request', async () => {
    const { ctx, kernel, tools, ran, events, record } = askingSetup()
    const controller = new AbortController()
    const settled: string[] = []
    ctx.on('approval/request', () => new Promise(() => controller.abort())) // never answers
    ctx.on('approval/settled', (_id, answer) => void settled.push(answer.outcome))
    const out = await tools.execute(request('Bash', { command: 'sleep 100' }, { signal: controller.signal }), { record })
    expect(ran).toHaveLength(0)
    expect(out.result.code).toBe('CANCELLED')
    expect(out.verdict).toMatchObject({ outcome: 'denied', stage: 'approval', approval: 'cancelled' })
    expect(settled).toEqual(['cancelled'])
    expect(events.at(-1)).toMatchObject({ type: 'approval/decided', outcome: 'cancelled' })
    expect(kernel.getService('approval')!.pending()).toEqual([])
  })

  it('S11: an allowed-session grant covers the calls its rule matches, in its session only, and revoking it asks again', async () => {
    const { ctx, kernel, tools, ran, events, record } = askingSetup()
    let asks = 0
    ctx.on('approval/request', async () => (asks++, { outcome: 'allowed-session' }))
    const first = await tools.execute(request('Bash', { command: 'git status' }), { record })
    expect(first.verdict.approval).toBe('allowed-session')
    const second = await tools.execute(request('Bash', { command: 'git status' }), { record })
    expect(asks).toBe(1)
    expect(second.verdict).toMatchObject({ outcome: 'allowed', stage: 'approval', approval: 'allowed-session' })
    await tools.execute(request('Bash', { command: 'git status --porcelain' }), { record })
    expect(asks).toBe(1)
    await tools.execute(request('Bash', { command: 'git push' }), { record })
    expect(asks).toBe(2)
    await tools.execute(request('Bash', { command: 'git status' }, { sessionId: 'other-session' }), { record })
    expect(asks).toBe(3)
    expect(ran).toHaveLength(5)

    const approval = kernel.getService('approval')!
    const grants = approval.grants('session-1')
    expect(grants.map((g) => g.description).sort()).toEqual(['Bash(git push:*)', 'Bash(git status:*)'])
    const grant = grants.find((g) => g.description === 'Bash(git status:*)')!
    expect(events.filter((e) => e.type === 'grant/added')).toHaveLength(3)
    expect(approval.revoke('session-1', grant.id, record)).toBe(true)
    expect(events.at(-1)).toEqual({ type: 'grant/revoked', grantId: grant.id })
    await tools.execute(request('Bash', { command: 'git status' }))
    expect(asks).toBe(4)
  })

  it('S11: tools/permission-request answers before the user is asked: allow runs the call, deny refuses it, ask goes on to the user', async () => {
    const { ctx, tools, ran } = askingSetup()
    const asks: string[] = []
    const seen: unknown[] = []
    ctx.on('approval/request', async (req) => (asks.push(String(req.args.command)), { outcome: 'allowed-once' }))
    ctx.on('tools/permission-request', async (ask, next) => {
      seen.push({ command: ask.call.args.command, reason: ask.reason, askedBy: ask.askedBy, suggestions: ask.suggestions })
      if (ask.call.args.command === 'ok') return { action: 'allow', by: 'hook:PermissionRequest' }
      if (ask.call.args.command === 'no') return { action: 'deny', by: 'hook:PermissionRequest', reason: 'not on Fridays' }
      return next()
    })
    const allowed = await tools.execute(request('Bash', { command: 'ok' }))
    expect(allowed.result.content).toBe('ran ok')
    expect(allowed.verdict).toMatchObject({ outcome: 'allowed', stage: 'approval', by: 'hook:PermissionRequest' })
    const refused = await tools.execute(request('Bash', { command: 'no' }))
    expect(refused.result).toMatchObject({ isError: true, code: 'DENIED', content: 'Permission denied: not on Fridays' })
    expect(refused.verdict).toMatchObject({ outcome: 'denied', stage: 'approval', by: 'hook:PermissionRequest', reason: 'not on Fridays' })
    await tools.execute(request('Bash', { command: 'undecided' }))
    expect(asks).toEqual(['undecided'])
    expect(ran).toHaveLength(2)
    expect(seen[0]).toEqual({ command: 'ok', reason: 'Bash can change files', askedBy: 'policy', suggestions: ['Bash(ok:*)'] })
  })

  it('S11, S18: an allow with updatedArgs runs the validated new input under the same token; invalid ones do not run, naming the field', async () => {
    const { ctx, tools, ran } = askingSetup()
    ctx.on('tools/permission-request', async (ask): Promise<PermissionRequestDecision> =>
      ask.call.args.command === 'bad'
        ? { action: 'allow', by: 'hook:PermissionRequest', updatedArgs: { cmd: 1 }, invalidText: 'PermissionRequest hook for Bash returned updatedInput that failed schema validation' }
        : { action: 'allow', by: 'hook:PermissionRequest', updatedArgs: { command: 'echo safer' } }
    )
    const seenByPost: unknown[] = []
    ctx.on('tools/post-execute', async (call, _result, _verdict, next) => (seenByPost.push([call.args, call.originalArgs, call.rewrittenBy]), next()))
    const out = await tools.execute(request('Bash', { command: 'rm -rf x' }))
    expect(out.result.content).toBe('ran echo safer')
    expect(ran).toEqual([{ command: 'echo safer' }])
    expect(seenByPost[0]).toEqual([{ command: 'echo safer' }, { command: 'rm -rf x' }, 'hook:PermissionRequest'])
    const bad = await tools.execute(request('Bash', { command: 'bad' }))
    expect(bad.result).toMatchObject({ isError: true, code: 'INVALID_ARGS' })
    expect(bad.result.content).toMatch(/^PermissionRequest hook for Bash returned updatedInput that failed schema validation: command:/)
    expect(ran).toHaveLength(1)
  })

  it('S2: a tools/permission-request answer outside the union is a listener failure, not an allow', async () => {
    const { ctx, tools, ran } = askingSetup()
    ctx.on('tools/permission-request', async () => ({ action: 'allow', by: 'x', updatedPermissions: [{ behavior: 'allow', rules: 'Bash', destination: 'session' }] }) as never)
    const out = await tools.execute(request('Bash', { command: 'ls' }))
    expect(out.result).toMatchObject({ isError: true, code: 'LISTENER_THREW' })
    expect(out.result.content).toMatch(/updatedPermissions\[0\]\.rules that is not a list of strings/)
    expect(ran).toHaveLength(0)
  })

  it('S11: updatedPermissions with destination session become a grant the next call runs under without asking', async () => {
    const { ctx, kernel, tools, ran, events, record } = askingSetup()
    let hooks = 0
    ctx.on('tools/permission-request', async (ask, next) =>
      ask.call.args.command === 'git status' ? (hooks++, { action: 'allow', by: 'hook', updatedPermissions: [{ behavior: 'allow', rules: ['Bash(git:*)'], destination: 'session' }] }) : next()
    )
    await tools.execute(request('Bash', { command: 'git status' }), { record })
    const next = await tools.execute(request('Bash', { command: 'git log' }), { record })
    expect(next.verdict).toMatchObject({ outcome: 'allowed', approval: 'allowed-session', reason: 'allowed for this session: Bash(git:*)' })
    expect(hooks).toBe(1)
    expect(ran).toHaveLength(2)
    expect(kernel.getService('approval')!.grants('session-1').map((g) => g.rules)).toEqual([['Bash(git:*)']])
    expect(events.filter((e) => e.type === 'grant/added')).toHaveLength(1)
  })

  it('S11: a tool unregistered while its approval was pending does not run', async () => {
    const { ctx, tools, ran } = askingSetup()
    const remove = ctx.tools.register(echoTool())
    ctx.on('approval/request', async () => (remove(), { outcome: 'allowed-once' }))
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(out.result.code).toBe('UNKNOWN_TOOL')
    expect(ran).toHaveLength(0)
  })
})

describe('execute wrappers (S13)', () => {
  it('S13: a wrapper may replace the signal the tool sees', async () => {
    const { ctx, tools } = setup()
    const signals: AbortSignal[] = []
    ctx.tools.register(echoTool([], { execute: (args, exec) => (signals.push(exec.signal), { content: args.text }) }))
    const replacement = new AbortController().signal
    const seenByWrapper: AbortSignal[] = []
    ctx.on('tools/execute', async (_call, control, next) => {
      seenByWrapper.push(control.signal)
      control.signal = replacement
      return next()
    })
    const original = new AbortController().signal
    await tools.execute(request('Echo', { text: 'x' }, { signal: original }))
    expect(seenByWrapper[0]).toBe(original)
    expect(signals[0]).toBe(replacement)
  })

  it('S13: a wrapper returning its own result short-circuits dispatch; a wrapper result that is not valid is normalized', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    let mode: 'cache' | 'bad' = 'cache'
    ctx.on('tools/execute', async () => (mode === 'cache' ? { content: 'from cache', isError: false } : ({ content: 1n } as never)))
    expect((await tools.execute(request('Echo', { text: 'x' }))).result).toEqual({ content: 'from cache', isError: false })
    mode = 'bad'
    const bad = await tools.execute(request('Echo', { text: 'x' }))
    expect(bad.result.code).toBe('INVALID_RESULT')
    expect(bad.result.content).toContain('content')
    expect(ran).toHaveLength(0)
  })

  it('S13, S16: a wrapper receives the already normalized result of a throwing tool', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool([], { execute: () => Promise.reject(new Error('disk on fire')) }))
    const inner: ToolResult[] = []
    ctx.on('tools/execute', async (_c, _x, next) => {
      const result = await next()
      inner.push(result)
      return result
    })
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(inner[0]).toEqual({ content: 'Tool "Echo" failed: disk on fire', isError: true, code: 'TOOL_THREW' })
    expect(out.result).toEqual(inner[0])
  })

  it('S16: a throwing wrapper becomes a LISTENER_THREW result', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    ctx.on('tools/execute', async () => {
      throw new Error('wrapper bug')
    })
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(out.result).toMatchObject({ isError: true, code: 'LISTENER_THREW' })
    expect(out.result.content).toContain('wrapper bug')
  })

  it('a call whose signal is already aborted is CANCELLED and never dispatched', async () => {
    const { ctx, tools } = setup()
    const ran: unknown[] = []
    ctx.tools.register(echoTool(ran))
    const controller = new AbortController()
    controller.abort()
    const out = await tools.execute(request('Echo', { text: 'x' }, { signal: controller.signal }))
    expect(out.result).toMatchObject({ isError: true, code: 'CANCELLED' })
    expect(out.verdict.outcome).toBe('allowed')
    expect(ran).toHaveLength(0)
  })
})

describe('normalization boundary (S16)', () => {
  const cyclic: Record<string, unknown> = { a: 1 }
  cyclic.self = cyclic
  it.each([
    ['a throw', () => { throw new Error('kaput') }, 'TOOL_THREW', 'kaput'],
    ['undefined', () => undefined, 'INVALID_RESULT', 'undefined'],
    ['a function', () => () => 1, 'INVALID_RESULT', 'a function'],
    ['a symbol', () => Symbol('s'), 'INVALID_RESULT', 'a symbol'],
    ['non-string content', () => ({ content: 42 }), 'INVALID_RESULT', 'content'],
    ['a BigInt beyond 2^53 in structured', () => ({ content: 'x', structured: { n: 2n ** 70n } }), 'INVALID_RESULT', 'structured.n'],
    ['a cycle in structured', () => ({ content: 'x', structured: cyclic }), 'INVALID_RESULT', 'structured.self: circular reference'],
    ['a function in structured', () => ({ content: 'x', structured: { f: () => 1 } }), 'INVALID_RESULT', 'structured.f'],
    ['a symbol in structured', () => ({ content: 'x', structured: [Symbol('s')] }), 'INVALID_RESULT', 'structured[0]'],
    ['undefined in an array', () => ({ content: 'x', structured: [1, undefined] }), 'INVALID_RESULT', 'structured[1]']
  ])('S16: a tool returning %s becomes an isError result (%s)', async (_label, body, code, mention) => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool([], { execute: body as never }))
    const post: ToolResult[] = []
    ctx.on('tools/post-execute', async (_c, result, _v, next) => (post.push(result), next()))
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(out.result).toMatchObject({ isError: true, code })
    expect(out.result.content).toContain(mention)
    expect(post[0]).toBe(out.result) // post-execute inspects the failed call too
    expect(JSON.parse(JSON.stringify(out.result))).toEqual(out.result)
  })

  it('S16: lossless conversions are kept: a safe BigInt, a Date, an undefined property, a bare string', async () => {
    const { ctx, tools } = setup()
    let body: () => unknown = () => ({ content: 'x', structured: { n: 12n, at: new Date(0), gone: undefined } })
    ctx.tools.register(echoTool([], { execute: () => body() as never }))
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(out.result).toEqual({ content: 'x', isError: false, structured: { n: 12, at: '1970-01-01T00:00:00.000Z' } })
    expect(Object.isFrozen(out.result.structured)).toBe(true)
    body = () => 'just text'
    expect((await tools.execute(request('Echo', { text: 'x' }))).result).toEqual({ content: 'just text', isError: false })
  })
})

describe('post-execute (S14), result (S15), additionalContext (S17)', () => {
  it('S14: block marks the result as an error and appends the feedback to the content', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    ctx.on('tools/post-execute', async () => ({ action: 'block', feedback: 'That output leaks a secret.' }))
    const out = await tools.execute(request('Echo', { text: 'token=abc' }))
    expect(out.result).toEqual({ content: 'token=abc\n\nThat output leaks a secret.', isError: true, code: 'BLOCKED' })
  })

  it('S14: content replaces what the model sees; block with content replaces before the feedback', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    let block = false
    ctx.on('tools/post-execute', async () => (block ? { action: 'block', feedback: 'fb', content: 'redacted' } : { action: 'accept', content: 'redacted' }))
    expect((await tools.execute(request('Echo', { text: 'secret' }))).result).toEqual({ content: 'redacted', isError: false })
    block = true
    expect((await tools.execute(request('Echo', { text: 'secret' }))).result).toEqual({ content: 'redacted\n\nfb', isError: true, code: 'BLOCKED' })
  })

  it('S14: mutating the result in place changes nothing; a listener whose mutation throws fails closed', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool([], { execute: (args) => ({ content: args.text, structured: { list: [1] } }) }))
    let assign = false
    ctx.on('tools/post-execute', async (_c, result, _v, next) => {
      Reflect.set(result, 'content', 'mutated')
      Reflect.set(result, 'isError', true)
      Reflect.set((result.structured as { list: number[] }).list, 0, 99)
      if (assign) (result as { content: string }).content = 'mutated'
      return next()
    })
    const out = await tools.execute(request('Echo', { text: 'original' }))
    expect(out.result).toEqual({ content: 'original', isError: false, structured: { list: [1] } })
    assign = true
    const failed = await tools.execute(request('Echo', { text: 'original' }))
    expect(failed.result).toMatchObject({ isError: true, code: 'LISTENER_THREW' })
    expect(failed.result.content).not.toContain('original')
  })

  it('S2, S14: a post-execute listener returning a malformed decision is a listener failure', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    ctx.on('tools/post-execute', async () => ({ action: 'accept', additionalContext: 'not a list' }) as never)
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(out.result.code).toBe('LISTENER_THREW')
    expect(out.result.content).toContain('additionalContext')
  })

  it('S15: a throwing result observer is isolated: execute() resolves with the same result and the error is logged', async () => {
    const { ctx, tools, kernel, logs } = setup()
    ctx.tools.register(echoTool())
    const snapshots: ToolResult[] = []
    kernel.plugin({
      name: 'bad-observer',
      apply: (c) =>
        void c.on('tools/result', (_call, result) => {
          Reflect.set(result, 'content', 'changed')
          throw new Error('observer broke')
        })
    })
    kernel.plugin({ name: 'async-bad-observer', apply: (c) => void c.on('tools/result', async () => Promise.reject(new Error('async observer broke'))) })
    ctx.on('tools/result', (_call, result) => void snapshots.push(result))
    const out = await tools.execute(request('Echo', { text: 'fine' }))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(out.result).toEqual({ content: 'fine', isError: false })
    expect(snapshots[0]).toEqual(out.result)
    expect(Object.isFrozen(snapshots[0])).toBe(true)
    expect(logs.some((l) => l.plugin === 'bad-observer' && l.message.includes('observer broke'))).toBe(true)
    expect(logs.some((l) => l.plugin === 'async-bad-observer' && l.message.includes('async observer broke'))).toBe(true)
  })

  it('S17: additionalContext from post-execute is exposed on the result, separate from the content', async () => {
    const { ctx, tools } = setup()
    ctx.tools.register(echoTool())
    ctx.on('tools/post-execute', async (_c, _r, _v, next) => {
      const inner = await next()
      return { ...inner, additionalContext: ['outer note'] }
    })
    ctx.on('tools/post-execute', async () => ({ action: 'accept', additionalContext: ['lint: 2 warnings'] }))
    const out = await tools.execute(request('Echo', { text: 'x' }))
    expect(out.additionalContext).toEqual(['outer note'])
    expect(out.result.content).toBe('x')
    const plain = await tools.execute(request('Echo', { text: 'x' }))
    expect(plain.additionalContext).toEqual(['outer note'])
  })
})
