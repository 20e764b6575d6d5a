// Claude Code's model aliases (`sonnet`, `opus`, `haiku`) in `/model` and a command's `model`
// front matter: with the Anthropic provider they name the newest model of that family in the model
// table (the defaults and the user's entries); with another provider they are refused, naming it,
// since no model of its answers to a Claude family.
import { modelsOf, type ModelTable } from '../llm/model-table'
import type { ProviderKind } from '../../src-shared/model'
import { CommandError } from './expand'

const ALIAS = /^(sonnet|opus|haiku)$/i

/** `name`, or the model a Claude Code alias stands for; throws CommandError when it stands for none. */
export function resolveModelName(name: string, provider: ProviderKind | undefined, table: ModelTable | undefined): string {
  const alias = ALIAS.exec(name)?.[1]?.toLowerCase()
  if (!alias) return name
  if (provider !== 'anthropic') {
    throw new CommandError(`"${name}" is a Claude model alias, and the provider in use is ${provider ?? 'none'}: name one of its models instead`)
  }
  const family = modelsOf('anthropic', table).filter((model) => model.toLowerCase().includes(alias))
  if (family.length === 0) {
    throw new CommandError(`"${name}": the model table has no Claude model with "${alias}" in its name; add one in Settings (Models) or name the model`)
  }
  // Newest: the highest version numbers in the name (claude-sonnet-5-5 after claude-sonnet-4-5).
  return family.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1)!
}
