// Claude Code's settings files as every plugin that reads a key of them finds them: the user's
// `~/.claude/settings.json`, then (only once the workspace is trusted: a workspace's settings may
// change what Seam runs) the workspace's `.claude/settings.json` and `.claude/settings.local.json`,
// each more specific than the one before. Reading one never throws: a missing file is empty, an
// unreadable one is a problem naming the file. Re-exported by `@seam/sdk/node`.
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-file'

export type ClaudeSettingsScope = 'user' | 'project' | 'local'

export interface ClaudeSettingsFile {
  scope: ClaudeSettingsScope
  file: string
}

/** The user's settings file: `configured` if given, else `<home>/.claude/settings.json`. */
export function claudeUserSettingsPath(configured?: string, home: string = homedir()): string {
  return configured ?? join(home, '.claude', 'settings.json')
}

/** Codex's home folder: `configured` if given, else `$CODEX_HOME`, else `<home>/.codex`. */
export function codexHomePath(configured?: string, env: Readonly<Record<string, string | undefined>> = process.env, home: string = homedir()): string {
  return configured ?? (env.CODEX_HOME || join(home, '.codex'))
}

/** A workspace's two settings files (shared, then the user's own, not committed). */
export function claudeWorkspaceSettingsFiles(root: string): { project: string; local: string } {
  return { project: join(root, '.claude', 'settings.json'), local: join(root, '.claude', 'settings.local.json') }
}

/** The files to read, least specific first: user; then project and local when a workspace is open and trusted. */
export function claudeSettingsFiles(userSettingsPath: string, workspace: string | null, trusted: boolean): ClaudeSettingsFile[] {
  const files: ClaudeSettingsFile[] = [{ scope: 'user', file: userSettingsPath }]
  if (workspace !== null && trusted) {
    const { project, local } = claudeWorkspaceSettingsFiles(workspace)
    files.push({ scope: 'project', file: project }, { scope: 'local', file: local })
  }
  return files
}

/** What one settings file holds: `data` is its parsed JSON (absent when the file does not exist or could not be read); `problem` names the file. */
export interface SettingsJson {
  data?: unknown
  problem?: string
}

/** Reads a settings file as JSON; never throws. A missing file (or a missing folder on its path) is `{}`. */
export function readSettingsJson(file: string): SettingsJson {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? {} : { problem: `${file}: cannot be read: ${(error as Error).message}` }
  }
  try {
    return { data: JSON.parse(text) }
  } catch (error) {
    return { problem: `${file}: not valid JSON: ${(error as Error).message}` }
  }
}

/**
 * Sets (or, with `undefined`, removes) one top-level key of a settings file, keeping every other
 * key as it was; the file is created when missing and written atomically. A file that is not a
 * JSON object is left untouched and the call throws an error naming the file.
 */
export function setSettingsKey(file: string, key: string, value: unknown): void {
  const read = readSettingsJson(file)
  if (read.problem !== undefined) throw new Error(`${read.problem}; Seam will not overwrite it (fix the file, then try again)`)
  const data = read.data ?? {}
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${file}: not a settings object; Seam will not overwrite it (fix the file, then try again)`)
  const next: Record<string, unknown> = { ...(data as Record<string, unknown>) }
  if (value === undefined) delete next[key]
  else next[key] = value
  writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, 0o644)
}
