// The model table as the settings page edits it: every model Seam ships an entry for, every preset's
// model, the user's own entries and the model in use, each with the defaults, the user's entry and
// what is in force. Writes go to the settings file's `models` and `compaction`.
import type { CompactionSettings, ModelInfo, ModelTableView } from '../../src-shared/model-table'
import { DEFAULT_MODEL_TABLE, modelInfo } from '../llm/model-table'
import { PROVIDER_PRESETS } from '../llm/presets'
import type { SettingsFile } from './settings'

export function modelTableView(settings: SettingsFile): ModelTableView {
  const { models: overrides, provider, compaction } = settings.value
  const inUse = provider?.model
  const names = new Set<string>([
    ...(inUse ? [inUse] : []),
    ...Object.values(PROVIDER_PRESETS).flatMap((preset) => (preset.model ? [preset.model] : [])),
    ...Object.keys(DEFAULT_MODEL_TABLE),
    ...Object.keys(overrides)
  ])
  return {
    models: [...names].map((model) => ({
      model,
      defaults: DEFAULT_MODEL_TABLE[model] ?? {},
      override: overrides[model] ?? null,
      effective: modelInfo(model, overrides),
      inUse: model === inUse
    })),
    compaction
  }
}

/** Sets (or with null removes) the user's entry for one model. */
export function setModelInfo(settings: SettingsFile, model: string, info: ModelInfo | null): ModelTableView {
  const models = { ...settings.value.models }
  // The form edits the window and prices: an entry's `vision` and `provider` (the model picker's) stay unless given.
  const kept = info === null ? {} : keptFields(models[model])
  const next = info === null ? null : { ...kept, ...info }
  if (next === null || Object.values(next).every((value) => value === undefined)) delete models[model]
  else models[model] = next
  settings.update({ models })
  return modelTableView(settings)
}

export function setCompaction(settings: SettingsFile, compaction: CompactionSettings): ModelTableView {
  settings.update({ compaction })
  return modelTableView(settings)
}

function keptFields(info: ModelInfo | undefined): Pick<ModelInfo, 'vision' | 'provider'> {
  const kept: Pick<ModelInfo, 'vision' | 'provider'> = {}
  if (info?.vision !== undefined) kept.vision = info.vision
  if (info?.provider !== undefined) kept.provider = info.provider
  return kept
}
