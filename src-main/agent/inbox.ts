// Messages waiting for the loop. Two channels:
// - the queue: prompts that open the next turn (each passes agent/prompt-submit, S5);
// - steering: input for the running turn, drained at the top of its next step. It holds user
//   messages sent while a turn runs and continuation reasons (S7). When the turn ends before a
//   step drains them, user messages move to the front of the queue and open the next turn;
//   continuation reasons belong to their turn and are dropped with it.

import type { ImageAttachment } from '../../src-shared/session/attachments'

export type PromptOrigin = 'user' | 'cli'

export interface QueuedPrompt {
  content: string
  source: PromptOrigin
  /** Images sent with the prompt (only a prompt that opens a turn carries them). */
  images?: ImageAttachment[]
}

export type SteeringItem =
  | { kind: 'prompt'; content: string; source: PromptOrigin }
  | { kind: 'continuation'; text: string; by?: string; context?: string[] }

export class Inbox {
  private queue: QueuedPrompt[] = []
  private steeringItems: SteeringItem[] = []

  constructor(private readonly onChange: () => void) {}

  get queued(): number {
    return this.queue.length
  }

  get steering(): number {
    return this.steeringItems.length
  }

  enqueue(prompt: QueuedPrompt): void {
    this.queue.push(prompt)
    this.onChange()
  }

  steer(item: SteeringItem): void {
    this.steeringItems.push(item)
    this.onChange()
  }

  /** Everything queued, oldest first: the batch of the turn being opened. */
  takeQueued(): QueuedPrompt[] {
    return this.take('queue') as QueuedPrompt[]
  }

  /** Everything on the steering channel, oldest first. */
  takeSteering(): SteeringItem[] {
    return this.take('steeringItems') as SteeringItem[]
  }

  /** Puts taken items back at the front of the steering channel (a cancel landed before they were handled). */
  restoreSteering(items: readonly SteeringItem[]): void {
    if (items.length === 0) return
    this.steeringItems = [...items, ...this.steeringItems]
    this.onChange()
  }

  /** At a turn's end: undrained user messages open the next turn, ahead of anything queued since. */
  requeueSteering(): void {
    const items = this.steeringItems
    if (items.length === 0) return
    this.steeringItems = []
    const prompts: QueuedPrompt[] = []
    for (const item of items) if (item.kind === 'prompt') prompts.push({ content: item.content, source: item.source })
    this.queue = [...prompts, ...this.queue]
    this.onChange()
  }

  /** Drops everything (the agent is closing). Returns how many messages were dropped. */
  clear(): number {
    const dropped = this.queue.length + this.steeringItems.filter((i) => i.kind === 'prompt').length
    this.queue = []
    this.steeringItems = []
    this.onChange()
    return dropped
  }

  private take(channel: 'queue' | 'steeringItems'): Array<QueuedPrompt | SteeringItem> {
    const items = this[channel]
    if (items.length === 0) return []
    this[channel] = []
    this.onChange()
    return items
  }
}
