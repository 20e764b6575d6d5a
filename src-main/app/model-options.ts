// The model picker's data: the model in use (a session's, or the Host's) and, per provider
// preset, its models and whether Seam can reach it now (an address, and a key where the
// provider needs one). Switching a session is logged (`model/switched`) by the session hub.
import type { ModelOptions } from '../../src-shared/contract/ipc'
import type { ProviderKind } from '../../src-shared/model'
import { modelInfo, modelsOf } from '../llm/model-table'
import { PROVIDER_PRESETS } from '../llm/presets'
import type { HostRuntime } from './runtime'

export const PROVIDER_LABELS: Record<ProviderKind, string> = {
  deepseek: 'DeepSeek',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama (this computer)',
  'openai-compatible': 'Any OpenAI-compatible server'
}

const KINDS = Object.keys(PROVIDER_PRESETS) as ProviderKind[]

/** Whether the model accepts images (the model table's `vision`, with the user's overrides). */
export function acceptsImages(runtime: HostRuntime, model: string): boolean {
  return modelInfo(model, runtime.settings.value.models).vision === true
}

export async function modelOptions(runtime: HostRuntime, sessionId?: string): Promise<ModelOptions> {
  const table = runtime.settings.value.models
  const inUse = runtime.providerSettings()
  let current: { provider: ProviderKind; model: string } | undefined = inUse ? { provider: inUse.provider, model: inUse.model } : undefined
  if (sessionId !== undefined && runtime.sessions.isOpen(sessionId)) {
    const session = await runtime.sessions.open(sessionId)
    current = session.model.choice ?? current
  }
  const providers: ModelOptions['providers'] = []
  for (const kind of KINDS) {
    const names = new Set<string>()
    if (inUse?.provider === kind) names.add(inUse.model)
    const preset = PROVIDER_PRESETS[kind].model
    if (preset) names.add(preset)
    for (const name of modelsOf(kind, table)) names.add(name)
    if (current?.provider === kind) names.add(current.model)
    const { available, reason } = await reachable(runtime, kind)
    providers.push({
      id: kind,
      label: PROVIDER_LABELS[kind],
      available,
      ...(reason ? { reason } : {}),
      models: [...names].map((model) => ({ model, vision: modelInfo(model, table).vision === true }))
    })
  }
  return { current: current ? { ...current, vision: modelInfo(current.model, table).vision === true } : null, providers }
}

async function reachable(runtime: HostRuntime, kind: ProviderKind): Promise<{ available: boolean; reason?: string }> {
  const config = runtime.choiceSettings({ provider: kind, model: 'x' })
  if (!config) return { available: false, reason: 'needs its server address: set it up in Settings' }
  if (runtime.providerSettings()?.provider === kind) return { available: true }
  if (!PROVIDER_PRESETS[kind].needsApiKey) return { available: true }
  const key = await runtime.storedKey(kind, config.baseUrl).catch(() => undefined)
  return key ? { available: true } : { available: false, reason: `no ${PROVIDER_LABELS[kind]} API key stored: add it in Settings` }
}

/** Switches the session's model, or (no session) the provider in use; refuses a provider Seam cannot reach. */
export async function selectModel(runtime: HostRuntime, input: { sessionId?: string; provider: ProviderKind; model: string }): Promise<ModelOptions> {
  const { available, reason } = await reachable(runtime, input.provider)
  if (!available) throw Object.assign(new Error(`${PROVIDER_LABELS[input.provider]} ${reason}`), { code: 'INVALID_INPUT', field: 'provider' })
  const choice = { provider: input.provider, model: input.model }
  if (input.sessionId !== undefined) {
    const { from } = await runtime.sessions.switchModel(input.sessionId, choice)
    if (from.provider !== choice.provider || from.model !== choice.model) {
      runtime.log({ level: 'info', plugin: 'model', message: `session ${input.sessionId}: model ${from.model} (${from.provider}) -> ${choice.model} (${choice.provider})`, time: Date.now() })
    }
  } else {
    const config = runtime.choiceSettings(choice)!
    runtime.settings.update({ provider: { provider: config.provider, baseUrl: config.baseUrl, model: config.model } })
    runtime.log({ level: 'info', plugin: 'model', message: `model in use: ${choice.model} (${choice.provider})`, time: Date.now() })
  }
  return modelOptions(runtime, input.sessionId)
}
