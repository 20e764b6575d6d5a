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
    approval.request({ sessionId: 's1', tool, args, token: 'tok', reason: 'why', signal, cwd: '/w' }, record)
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
    expect(pending).toMatchObject({ tool: 'Bash', args: { command: 'ls' }, reason: 'why', scope: { description: 'Bash(ls:*)', rules: ['Bash(ls:*)'] } })
    expect(approval.settle('no-such-request', { outcome: 'denied' })).toBe(false)
    expect(() => approval.settle(pending.id, { outcome: 'maybe' } as never)).toThrow(/outcome/)
    expect(approval.settle(pending.id, { outcome: 'denied', note: 'not now', by: 'desktop' })).toBe(true)
    expect(await answer).toEqual({ outcome: 'denied', note: 'not now', by: 'desktop' })
    expect(approval.pending()).toEqual([])
    expect(approval.settle(pending.id, { outcome: 'allowed-once' })).toBe(false)
    expect(settledEvents).toEqual([[pending.id, { outcome: 'denied', note: 'not now', by: 'desktop' }]])
    expect(events).toEqual([
      { type: 'approval/asked', requestId: pending.id, token: 'tok', tool: 'Bash', args: { command: 'ls' }, reason: 'why', scope: { tool: 'Bash', pattern: {}, description: 'Bash(ls:*)', rules: ['Bash(ls:*)'] } },
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

  it('S11: "allow for this session" grants the Claude Code rules the dialog showed; a later call one of them matches is covered', async () => {
    const { kernel, approval, ask } = setup()
    kernel.context.on('approval/request', async () => ({ outcome: 'allowed-session' }))
    await ask({ command: 'npm test -- --watch' })
    expect(approval.matchGrant('s1', 'Bash', { command: 'npm test' }, '/w')).toBeDefined()
    expect(approval.matchGrant('s1', 'Bash', { command: 'npm test --coverage' }, '/w')).toBeDefined()
    expect(approval.matchGrant('s1', 'Bash', { command: 'npm testing' }, '/w')).toBeUndefined()
    expect(approval.matchGrant('s1', 'Bash', { command: 'npm publish' }, '/w')).toBeUndefined()
    expect(approval.matchGrant('s2', 'Bash', { command: 'npm test' }, '/w')).toBeUndefined()

    await ask({ file_path: '/w/src/a.ts', old_string: 'x', new_string: 'y' }, undefined, 'Edit')
    // Edit rules cover every editor, as in Claude Code; the folder, not just the file.
    expect(approval.matchGrant('s1', 'Write', { file_path: '/w/src/deep/b.ts', content: '' }, '/w')).toBeDefined()
    expect(approval.matchGrant('s1', 'Edit', { file_path: '/w/lib/a.ts', old_string: 'x', new_string: 'y' }, '/w')).toBeUndefined()

    await ask({ url: 'https://docs.example.com/a', prompt: 'p' }, undefined, 'WebFetch')
    expect(approval.matchGrant('s1', 'WebFetch', { url: 'https://docs.example.com/other', prompt: 'q' }, '/w')).toBeDefined()
    expect(approval.matchGrant('s1', 'WebFetch', { url: 'https://example.org/', prompt: 'q' }, '/w')).toBeUndefined()
    expect(approval.grants('s1').map((g) => [g.description, g.rules])).toEqual([
      ['Bash(npm test:*)', ['Bash(npm test:*)']],
      // No workspace service here: folders are absolute.
      ['Edit(//w/src/**)', ['Edit(//w/src/**)']],
      ['WebFetch(domain:docs.example.com)', ['WebFetch(domain:docs.example.com)']]
    ])
    // A line the shell parser cannot read has no rule: the grant is that exact command, as before.
    await ask({ command: 'eval "$X"' })
    expect(approval.grants('s1').at(-1)).toMatchObject({ description: 'Bash commands exactly "eval \\"$X\\""', pattern: { command: 'eval "$X"' } })
    expect(approval.grants('s1').at(-1)?.rules).toBeUndefined()
    expect(approval.matchGrant('s1', 'Bash', { command: 'eval "$X"' }, '/w')).toBeDefined()
    expect(approval.matchGrant('s1', 'Bash', { command: 'eval "$Y"' }, '/w')).toBeUndefined()
    approval.forgetSession('s1')
    expect(approval.grants('s1')).toEqual([])
  })

  it('S11: "always allow" grants the rules for the session and saves them to the local settings (or the user\'s Seam rules)', async () => {
    const { kernel, approval, ask, events } = setup()
    const saved: unknown[] = []
    kernel.context.provide('claudeSettings', {
      addRules: (destination: string, behavior: string, rules: readonly string[]) => (saved.push([destination, behavior, rules]), { file: `/${destination}.json`, added: [...rules] })
    } as never)
    const answers: ApprovalAnswer[] = [{ outcome: 'allowed-always' }, { outcome: 'allowed-always', saveTo: 'user' }]
    kernel.context.on('approval/request', async () => answers.shift())
    await ask({ command: 'git status' })
    await ask({ command: 'make' })
    expect(saved).toEqual([
      ['localSettings', 'allow', ['Bash(git status:*)']],
      ['userSeam', 'allow', ['Bash(make:*)']]
    ])
    expect(approval.matchGrant('s1', 'Bash', { command: 'git status -s' }, '/w')).toBeDefined()
    expect(events.filter((e) => e.type === 'notice').map((e) => (e as { text: string }).text)).toEqual([
      'Saved to /localSettings.json: permissions.allow Bash(git status:*)',
      'Saved to /userSeam.json: permissions.allow Bash(make:*)'
    ])
  })

  it('S11: a rule that cannot be saved is a notice naming why; the session grant stays', async () => {
    const { kernel, approval, ask, events } = setup()
    kernel.context.provide('claudeSettings', {
      addRules: () => {
        throw new Error('/w/.claude/settings.local.json is not valid JSON (Unexpected end); Seam will not overwrite it')
      }
    } as never)
    kernel.context.on('approval/request', async () => ({ outcome: 'allowed-always' }))
    expect((await ask({ command: 'git status' })).outcome).toBe('allowed-always')
    expect(events.at(-1)).toMatchObject({ type: 'notice', level: 'error', text: expect.stringMatching(/^Could not save Bash\(git status:\*\): .*not valid JSON.*will not overwrite it$/) })
    expect(approval.matchGrant('s1', 'Bash', { command: 'git status' }, '/w')).toBeDefined()
  })

  it('grants come back from the session log on resume: added and not revoked, old exact scopes too', () => {
    const { approval } = setup()
    const base = { v: 1 as const, seq: 0, ts: 5 }
    approval.restoreGrants('s1', [
      { ...base, type: 'grant/added', grantId: 'g1', scope: { tool: 'Bash', pattern: {}, description: 'Bash(npm test:*)', rules: ['Bash(npm test:*)'] } },
      { ...base, type: 'grant/added', grantId: 'g2', scope: { tool: 'Bash', pattern: { command: 'ls' }, description: 'Bash commands exactly "ls"' } },
      { ...base, type: 'grant/added', grantId: 'g3', scope: { tool: 'Read', pattern: {}, description: 'Read(//etc/**)', rules: ['Read(//etc/**)'] } },
      { ...base, type: 'grant/revoked', grantId: 'g3' }
    ] as never)
    expect(approval.grants('s1').map((g) => g.id)).toEqual(['g1', 'g2'])
    expect(approval.matchGrant('s1', 'Bash', { command: 'npm test -w' })).toMatchObject({ id: 'g1' })
    expect(approval.matchGrant('s1', 'Bash', { command: 'ls' })).toMatchObject({ id: 'g2' })
    expect(approval.matchGrant('s1', 'Read', { file_path: '/etc/hosts' })).toBeUndefined()
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
    expect(events.at(-1)).toEqual({ type: 'grant/added', grantId: grant.id, scope: { tool: 'Bash', pattern: {}, description: 'Bash(ls:*)', rules: ['Bash(ls:*)'] } })
    const record = (e: SessionEventInput) => void events.push(e)
    expect(approval.revoke('s1', grant.id, record)).toBe(true)
    expect(approval.revoke('s1', grant.id, record)).toBe(false)
    expect(events.at(-1)).toEqual({ type: 'grant/revoked', grantId: grant.id })
    expect(approval.matchGrant('s1', 'Bash', { command: 'ls' })).toBeUndefined()
  })
})
