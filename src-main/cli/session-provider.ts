// `seam resume ID` without provider flags talks to the provider and model the session was
// created with (its header records them, the key never), so the README's `seam resume ID "..."`
// works for a session `seam run --provider ...` started. Flags still override. When the settings'
// provider is the session's (same kind and address), only the model is taken from the session, so
// the stored key is used; otherwise the key comes from the provider's usual variable, as with
// --provider.
import { closeSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { ProviderKindSchema } from '../../src-shared/contract/setting-kinds'
import type { ProviderConfig } from '../../src-shared/model'
import { parseProviderConfig, PROVIDER_PRESETS } from '../llm/presets'
import { resolveSeamHome, seamPaths } from '../app/paths'
import { SettingsFile } from '../app/settings'
import { DEFAULT_KEY_ENV } from './provider-flags'

const HeaderModel = z.object({
  type: z.literal('session/header'),
  model: z.object({ provider: ProviderKindSchema, model: z.string().min(1), baseUrl: z.string().optional() }).optional()
})

export type ResumeProvider = { provider: ProviderConfig } | { model: string } | undefined

/** What a flag-less resume of `id` should use: a provider, only a model (the settings' provider is the session's), or nothing to change. */
export function resumeProvider(id: string, env: NodeJS.ProcessEnv): ResumeProvider {
  const paths = seamPaths(resolveSeamHome(env))
  const header = readHeader(join(paths.sessions, `${id}.jsonl`))
  if (!header?.model) return undefined
  const { provider: kind, model } = header.model
  const baseUrl = header.model.baseUrl ?? PROVIDER_PRESETS[kind].baseUrl
  if (!baseUrl) return undefined
  const settings = new SettingsFile(paths.settings).value.provider
  if (settings && settings.provider === kind && settings.baseUrl === baseUrl) return settings.model === model ? undefined : { model }
  const keyEnv = DEFAULT_KEY_ENV[kind]
  const apiKey = keyEnv ? env[keyEnv] : undefined
  try {
    return { provider: parseProviderConfig({ provider: kind, baseUrl, model, apiKey: apiKey || undefined }, `session ${id}`) }
  } catch {
    // A header this version cannot use (an address that no longer parses): the settings apply, as before.
    return undefined
  }
}

/** The session file's first line as a header, or undefined (no such session: `resume` then says so itself). */
function readHeader(path: string): z.infer<typeof HeaderModel> | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    const buffer = Buffer.alloc(64 * 1024)
    const size = readSync(fd, buffer, 0, buffer.length, 0)
    const line = buffer.subarray(0, size).toString('utf8').split('\n')[0] ?? ''
    const parsed = HeaderModel.safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}
