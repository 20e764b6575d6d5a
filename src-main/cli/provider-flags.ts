// The provider flags `seam run` and `seam acp` share: --provider, --base-url, --model and
// --api-key-env (defaulting to the provider's usual variable).
import type { ProviderConfig } from '../../src-shared/model'
import { parseProviderConfig } from '../llm/presets'
import { DEFAULT_KEY_VARIABLES } from '../security/keys'
import { UsageError } from './usage-error'

/** The provider's usual key variable (also stripped from every tool and hook environment). */
export const DEFAULT_KEY_ENV: Readonly<Record<string, string>> = DEFAULT_KEY_VARIABLES

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export interface ProviderFlags {
  provider?: string
  'base-url'?: string
  model?: string
  'api-key-env'?: string
}

/** The variable the key is read from for `kind`: --api-key-env, else the provider's usual one. */
export function keyEnvFor(kind: string, flags: ProviderFlags): string | undefined {
  return flags['api-key-env'] ?? DEFAULT_KEY_ENV[kind]
}

/**
 * The provider the flags name, or undefined without --provider (the Seam home's settings apply).
 * `requireKeyVar`: an explicit --api-key-env naming an unset variable is a usage error.
 */
export function providerFromFlags(flags: ProviderFlags, env: NodeJS.ProcessEnv, requireKeyVar = true): ProviderConfig | undefined {
  const kind = flags.provider
  if (!kind) {
    if (flags['base-url'] || flags.model) throw new UsageError('--base-url and --model need --provider')
    return undefined
  }
  // Someone may paste the key itself here: never print a value that is not a variable name.
  if (flags['api-key-env'] !== undefined && !ENV_NAME.test(flags['api-key-env'])) {
    throw new UsageError('--api-key-env takes the NAME of an environment variable (such as OPENAI_API_KEY), not a key; the value given is not a variable name and is not shown')
  }
  const keyEnv = keyEnvFor(kind, flags)
  const apiKey = keyEnv ? env[keyEnv] : undefined
  if (requireKeyVar && flags['api-key-env'] && !apiKey) throw new UsageError(`--api-key-env ${keyEnv}: that variable is not set`)
  try {
    return parseProviderConfig({ provider: kind, baseUrl: flags['base-url'], model: flags.model, apiKey: apiKey || undefined }, 'command line')
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}
