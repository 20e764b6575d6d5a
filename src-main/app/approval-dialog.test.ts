// The desktop approval answerer: asks become dialogs in every connected UI, settle when answered,
// cancelled or when the last UI goes away, and leave nothing behind on the turn's signal.
import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { definePlugin, Kernel } from '../../src-shared/kernel'
import type { ApprovalAnswer, ApprovalRequest } from '../../src-shared/host/tools'
import { ConnectionTracker } from '../transport/connections'
import { PushHub } from '../transport/router'
import { ApprovalDialogs } from './approval-dialog'

function setup() {
  const pushes = new PushHub()
  const seen: Array<{ push: string; payload: unknown }> = []
  pushes.subscribe((message) => seen.push(message))
  const connections = new ConnectionTracker()
  const dialogs = new ApprovalDialogs((push, payload) => pushes.publish(push, payload), connections)
  const kernel = new Kernel()
  kernel.plugin(dialogs.plugin)
  const ask = (request: ApprovalRequest) => kernel.serial('approval/request', request) as Promise<ApprovalAnswer>
  return { seen, connections, dialogs, kernel, ask }
}

let next = 0
function request(signal: AbortSignal, sessionId = 's1'): ApprovalRequest {
  next += 1
  return {
    id: `approval_${next}`,
    sessionId,
    tool: 'Bash',
    args: { command: 'touch x' },
    token: `tok${next}`,
    reason: 'runs a command',
    scope: { tool: 'Bash', pattern: { command: 'touch x' }, description: 'Bash touch x' },
    signal
  } as ApprovalRequest
}

async function settled(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setImmediate(r))
}

describe('ApprovalDialogs', () => {
  it('answered asks leave no listener on the turn\'s signal', async () => {
    const { connections, dialogs, ask, kernel } = setup()
    connections.acquire()
    const turn = new AbortController()
    for (let i = 0; i < 12; i++) {
      const answer = ask(request(turn.signal))
      await settled(() => dialogs.pending().length === 1)
      const [pending] = dialogs.pending()
      expect(dialogs.answer(pending!.id, { outcome: 'allowed-once', by: 'desktop' })).toBe(true)
      expect(await answer).toMatchObject({ outcome: 'allowed-once' })
    }
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0)
    kernel.dispose()
  })

  it('a window that goes away (closed, reloaded) settles its open dialogs as unavailable, even with another window open', async () => {
    const { connections, dialogs, ask, seen, kernel } = setup()
    const first = connections.acquire()
    connections.acquire()
    const answer = ask(request(new AbortController().signal))
    await settled(() => dialogs.pending().length === 1)
    // A reload: the new page may connect before the old one's close arrives.
    connections.acquire()
    first()
    expect(await answer).toMatchObject({ outcome: 'unavailable', note: expect.stringMatching(/closed or reloaded/) })
    expect(dialogs.pending()).toEqual([])
    expect(seen.map((m) => m.push)).toEqual(['approval/requested', 'approval/settled'])
    kernel.dispose()
  })

  it('a cancelled turn settles its dialog as cancelled', async () => {
    const { connections, dialogs, ask, kernel } = setup()
    connections.acquire()
    const turn = new AbortController()
    const answer = ask(request(turn.signal))
    await settled(() => dialogs.pending().length === 1)
    turn.abort()
    expect(await answer).toMatchObject({ outcome: 'cancelled' })
    expect(dialogs.pending()).toEqual([])
    kernel.dispose()
  })

  it('marks a dangerous call with its risks, judged against the workspace root (writes outside it, rm -rf)', async () => {
    const { connections, dialogs, ask, kernel } = setup()
    kernel.plugin(
      definePlugin({
        name: 'workspace-stub',
        apply: (ctx) => {
          ctx.provide('workspace', { root: '/w/proj', trusted: true, seamHome: '/h', contributeTrustItems: () => () => {}, isApproved: () => true, itemsChanged: () => {}, approveItems: () => {} })
        }
      })
    )
    connections.acquire()
    const turn = new AbortController()
    const risky = { ...request(turn.signal), args: { command: 'rm -rf build && echo x > /etc/y' }, cwd: '/w/proj' }
    const answer = ask(risky)
    await settled(() => dialogs.pending().length === 1)
    expect(dialogs.pending()[0]!.risks?.map((r) => r.kind).sort()).toEqual(['outside-workspace', 'recursive-delete'])
    dialogs.answer(risky.id, { outcome: 'denied' })
    await answer
    const plain = ask({ ...request(turn.signal), cwd: '/w/proj' })
    await settled(() => dialogs.pending().length === 1)
    expect(dialogs.pending()[0]!.risks).toBeUndefined()
    dialogs.answer(dialogs.pending()[0]!.id, { outcome: 'denied' })
    await plain
    kernel.dispose()
  })
})
