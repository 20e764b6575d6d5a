// Messages waiting for the loop. Two channels:
// - the queue: prompts that open the next turn (each passes agent/prompt-submit, S5);
// - steering: input for the running turn, drained at the top of its next step. It holds user
//   messages sent while a turn runs and continuation reasons (S7). When the turn ends before a
//   step drains them, user messages move to the front of the queue and open the next turn;
//   continuation reasons belong to their turn and are dropped with it.

import type { ImageAttachment } from '../../src-shared/session/attachments'
import type { ChannelOrigin } from '../../src-shared/host/agent'

export type PromptOrigin = 'user' | 'cli'

/** A custom slash command's expansion, carried with the text as typed (see src-main/commands). */
export interface CommandExpansion {
  /** The expanded prompt the model gets. */
  content: string
  command: { name: string; args: string; source: 'user' | 'project' | 'codex' | 'plugin' }
  /** The model of the turn the command opens (front matter `model`). */
  model?: string
  /** Permission rules whose calls run without asking during that turn (front matter `allowed-tools`). */
  allowedTools?: string[]
}

export interface QueuedPrompt {
  content: string
  source: PromptOrigin
  /**
   * Set when this is not a prompt but news that opens a turn (`AgentHandle.deliver`: a background
   * agent ended): `content` is recorded as a context/message from this source, without prompt policy.
   */
  notice?: string
  /** With `notice`: a channel message (recorded with its origin, read by the model unwrapped). */
  channel?: ChannelOrigin
  /** Images sent with the prompt. */
  images?: ImageAttachment[]
  expansion?: CommandExpansion
}

export type SteeringItem =
  | { kind: 'prompt'; content: string; source: PromptOrigin; images?: ImageAttachment[] }
  | { kind: 'continuation'; text: string; by?: string; context?: string[] }
  | { kind: 'notice'; text: string; source: string; channel?: ChannelOrigin }

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

  /**
   * The batch of the turn being opened, oldest first: everything queued, except that a slash
   * command is a batch of its own (its model and expansion belong to one turn).
   */
  takeQueued(): QueuedPrompt[] {
    const commandAt = this.queue.findIndex((prompt) => prompt.expansion !== undefined)
    if (commandAt === -1) return this.take('queue') as QueuedPrompt[]
    const batch = this.queue.splice(0, Math.max(commandAt, 1))
    this.onChange()
    return batch
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

  /** At a turn's end: undrained user messages and notices open the next turn, ahead of anything queued since. */
  requeueSteering(): void {
    const items = this.steeringItems
    if (items.length === 0) return
    this.steeringItems = []
    const prompts: QueuedPrompt[] = []
    for (const item of items) {
      if (item.kind === 'prompt') prompts.push({ content: item.content, source: item.source, ...(item.images?.length ? { images: item.images } : {}) })
      else if (item.kind === 'notice') prompts.push({ content: item.text, source: 'user', notice: item.source, ...(item.channel ? { channel: item.channel } : {}) })
    }
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
