// The approval seam on its own (S11): answerers, settle from outside, aborts, scopes and grants.
import { describe, expect, it } from 'vitest'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { ApprovalAnswer, JsonObject } from '../../src-shared/host/tools'
import { Kernel, type LogRecord } from '../../src-shared/kernel'
import { ApprovalServiceImpl } from './index'

function setup() {
  const kernel = new Kernel()
  const logs: LogRecord[] = []
  kernel.onLog((r) => logs.push(r))
  const approval = new ApprovalServiceImpl(kernel)
  const events: SessionEventInput[] = []
  const record = (e: SessionEventInput) => void events.push(e)
  const ask = (args: JsonObject = { command: 'ls' }, signal = new AbortController().signal, tool = 'Bash') =>
    approval.request({ sessionId: 's1', tool, args, token: 'tok', reason: 'why', signal }, record)
  return { kernel, approval, events, ask, logs }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('approval service', () => {
  it('S11: the first defined answer wins; answerers that abstain (undefined) are skipped', async () => {
    const { kernel, ask } = setup()
    const seen: string[] = []
    kernel.plugin({ name: 'abstains', apply: (c) => void c.on('approval/request', async () => void seen.push('abstains')) })
    kernel.plugin({ name: 'dialog', apply: (c) => void c.on('approval/request', async () => (seen.push('dialog'), { outcome: 'allowed-once' })) })
    kernel.plugin({ name: 'never-asked', apply: (c) => void c.on('approval/request', async () => (seen.push('never'), { outcome: 'denied' })) })
    expect(await ask()).toEqual({ outcome: 'allowed-once', by: 'dialog' })
    expect(seen).toEqual(['abstains', 'dialog'])
  })

  it('S11: settle() resolves a pending request (an answer over IPC); pending() lists it until then', async () => {
    const { kernel, approval, ask, events } = setup()
    const settledEvents: Array<[string, ApprovalAnswer]> = []
    kernel.context.on('approval/request', () => new Promise(() => {}))
    kernel.context.on('approval/settled', (id, answer) => void settledEvents.push([id, answer]))
    const answer = ask()
    await tick()
    const [pending] = approval.pending()
    expect(pending).toMatchObject({ tool: 'Bash', args: { command: 'ls' }, reason: 'why', scope: { description: 'Bash commands exactly "ls"' } })
    expect(approval.settle('no-such-request', { outcome: 'denied' })).toBe(false)
    expect(() => approval.settle(pending.id, { outcome: 'maybe' } as never)).toThrow(/outcome/)
    expect(approval.settle(pending.id, { outcome: 'denied', note: 'not now', by: 'desktop' })).toBe(true)
    expect(await answer).toEqual({ outcome: 'denied', note: 'not now', by: 'desktop' })
    expect(approval.pending()).toEqual([])
    expect(approval.settle(pending.id, { outcome: 'allowed-once' })).toBe(false)
    expect(settledEvents).toEqual([[pending.id, { outcome: 'denied', note: 'not now', by: 'desktop' }]])
    expect(events).toEqual([
      { type: 'approval/asked', requestId: pending.id, token: 'tok', tool: 'Bash', args: { command: 'ls' }, reason: 'why', scope: { tool: 'Bash', pattern: { command: 'ls' }, description: 'Bash commands exactly "ls"' } },
      { type: 'approval/decided', requestId: pending.id, token: 'tok', outcome: 'denied', note: 'not now', by: 'desktop' }
    ])
  })

  it('S11: an already aborted signal is cancelled without asking anyone', async () => {
    const { kernel, ask } = setup()
    let asked = false
    kernel.context.on('approval/request', async () => ((asked = true), { outcome: 'allowed-once' }))
    const controller = new AbortController()
    controller.abort()
    expect((await ask({ command: 'ls' }, controller.signal)).outcome).toBe('cancelled')
    expect(asked).toBe(false)
  })

  it('S11: an answer that is not an ApprovalAnswer is a deny naming the field and the answerer', async () => {
    const { kernel, ask, logs } = setup()
    kernel.plugin({ name: 'sloppy', apply: (c) => void c.on('approval/request', async () => ({ outcome: 'yes' }) as never) })
    const answer = await ask()
    expect(answer.outcome).toBe('denied')
    expect(answer.reason).toMatch(/"sloppy" returned an invalid answer: outcome:/)
    expect(logs.some((l) => l.plugin === 'sloppy')).toBe(true)
  })

  it('S11: grants are scoped exactly to what the dialog showed (a trailing * in a command is literal)', async () => {
    const { kernel, approval, ask } = setup()
    kernel.context.on('approval/request', async () => ({ outcome: 'allowed-session' }))
    await ask({ command: 'ls *' })
    expect(approval.matchGrant('s1', 'Bash', { command: 'ls *' })).toBeDefined()
    expect(approval.matchGrant('s1', 'Bash', { command: 'ls /etc' })).toBeUndefined()
    expect(approval.matchGrant('s1', 'Bash', { command: 'ls *', timeout: 5 })).toBeDefined()
    expect(approval.matchGrant('s2', 'Bash', { command: 'ls *' })).toBeUndefined()

    await ask({ file_path: '/w/a.ts', old_string: 'x', new_string: 'y' }, undefined, 'Edit')
    expect(approval.matchGrant('s1', 'Edit', { file_path: '/w/a.ts', old_string: 'p', new_string: 'q' })).toBeDefined()
    expect(approval.matchGrant('s1', 'Edit', { file_path: '/w/b.ts', old_string: 'x', new_string: 'y' })).toBeUndefined()
    expect(approval.matchGrant('s1', 'Write', { file_path: '/w/a.ts', content: '' })).toBeUndefined()

    await ask({ url: 'https://example.com', n: 5 }, undefined, 'WebFetch')
    expect(approval.matchGrant('s1', 'WebFetch', { n: 5, url: 'https://example.com' })).toBeDefined()
    expect(approval.matchGrant('s1', 'WebFetch', { url: 'https://example.com', n: '5' })).toBeUndefined()
    expect(approval.matchGrant('s1', 'WebFetch', { url: 'https://example.com' })).toBeUndefined()
    expect(approval.grants('s1').map((g) => g.description)).toEqual([
      'Bash commands exactly "ls *"',
      'Edit on the file exactly "/w/a.ts"',
      'WebFetch calls with exactly {"n":5,"url":"https://example.com"}'
    ])
    approval.forgetSession('s1')
    expect(approval.grants('s1')).toEqual([])
  })

  it('S11: a scope supplied by the caller follows GrantScope patterns (exact or trailing-* prefix)', async () => {
    const { kernel, approval } = setup()
    kernel.context.on('approval/request', async () => ({ outcome: 'allowed-session' }))
    await approval.request({
      sessionId: 's1',
      tool: 'Bash',
      args: { command: 'git status' },
      token: 't',
      reason: 'r',
      signal: new AbortController().signal,
      scope: { tool: 'Bash', pattern: { command: 'git *' }, description: 'git commands' }
    })
    expect(approval.matchGrant('s1', 'Bash', { command: 'git log' })).toMatchObject({ description: 'git commands' })
    expect(approval.matchGrant('s1', 'Bash', { command: 'rm -rf /' })).toBeUndefined()
  })

  it('revoke() removes a grant, records grant/revoked and reports unknown ids', async () => {
    const { kernel, approval, ask, events } = setup()
    kernel.context.on('approval/request', async () => ({ outcome: 'allowed-session' }))
    await ask()
    const [grant] = approval.grants('s1')
    expect(events.at(-1)).toEqual({ type: 'grant/added', grantId: grant.id, scope: { tool: 'Bash', pattern: { command: 'ls' }, description: 'Bash commands exactly "ls"' } })
    const record = (e: SessionEventInput) => void events.push(e)
    expect(approval.revoke('s1', grant.id, record)).toBe(true)
    expect(approval.revoke('s1', grant.id, record)).toBe(false)
    expect(events.at(-1)).toEqual({ type: 'grant/revoked', grantId: grant.id })
    expect(approval.matchGrant('s1', 'Bash', { command: 'ls' })).toBeUndefined()
  })
})
