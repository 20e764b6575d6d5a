// The npm settings a registry install uses, read by npm's own config loader (@npmcli/config) so
// that Seam resolves exactly where `npm install` would, from the same files in the same order:
// `npm_config_*` environment variables, the project `.npmrc` (the nearest folder above `cwd`
// holding a package.json or node_modules, else `cwd` itself), the user's `~/.npmrc` (or
// `$NPM_CONFIG_USERCONFIG`), the global `$PREFIX/etc/npmrc`. `${VAR}` in a file is expanded from
// the environment; `@scope:registry=` picks a scope's registry; `//host/path/:_authToken=`,
// `:_auth`, `:username` + `:_password` authenticate to the registry whose URL they prefix. Like
// npm 9+, credentials go only to the registry they are keyed to (`always-auth` is gone from npm
// and ignored), and un-keyed top-level `_auth`/`_authToken` are refused with npm's own message.
import Config from '@npmcli/config'
import npmDefinitions from '@npmcli/config/lib/definitions/index.js'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { BundleError } from './manifest'

/** npm's flattened options: what npm-registry-fetch takes (`registry`, `@scope:registry`, `//host/:_authToken`, proxy, TLS...). */
export type NpmOptions = Record<string, unknown>

export interface NpmConfigInput {
  /** Where a project `.npmrc` is looked for (Seam passes the workspace). */
  cwd: string
  /** The environment to read `npm_config_*`, `NPM_CONFIG_USERCONFIG`, HOME and `${VAR}` from. */
  env: NodeJS.ProcessEnv
}

/**
 * What npm's loader writes into this process's own environment, whatever env it is given: its
 * flattening sets npm_config_user_agent, and NODE_ENV=production when dev dependencies are
 * omitted (`omit=dev` in an .npmrc). Left there, every process Seam starts afterwards (Bash,
 * hooks, MCP servers) would inherit them: an agent's `npm install` would skip devDependencies.
 */
const WRITTEN_BY_NPM = ['npm_config_user_agent', 'NODE_ENV'] as const

export async function loadNpmConfig(input: NpmConfigInput): Promise<NpmOptions> {
  const kept = WRITTEN_BY_NPM.map((name) => [name, process.env[name]] as const)
  try {
    return await readNpmConfig(input)
  } finally {
    for (const [name, value] of kept) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

async function readNpmConfig(input: NpmConfigInput): Promise<NpmOptions> {
  const { definitions, shorthands, flatten, nerfDarts } = npmDefinitions
  const config = new Config({
    definitions,
    shorthands,
    flatten,
    nerfDarts,
    // npm's builtin layer is the `npmrc` inside npm's own install folder; Seam is not npm, so it
    // points at its own folder, which has none.
    npmPath: path.dirname(fileURLToPath(import.meta.url)),
    // A copy: the loader exports what it read as npm_config_* into the env object it is given.
    env: { ...input.env },
    // No command line: Seam's own flags (--force...) are not npm's.
    argv: ['node', 'seam'],
    cwd: input.cwd,
    execPath: process.execPath,
    warn: false
  })
  try {
    await config.load()
    config.validate()
  } catch (error) {
    // ERR_INVALID_AUTH names the keys to fix (never their values).
    throw new BundleError(`reading npm's configuration: ${(error as Error).message}`)
  }
  const flat: NpmOptions = { ...config.flat }
  // Every download is checked by Seam against the registry's integrity, so nothing comes from
  // (or goes into) npm's cache: what is verified is what the registry sent this time.
  delete flat.cache
  delete flat.offline
  delete flat.preferOffline
  return flat
}

/** The registry a package name resolves from: its scope's `@scope:registry`, else `registry`. */
export function registryFor(name: string, options: NpmOptions): string {
  const scope = name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined
  const scoped = scope ? options[`${scope}:registry`] : undefined
  const registry = typeof scoped === 'string' && scoped ? scoped : typeof options.registry === 'string' ? options.registry : 'https://registry.npmjs.org/'
  return registry.endsWith('/') ? registry : `${registry}/`
}

/** A URL safe to print or record: user name and password (npm allows them in `registry=`) removed. */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return '(unparseable URL)'
  }
}
