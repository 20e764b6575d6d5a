// Which shell runs `-c` commands (the Bash tool, hooks, `!`cmd`` lines). On Linux and macOS the
// caller's usual one (`/bin/sh` for Claude Code hooks, `/bin/bash` for Codex hooks and the Bash
// tool). On Windows, as Claude Code does there, Git for Windows' `bash.exe`: the
// CLAUDE_CODE_GIT_BASH_PATH setting (an environment variable, or `env` in settings.json), then
// the places Git for Windows installs to, then PATH (a `bash.exe` beside `git.exe`, or one on
// PATH that is not WSL's launcher). With none, one error says what to install.
import { statSync } from 'node:fs'
import path from 'node:path'

/** What the lookup reads; each part injectable so it is tested as Windows on any machine. */
export interface ShellLookup {
  platform?: NodeJS.Platform
  env?: Readonly<Record<string, string | undefined>>
  isFile?(file: string): boolean
}

export const GIT_BASH_SETTING = 'CLAUDE_CODE_GIT_BASH_PATH'

export class PosixShellMissingError extends Error {
  constructor(detail?: string) {
    super(
      `Seam on Windows runs shell commands, hooks and !\`cmd\` lines with Git for Windows' bash.exe, and none was found${detail ? ` (${detail})` : ''}. ` +
        `Install Git for Windows (https://git-scm.com/downloads/win); if it is installed somewhere else, set ${GIT_BASH_SETTING} to its bash.exe, e.g. ${GIT_BASH_SETTING}=C:\\Program Files\\Git\\bin\\bash.exe`
    )
    this.name = 'PosixShellMissingError'
  }
}

function isFileOnDisk(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}

/** Environment variables are case-insensitive on Windows (`Path`, `ProgramFiles`). */
function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name.toUpperCase())
  const value = key === undefined ? undefined : env[key]
  return value ? value : undefined
}

/** Where Git for Windows puts bash.exe: machine-wide (64- and 32-bit) and per-user installs. */
export function gitBashInstallPlaces(env: Readonly<Record<string, string | undefined>>): string[] {
  const win = path.win32
  const roots = [envValue(env, 'ProgramFiles') ?? 'C:\\Program Files', envValue(env, 'ProgramW6432'), envValue(env, 'ProgramFiles(x86)') ?? 'C:\\Program Files (x86)']
  const places = roots.filter((root): root is string => Boolean(root)).map((root) => win.join(root, 'Git', 'bin', 'bash.exe'))
  const local = envValue(env, 'LOCALAPPDATA')
  if (local) places.push(win.join(local, 'Programs', 'Git', 'bin', 'bash.exe'))
  return [...new Set(places)]
}

/** On PATH: `<git>\cmd\git.exe` means `<git>\bin\bash.exe`; a `bash.exe` itself, unless it is WSL's (System32). */
function fromPath(env: Readonly<Record<string, string | undefined>>, isFile: (file: string) => boolean): string | undefined {
  const win = path.win32
  const dirs = (envValue(env, 'PATH') ?? '').split(';').map((dir) => dir.trim().replace(/^"(.*)"$/, '$1')).filter(Boolean)
  for (const dir of dirs) {
    if (isFile(win.join(dir, 'git.exe'))) {
      const bash = win.join(dir, '..', 'bin', 'bash.exe')
      if (isFile(bash)) return bash
    }
  }
  const systemRoot = (envValue(env, 'SystemRoot') ?? 'C:\\Windows').toLowerCase()
  for (const dir of dirs) {
    const bash = win.join(dir, 'bash.exe')
    if (bash.toLowerCase().startsWith(systemRoot + '\\')) continue // WSL's bash.exe: a Linux VM, not Windows paths
    if (isFile(bash)) return bash
  }
  return undefined
}

/** Git for Windows' bash.exe, or throws PosixShellMissingError. Windows only. */
export function findGitBash(lookup: ShellLookup = {}): string {
  const env = lookup.env ?? process.env
  const isFile = lookup.isFile ?? isFileOnDisk
  const setting = envValue(env, GIT_BASH_SETTING)
  if (setting !== undefined) {
    if (isFile(setting)) return setting
    throw new PosixShellMissingError(`${GIT_BASH_SETTING} names ${setting}, which is not a file`)
  }
  for (const place of gitBashInstallPlaces(env)) if (isFile(place)) return place
  const onPath = fromPath(env, isFile)
  if (onPath) return onPath
  throw new PosixShellMissingError()
}

/**
 * The shell for `<shell> -c <command>`: `posix` (e.g. `/bin/sh`) on Linux and macOS, Git for
 * Windows' bash.exe on Windows (findGitBash; throws PosixShellMissingError when there is none).
 */
export function commandShell(posix: string, lookup: ShellLookup = {}): string {
  return (lookup.platform ?? process.platform) === 'win32' ? findGitBash(lookup) : posix
}

/**
 * A path a model or hook wrote, in the form Windows tools open. On Windows, as Claude Code
 * accepts them there, Git Bash's `/c/Users/me` and Cygwin's `/cygdrive/c/Users/me` mean
 * `C:\Users\me`, and forward slashes are separators; elsewhere the path is returned unchanged.
 */
export function nativePath(input: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return input
  const drive = /^\/(?:cygdrive\/)?([a-zA-Z])(?=\/|$)(.*)$/.exec(input)
  const value = drive ? `${drive[1]!.toUpperCase()}:${drive[2] || '/'}` : input
  return value.replace(/\//g, '\\')
}

/**
 * The PowerShell a `shell: powershell` line runs with: `pwsh` (PowerShell 7) on PATH, else on
 * Windows its built-in `powershell.exe`. With neither, one error says what to install.
 */
export function findPowerShell(lookup: ShellLookup = {}): string {
  const platform = lookup.platform ?? process.platform
  const isFile = lookup.isFile ?? isFileOnDisk
  const windows = platform === 'win32'
  const dirs = (envValue(lookup.env ?? process.env, 'PATH') ?? '').split(windows ? ';' : ':').filter(Boolean)
  const pathOf = windows ? path.win32 : path.posix
  for (const dir of dirs) {
    const candidate = pathOf.join(dir, windows ? 'pwsh.exe' : 'pwsh')
    if (isFile(candidate)) return candidate
  }
  if (windows) return 'powershell.exe'
  throw new Error('shell "powershell" needs PowerShell 7 (pwsh) on PATH, and none was found; install it (https://aka.ms/powershell) or use shell: bash')
}
