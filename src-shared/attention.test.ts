// The decision behind desktop notifications (issue "Working fast": notify when Seam needs the
// user and its window is not focused: an approval waiting, a turn finished or failed).
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from './session/events'
import { AttentionGate, attentionFor, sessionLabel, type AttentionNotice } from './attention'

const asked: SessionEvent = {
  type: 'approval/asked', seq: 5, ts: 1, turnId: 'turn-1', requestId: 'req-1', token: 't', tool: 'Bash', args: { command: 'rm -rf build' },
  reason: 'Bash runs commands', scope: { tool: 'Bash', pattern: {}, description: 'Bash' }
}
const end = (reason: 'completed' | 'error' | 'cancelled' | 'rejected' | 'max_steps', turnId = 'turn-1'): SessionEvent => ({
  type: 'turn/end', seq: 9, ts: 2, turnId, reason, ...(reason === 'error' ? { error: 'auth: 401 invalid key' } : {})
})

function gate(state: { enabled: boolean; focused: boolean }) {
  const shown: AttentionNotice[] = []
  const g = new AttentionGate({ enabled: () => state.enabled, focused: () => state.focused, show: (n) => shown.push(n) })
  return { g, shown }
}

describe('attentionFor: which moments need the user', () => {
  it('an approval a subagent asks names it; a subagent\'s own turn end needs nobody (issue 27)', () => {
    const fromChild = { ...asked, agent: { agentId: 'a1', agentType: 'Explore', description: 'Find the config' } } as SessionEvent
    expect(attentionFor('s1', fromChild)).toMatchObject({
      title: 'Seam needs your approval: Bash (from the Explore subagent ("Find the config"))',
      body: 'Asked by the Explore subagent ("Find the config"): Bash runs commands'
    })
    const { g, shown } = gate({ enabled: true, focused: false })
    expect(g.subagentEvent('s1', end('completed'))).toBe(false)
    expect(g.subagentEvent('s1', fromChild)).toBe(true)
    expect(shown.map((n) => n.kind)).toEqual(['approval'])
  })

  it('an approval waiting, a finished turn (also at the step limit) and a failed turn; not a cancelled turn or a blocked prompt', () => {
    expect(attentionFor('s1', asked)).toEqual({ key: 'approval:req-1', kind: 'approval', sessionId: 's1', title: 'Seam needs your approval: Bash', body: 'Bash runs commands' })
    expect(attentionFor('s1', end('completed'))).toMatchObject({ kind: 'turn-finished', title: 'Seam finished', key: 'turn:s1:turn-1' })
    expect(attentionFor('s1', end('max_steps'))).toMatchObject({ kind: 'turn-finished', body: 'The turn stopped at the step limit.' })
    expect(attentionFor('s1', end('error'))).toMatchObject({ kind: 'turn-failed', body: 'auth: 401 invalid key' })
    expect(attentionFor('s1', end('cancelled'))).toBeUndefined()
    expect(attentionFor('s1', end('rejected'))).toBeUndefined()
    expect(attentionFor('s1', { type: 'notice', seq: 1, ts: 1, level: 'info', text: 'x', source: 'y' })).toBeUndefined()
  })
})

describe('AttentionGate', () => {
  it('shows a moment only while the window is not focused', () => {
    const state = { enabled: true, focused: true }
    const { g, shown } = gate(state)
    expect(g.event('s1', asked)).toBe(false)
    state.focused = false
    expect(g.event('s1', end('completed'))).toBe(true)
    expect(shown.map((n) => n.kind)).toEqual(['turn-finished'])
  })

  it('never spams: one notification per moment, and a moment seen while focused is not replayed later', () => {
    const state = { enabled: true, focused: false }
    const { g, shown } = gate(state)
    g.event('s1', asked)
    g.event('s1', asked)
    state.focused = true
    g.event('s1', end('completed', 'turn-2'))
    state.focused = false
    g.event('s1', end('completed', 'turn-2'))
    g.event('s2', end('completed', 'turn-2'))
    expect(shown.map((n) => n.key)).toEqual(['approval:req-1', 'turn:s2:turn-2'])
  })

  it('shows nothing when turned off in the settings', () => {
    const { g, shown } = gate({ enabled: false, focused: false })
    g.event('s1', asked)
    g.event('s1', end('error'))
    expect(shown).toEqual([])
  })
})

describe('naming the session (issue 32: several sessions at once)', () => {
  it('a notice says which session asks: its title, and a worktree session\'s branch', () => {
    const shown: AttentionNotice[] = []
    const names: Record<string, string> = { s1: sessionLabel('s1', 'Fix the parser', 'seam/parser'), s2: sessionLabel('s2', '') }
    const g = new AttentionGate({ enabled: () => true, focused: () => false, show: (n) => shown.push(n), sessionName: (id) => names[id] })
    g.event('s1', asked)
    g.event('s2', end('completed', 'turn-2'))
    expect(shown.map((n) => [n.title, n.body])).toEqual([
      ['Seam needs your approval: Bash', '"Fix the parser" on seam/parser: Bash runs commands'],
      ['Seam finished', 'session s2: The turn is done: your reply is waiting.']
    ])
  })
})
