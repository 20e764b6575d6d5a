// The environment a hook runs with (claude-code-hooks.md §3), the CLAUDE_ENV_FILE round trip of
// SessionStart, the exec form (`command` + `args`, no shell) and header expansion for http hooks.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface HookEnvOptions {
  /** The agent's session environment (exports applied from CLAUDE_ENV_FILE, ...). */
  sessionEnv?: Readonly<Record<string, string>>
  projectDir: string
  sessionId: string
  cwd: string
  /** Only SessionStart gets it. */
  envFile?: string
  /** CLAUDE_EFFORT, on tool events and Stop. */
  effort?: string
}

/** Seam's environment + the session's + the variables Claude Code sets that make sense here. */
export function hookEnv(options: HookEnvOptions): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...options.sessionEnv,
    CLAUDE_PROJECT_DIR: options.projectDir,
    CLAUDECODE: '1',
    CLAUDE_CODE_SESSION_ID: options.sessionId,
    PWD: options.cwd
  }
  if (options.envFile !== undefined) env.CLAUDE_ENV_FILE = options.envFile
  if (options.effort !== undefined) env.CLAUDE_EFFORT = options.effort
  return env
}

/** An empty per-session file for SessionStart hooks to append `export NAME=value` lines to. */
export function createEnvFile(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'seam-claude-env-'))
  const file = join(dir, 'session-env.sh')
  writeFileSync(file, '', { mode: 0o600 })
  return { dir, file }
}

export function removeEnvFile(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true })
  } catch {
    // Best effort: a temp dir left behind is harmless.
  }
}

export interface EnvAssignment {
  name: string
  value: string
}

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/

/**
 * The assignments in a CLAUDE_ENV_FILE: `export NAME=value` (also without `export`), values bare,
 * 'single-quoted' or "double-quoted" (with \" \\ \$ \` escapes). Other lines (comments, commands)
 * are skipped and reported in `skipped`; nothing in the file is executed.
 */
export function parseEnvFile(text: string): { assignments: EnvAssignment[]; skipped: string[] } {
  const assignments: EnvAssignment[] = []
  const skipped: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#')) continue
    const match = ASSIGNMENT.exec(line)
    const value = match ? unquote(match[2].trim()) : undefined
    if (!match || value === undefined) {
      skipped.push(trimmed)
      continue
    }
    assignments.push({ name: match[1], value })
  }
  return { assignments, skipped }
}

export function readEnvFile(file: string): { assignments: EnvAssignment[]; skipped: string[] } {
  try {
    return parseEnvFile(readFileSync(file, 'utf8'))
  } catch {
    return { assignments: [], skipped: [] }
  }
}

function unquote(raw: string): string | undefined {
  if (raw.startsWith("'")) return raw.length >= 2 && raw.endsWith("'") ? raw.slice(1, -1) : undefined
  if (raw.startsWith('"')) {
    if (raw.length < 2 || !raw.endsWith('"')) return undefined
    return raw.slice(1, -1).replace(/\\(["\\$`])/g, '$1')
  }
  // A bare value ends at the first unescaped space (a trailing `# comment` is dropped).
  return raw.split(/\s+/)[0].replace(/\\(.)/g, '$1')
}

/** Single-quotes `text` for /bin/sh. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * Exec form as a shell command: `${VAR}` in args is expanded from `env` (missing: empty), `$VAR`
 * stays literal, every word is quoted, and `exec` replaces the shell (claude-code-hooks.md §2.2).
 */
export function execFormCommand(command: string, args: readonly string[], env: Record<string, string | undefined>): string {
  const expand = (text: string) => text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => env[name] ?? '')
  return ['exec', shellQuote(command), ...args.map((arg) => shellQuote(expand(arg)))].join(' ')
}

/** Header values with `$VAR` / `${VAR}` expanded for the names in `allowed` only; others are left as written. */
export function expandHeaders(headers: Record<string, string> | undefined, allowed: readonly string[] | undefined, env: Record<string, string | undefined>): Record<string, string> {
  const names = new Set(allowed ?? [])
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers ?? {})) {
    out[key] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (all, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare ?? ''
      return names.has(name) ? (env[name] ?? '') : all
    })
  }
  return out
}
