// Seam's provider keys stay with the provider. A tool or hook process never gets them in its
// environment (whatever variable they came from), and no logged event or notice carries their
// text. `childEnv` is the one place a child process environment loses the keys: callers merge
// everything else first (Seam's environment, the session's exports, settings) and pass the result.
import { z } from 'zod'

/** The variables Seam reads provider keys from by default (the CLI's `--api-key-env` defaults). */
export const DEFAULT_KEY_VARIABLES: Readonly<Record<string, string>> = {
  deepseek: 'DEEPSEEK_API_KEY',
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY'
}

/** What a known key is replaced with in logged text. */
export const REDACTED_KEY = '[redacted: provider key]'

/** Shorter values are never treated as keys: redacting them would mangle ordinary text. */
export const MIN_KEY_LENGTH = 8

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')

/** settings.json `toolEnv`: more variables to keep out of tool and hook processes, or key variables let back in. */
export const ToolEnvSettingsSchema = z.strictObject({
  /** Also removed from every tool and hook environment (e.g. GITHUB_TOKEN). */
  strip: z.array(EnvName).default([]),
  /** Kept even though Seam reads a provider key from it (you want your scripts to call the provider). */
  allow: z.array(EnvName).default([]),
  /** Per MCP server name: key variables that server alone gets (e.g. `{ "embeddings": ["OPENAI_API_KEY"] }`). */
  mcpServers: z.record(z.string(), z.array(EnvName)).default({})
})
export type ToolEnvSettings = z.output<typeof ToolEnvSettingsSchema>

/** Who the environment is for, when a setting lets a key through to that process alone. */
export interface ChildEnvFor {
  /** An MCP server's name: settings `toolEnv.mcpServers[name]` lists the key variables it gets. */
  mcpServer?: string
}

export interface KeyGuard {
  /** `env` without Seam's provider keys and the variables settings strip: what any process Seam starts gets (Bash, hooks, MCP servers, shell lines, plugins' processes). */
  childEnv(env: Readonly<Record<string, string | undefined>>, target?: ChildEnvFor): Record<string, string>
  /** `text` with every known key's text replaced by REDACTED_KEY. */
  redact(text: string): string
}

export interface KeyPolicy {
  /** Names of variables that hold (or may hold) a provider key. */
  variables: ReadonlySet<string>
  /** The keys' texts: a variable with one of these values goes too, whatever its name. */
  values: ReadonlySet<string>
  /** Further names the user strips. */
  strip: ReadonlySet<string>
  /** Names the user lets through (wins over `variables` and `values`, never over `strip`). */
  allow: ReadonlySet<string>
}

/** The stripping itself, pure. */
export function stripKeys(env: Readonly<Record<string, string | undefined>>, policy: KeyPolicy): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (policy.strip.has(name)) continue
    if (!policy.allow.has(name) && (policy.variables.has(name) || policy.values.has(value))) continue
    out[name] = value
  }
  return out
}

/** A replacer for the given key texts (longest first, so a key containing another is replaced whole). */
export function keyRedactor(values: Iterable<string>): (text: string) => string {
  const keys = [...new Set(values)].filter((value) => value.length >= MIN_KEY_LENGTH).sort((a, b) => b.length - a.length)
  if (keys.length === 0) return (text) => text
  const pattern = new RegExp(keys.map(escapeRegExp).join('|'), 'g')
  return (text) => (text.length < MIN_KEY_LENGTH ? text : text.replace(pattern, REDACTED_KEY))
}

/**
 * A session log line (one JSON object) with known keys replaced. A key is matched in its JSON
 * form too, so a key holding characters JSON escapes is still found; the replacement has no
 * character JSON escapes, so the line stays valid JSON.
 */
export function lineRedactor(values: Iterable<string>): (line: string) => string {
  const forms: string[] = []
  for (const value of values) {
    forms.push(value)
    forms.push(JSON.stringify(value).slice(1, -1))
  }
  return keyRedactor(forms)
}

export interface KeySources {
  /** The environment Seam was started with (keys come from its variables). */
  env(): Readonly<Record<string, string | undefined>>
  /** Variables named on the command line (`--api-key-env`) besides the defaults. */
  extraVariables(): Iterable<string>
  /** Keys held elsewhere: stored keys (secrets.json) and a key given for one run. */
  storedKeys(): Promise<Iterable<string>> | Iterable<string>
  settings(): ToolEnvSettings
}

/**
 * The host's guard. Key texts are gathered on `refresh()` (at start, and whenever a key is
 * stored), not on every call: a session log append must not read secrets.json.
 */
export class HostKeyGuard implements KeyGuard {
  private values: ReadonlySet<string> = new Set()
  private redactText: (text: string) => string = (text) => text
  private redactLine: (line: string) => string = (line) => line

  /** The key variables' values count from the start; stored keys from the first `refresh()`. */
  constructor(private readonly sources: KeySources) {
    this.use(this.fromEnvironment())
  }

  async refresh(): Promise<void> {
    const found = this.fromEnvironment()
    for (const value of await this.sources.storedKeys()) if (value.length >= MIN_KEY_LENGTH) found.add(value)
    this.use(found)
  }

  private fromEnvironment(): Set<string> {
    const env = this.sources.env()
    const found = new Set<string>()
    for (const name of this.variables()) {
      const value = env[name] ?? process.env[name]
      if (value && value.length >= MIN_KEY_LENGTH) found.add(value)
    }
    return found
  }

  private use(found: Set<string>): void {
    this.values = found
    this.redactText = keyRedactor(found)
    this.redactLine = lineRedactor(found)
  }

  childEnv(env: Readonly<Record<string, string | undefined>>, target: ChildEnvFor = {}): Record<string, string> {
    const settings = this.sources.settings()
    const forServer = target.mcpServer === undefined ? [] : (settings.mcpServers[target.mcpServer] ?? [])
    return stripKeys(env, { variables: this.variables(), values: this.values, strip: new Set(settings.strip), allow: new Set([...settings.allow, ...forServer]) })
  }

  redact(text: string): string {
    return this.redactText(text)
  }

  /** For session log lines (JSON text). */
  redactJsonLine(line: string): string {
    return this.redactLine(line)
  }

  private variables(): Set<string> {
    return new Set([...Object.values(DEFAULT_KEY_VARIABLES), ...this.sources.extraVariables()])
  }
}

/** Without a host (a plugin tested alone, the standalone tools): strip the default key variables and their values. */
export const defaultKeyGuard: KeyGuard = {
  childEnv(env) {
    const variables = new Set(Object.values(DEFAULT_KEY_VARIABLES))
    const values = new Set([...variables].map((name) => process.env[name]).filter((v): v is string => Boolean(v && v.length >= MIN_KEY_LENGTH)))
    return stripKeys(env, { variables, values, strip: new Set(), allow: new Set() })
  },
  redact(text) {
    return keyRedactor(Object.values(DEFAULT_KEY_VARIABLES).map((name) => process.env[name] ?? ''))(text)
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

declare module '../../src-shared/kernel/types' {
  interface Services {
    /** The host's key guard: every tool and hook process environment goes through `childEnv`. */
    keys: KeyGuard
  }
}
