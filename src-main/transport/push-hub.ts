// Fan-out of host pushes to every connected UI. Each payload is checked against its push schema
// before it leaves the Host: an invalid payload is a host bug, logged and not sent.
import { Pushes, type PushName, type PushPayload } from '../../src-shared/contract/ipc'
import { formatZodError } from '../../src-shared/validation'

export interface PushMessage {
  push: PushName
  payload: unknown
}

export type PushSubscriber = (message: PushMessage) => void
export type TransportLog = (message: string, error?: unknown) => void

const defaultLog: TransportLog = (message, error) => {
  if (error === undefined) console.error(`[seam] ${message}`)
  else console.error(`[seam] ${message}`, error)
}

export class PushHub {
  private readonly subscribers = new Set<PushSubscriber>()

  constructor(private readonly log: TransportLog = defaultLog) {}

  get subscriberCount(): number {
    return this.subscribers.size
  }

  /** Validates and delivers one push; returns false when the payload failed its schema. */
  publish<P extends PushName>(push: P, payload: PushPayload<P>): boolean {
    const schema = Object.hasOwn(Pushes, push) ? Pushes[push] : undefined
    if (!schema) {
      this.log(`push '${String(push)}' is not in the contract; not sent`)
      return false
    }
    const parsed = schema.safeParse(payload)
    if (!parsed.success) {
      this.log(`${formatZodError(`push '${push}' payload`, parsed.error)}; not sent`)
      return false
    }
    const message: PushMessage = { push, payload: parsed.data }
    for (const subscriber of [...this.subscribers]) {
      try {
        subscriber(message)
      } catch (error) {
        this.log(`push subscriber failed on '${push}'`, error)
      }
    }
    return true
  }

  subscribe(subscriber: PushSubscriber): () => void {
    this.subscribers.add(subscriber)
    return () => {
      this.subscribers.delete(subscriber)
    }
  }
}
