// Claude Code's variable expansion in .mcp.json: `${VAR}` and `${VAR:-default}` in command,
// args, env values, url and header values. A variable that is unset and has no default is
// reported (the server then fails with that reason) instead of expanding to an empty string.

const REFERENCE = /\$\{([^}:]+)(?::-([^}]*))?\}/g

export interface Expanded {
  value: string
  missing: string[]
}

export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): Expanded {
  const missing: string[] = []
  const value = text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const found = env[name]
    if (found !== undefined) return found
    if (fallback !== undefined) return fallback
    missing.push(name)
    return ''
  })
  return { value, missing }
}

/** Expands every string of a list or a string map, collecting the variables that were missing. */
export class Expander {
  readonly missing = new Set<string>()
  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  text(text: string): string {
    const { value, missing } = expandVariables(text, this.env)
    for (const name of missing) this.missing.add(name)
    return value
  }

  list(items: readonly string[]): string[] {
    return items.map((item) => this.text(item))
  }

  map(record: Readonly<Record<string, string>>): Record<string, string> {
    return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, this.text(value)]))
  }
}
