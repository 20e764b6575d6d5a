// Builders for session events in tests: `seq` and `ts` are filled in order.
import type { SessionEvent } from '../../src-shared/session/events'

type Without<T> = T extends unknown ? Omit<T, 'seq' | 'ts'> : never
export type EventInput = Without<SessionEvent>

export function eventLog(start = 1): { add(event: EventInput): SessionEvent; all: SessionEvent[] } {
  let seq = start
  const all: SessionEvent[] = []
  return {
    all,
    add(event) {
      const full = { ...event, seq: seq, ts: 1_700_000_000_000 + seq * 10 } as SessionEvent
      seq++
      all.push(full)
      return full
    }
  }
}

export const verdictAllowed = { outcome: 'allowed', stage: 'pre-execute' } as const
