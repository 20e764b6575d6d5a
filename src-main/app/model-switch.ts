// The model client agents hold: it always speaks to the provider currently configured, so a
// provider change in Settings applies to the next request of every open session.
import { ModelError, type ModelClient, type ModelRequest, type ModelStreamEvent, type ProviderConfig, type ProviderKind } from '../../src-shared/model'
import type { SessionEvent } from '../../src-shared/session/events'

export class SwitchableModel implements ModelClient {
  private client: ModelClient | undefined
  private key = ''

  constructor(
    /** The provider in use, without reading its key (names only). */
    private readonly current: () => ProviderConfig | undefined,
    /** The provider in use with its key (read from the secrets store, which is async). */
    private readonly withKey: () => Promise<ProviderConfig | undefined>,
    /** The adapter registry (the `models` service): adapters are profile entries. */
    private readonly create: (config: ProviderConfig) => ModelClient
  ) {}

  get provider(): string {
    return this.current()?.provider ?? 'none'
  }

  get model(): string {
    return this.current()?.model ?? 'none'
  }

  /** The same provider with another model: what a custom command's `model` runs its turn with. */
  withModel(model: string): ModelClient {
    const swap = (config: ProviderConfig | undefined) => (config ? { ...config, model } : undefined)
    return new SwitchableModel(() => swap(this.current()), async () => swap(await this.withKey()), this.create)
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return this.streamWithKey(request)
  }

  private async *streamWithKey(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const client = this.resolve(await this.withKey())
    yield* client.stream(request)
  }

  private resolve(config: ProviderConfig | undefined): ModelClient {
    if (!config) throw new ModelError('bad_request', 'No model provider is configured: choose one in Settings (or pass --provider).')
    const key = JSON.stringify(config)
    if (!this.client || key !== this.key) {
      this.client = this.create(config)
      this.key = key
    }
    return this.client
  }
}

/** A provider kind and one of its models, as the model picker names them. */
export interface ModelChoice {
  provider: ProviderKind
  model: string
}

/**
 * One session's model: the Host's provider in use until the session switches (the model picker),
 * then the chosen provider and model. The choice is logged as `model/switched`, so a resumed
 * session (`choiceFromLog`) sends its requests where they went before.
 */
export class SessionModel implements ModelClient {
  constructor(
    private readonly fallback: ModelClient,
    private readonly forChoice: (choice: ModelChoice) => ModelClient,
    private current: ModelChoice | undefined
  ) {}

  get choice(): ModelChoice | undefined {
    return this.current
  }

  get provider(): string {
    return this.current?.provider ?? this.fallback.provider
  }

  get model(): string {
    return this.current?.model ?? this.fallback.model
  }

  choose(choice: ModelChoice): void {
    this.current = { ...choice }
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return (this.current ? this.forChoice(this.current) : this.fallback).stream(request)
  }
}

const KINDS: readonly string[] = ['deepseek', 'openai', 'anthropic', 'ollama', 'openai-compatible'] satisfies readonly ProviderKind[]

/** The session's last model switch in its log, if any. */
export function choiceFromLog(events: readonly SessionEvent[]): ModelChoice | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type === 'model/switched' && KINDS.includes(event.provider)) return { provider: event.provider as ProviderKind, model: event.model }
  }
  return undefined
}
