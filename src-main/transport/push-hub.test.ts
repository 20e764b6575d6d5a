import { describe, expect, it } from 'vitest'
import { ConnectionTracker } from './connections'
import { PushHub, type PushMessage } from './push-hub'

describe('PushHub', () => {
  it('delivers a valid payload to every subscriber, isolated from one that throws', () => {
    const logged: string[] = []
    const hub = new PushHub((message) => logged.push(message))
    const seen: PushMessage[] = []
    hub.subscribe(() => {
      throw new Error('bad subscriber')
    })
    hub.subscribe((message) => seen.push(message))
    expect(hub.publish('approval/settled', { requestId: 'r', outcome: 'denied' })).toBe(true)
    expect(seen).toEqual([{ push: 'approval/settled', payload: { requestId: 'r', outcome: 'denied' } }])
    expect(logged.join('\n')).toContain('approval/settled')
  })

  it('logs and drops a payload that breaks its schema, naming the field', () => {
    const logged: string[] = []
    const hub = new PushHub((message) => logged.push(message))
    const seen: PushMessage[] = []
    hub.subscribe((message) => seen.push(message))
    expect(hub.publish('agent/state', { sessionId: 's', running: 'yes' } as never)).toBe(false)
    expect(hub.publish('no/such' as never, {} as never)).toBe(false)
    expect(seen).toEqual([])
    expect(logged[0]).toContain('running')
    expect(logged[1]).toContain('no/such')
  })

  it('strips fields the contract does not carry', () => {
    const hub = new PushHub(() => {})
    const seen: PushMessage[] = []
    hub.subscribe((message) => seen.push(message))
    hub.publish('sessions/changed', { secret: 'x' } as never)
    expect(seen[0]!.payload).toEqual({})
  })

  it('stops delivering after unsubscribe', () => {
    const hub = new PushHub(() => {})
    const seen: PushMessage[] = []
    const off = hub.subscribe((message) => seen.push(message))
    off()
    hub.publish('sessions/changed', {})
    expect(seen).toEqual([])
    expect(hub.subscriberCount).toBe(0)
  })
})

describe('ConnectionTracker', () => {
  it('counts acquisitions, releases each once, and reports changes', () => {
    const tracker = new ConnectionTracker()
    const changes: number[] = []
    const off = tracker.onChange((count) => changes.push(count))
    const a = tracker.acquire()
    const b = tracker.acquire()
    a()
    a()
    expect(tracker.count).toBe(1)
    off()
    b()
    expect(tracker.count).toBe(0)
    expect(changes).toEqual([1, 2, 1])
  })
})
