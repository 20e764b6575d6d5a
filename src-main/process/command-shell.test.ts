// Finding a POSIX shell on Windows as Claude Code does (issue 30): the setting, then Git for
// Windows' install places, then PATH; one message when there is none. Windows is played with an
// injected platform, environment and file system (a set of files that exist).
import { describe, expect, it } from 'vitest'
import { commandShell, findGitBash, findPowerShell, GIT_BASH_SETTING, nativePath, PosixShellMissingError } from './command-shell'

const windows = (files: string[], env: Record<string, string | undefined> = {}) => ({
  platform: 'win32' as const,
  env: { ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', SystemRoot: 'C:\\WINDOWS', ...env },
  isFile: (file: string) => files.includes(file)
})

describe('commandShell: the shell for -c commands (issue 30: Windows)', () => {
  it('is the caller\'s POSIX shell on Linux and macOS, whatever Windows settings say', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(commandShell('/bin/sh', { platform, env: { [GIT_BASH_SETTING]: 'C:\\x\\bash.exe' }, isFile: () => false })).toBe('/bin/sh')
      expect(commandShell('/bin/bash', { platform })).toBe('/bin/bash')
    }
  })

  it('on Windows takes CLAUDE_CODE_GIT_BASH_PATH first, before an installed Git', () => {
    const custom = 'D:\\tools\\git\\usr\\bin\\bash.exe'
    expect(commandShell('/bin/sh', windows([custom, 'C:\\Program Files\\Git\\bin\\bash.exe'], { [GIT_BASH_SETTING]: custom }))).toBe(custom)
  })

  it('refuses a setting that names no file, saying which (no silent fallback)', () => {
    expect(() => findGitBash(windows(['C:\\Program Files\\Git\\bin\\bash.exe'], { [GIT_BASH_SETTING]: 'C:\\nope\\bash.exe' }))).toThrow(/CLAUDE_CODE_GIT_BASH_PATH names C:\\nope\\bash\.exe, which is not a file/)
  })

  it('then the places Git for Windows installs to: machine-wide, 32-bit, per user', () => {
    expect(findGitBash(windows(['C:\\Program Files\\Git\\bin\\bash.exe']))).toBe('C:\\Program Files\\Git\\bin\\bash.exe')
    expect(findGitBash(windows(['C:\\Program Files (x86)\\Git\\bin\\bash.exe']))).toBe('C:\\Program Files (x86)\\Git\\bin\\bash.exe')
    expect(findGitBash(windows(['C:\\Users\\me\\AppData\\Local\\Programs\\Git\\bin\\bash.exe']))).toBe('C:\\Users\\me\\AppData\\Local\\Programs\\Git\\bin\\bash.exe')
    // Environment names are case-insensitive on Windows.
    expect(findGitBash({ platform: 'win32', env: { PROGRAMFILES: 'E:\\Apps' }, isFile: (f) => f === 'E:\\Apps\\Git\\bin\\bash.exe' })).toBe('E:\\Apps\\Git\\bin\\bash.exe')
  })

  it('then PATH: the bash.exe of the Git whose git.exe is on PATH, or a bash.exe on PATH that is not WSL\'s', () => {
    const scoop = windows(['D:\\scoop\\apps\\git\\current\\cmd\\git.exe', 'D:\\scoop\\apps\\git\\current\\bin\\bash.exe'], { Path: 'C:\\WINDOWS\\system32;D:\\scoop\\apps\\git\\current\\cmd' })
    expect(findGitBash(scoop)).toBe('D:\\scoop\\apps\\git\\current\\bin\\bash.exe')
    const msys = windows(['C:\\WINDOWS\\system32\\bash.exe', 'C:\\msys64\\usr\\bin\\bash.exe'], { PATH: 'C:\\WINDOWS\\system32;"C:\\msys64\\usr\\bin"' })
    expect(findGitBash(msys)).toBe('C:\\msys64\\usr\\bin\\bash.exe')
  })

  it('with none, throws one message that says what to install and which setting to use', () => {
    const wslOnly = windows(['C:\\WINDOWS\\system32\\bash.exe'], { PATH: 'C:\\WINDOWS\\system32' })
    let error: unknown
    try {
      commandShell('/bin/sh', wslOnly)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(PosixShellMissingError)
    expect((error as Error).message).toBe(
      "Seam on Windows runs shell commands, hooks and !`cmd` lines with Git for Windows' bash.exe, and none was found. Install Git for Windows (https://git-scm.com/downloads/win); if it is installed somewhere else, set CLAUDE_CODE_GIT_BASH_PATH to its bash.exe, e.g. CLAUDE_CODE_GIT_BASH_PATH=C:\\Program Files\\Git\\bin\\bash.exe"
    )
  })
})

describe('nativePath: paths in tool and hook inputs on Windows (issue 30)', () => {
  it('reads Git Bash and Cygwin drive paths and forward slashes as Windows paths', () => {
    expect(nativePath('/c/Users/me/src/a.ts', 'win32')).toBe('C:\\Users\\me\\src\\a.ts')
    expect(nativePath('/cygdrive/d/work', 'win32')).toBe('D:\\work')
    expect(nativePath('/c', 'win32')).toBe('C:\\')
    expect(nativePath('C:/Users/me/a.ts', 'win32')).toBe('C:\\Users\\me\\a.ts')
    expect(nativePath('C:\\Users\\me\\a.ts', 'win32')).toBe('C:\\Users\\me\\a.ts')
    expect(nativePath('src/a.ts', 'win32')).toBe('src\\a.ts')
    // A longer first segment is not a drive.
    expect(nativePath('/cd/x', 'win32')).toBe('\\cd\\x')
  })

  it('leaves paths alone elsewhere', () => {
    expect(nativePath('/c/Users/me', 'linux')).toBe('/c/Users/me')
    expect(nativePath('C:/x', 'darwin')).toBe('C:/x')
  })
})

describe('findPowerShell (a skill\'s shell: powershell)', () => {
  it('takes pwsh from PATH, falls back to powershell.exe on Windows, and elsewhere says what to install', () => {
    const onDisk = new Set(['/opt/ps/pwsh', 'C:\\Program Files\\PowerShell\\7\\pwsh.exe'])
    const isFile = (file: string) => onDisk.has(file)
    expect(findPowerShell({ platform: 'linux', env: { PATH: '/usr/bin:/opt/ps' }, isFile })).toBe('/opt/ps/pwsh')
    expect(findPowerShell({ platform: 'win32', env: { Path: 'C:\\Windows;C:\\Program Files\\PowerShell\\7' }, isFile })).toBe('C:\\Program Files\\PowerShell\\7\\pwsh.exe')
    expect(findPowerShell({ platform: 'win32', env: { Path: 'C:\\Windows' }, isFile })).toBe('powershell.exe')
    expect(() => findPowerShell({ platform: 'linux', env: { PATH: '/usr/bin' }, isFile })).toThrow('shell "powershell" needs PowerShell 7 (pwsh) on PATH')
  })
})
