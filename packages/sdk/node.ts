// `@seam/sdk/node`: run-time helpers for host parts (they run in Node, in the Host's process).
// The host's own implementations, re-exported.

/** Watches files (through their folders, so editors' replace-on-save is seen), debounced. */
export { watchPatchFiles, type PatchWatchOptions, type StopWatching } from '../../src-main/plugins/watch'
/** How the built-in file tools resolve and confine paths, for policies that must agree with them. */
export { resolveToolPath, splitGlob, hasParentSegment, isWithin, type GlobRoot } from '../../src-main/tools/builtin/paths'
/**
 * Starts a child process (or a shell command) as the leader of its own process group, killed with
 * the host if the host dies (even by SIGKILL) until the run is released.
 */
export {
  spawnGuarded,
  spawnShellCommand,
  killWatchedGroups,
  MAX_INLINE_COMMAND_BYTES,
  type GuardedProcess,
  type GuardedSpawnOptions,
  type ShellCommandOptions
} from '../../src-main/process/guarded-spawn'
/**
 * The shell for `-c` commands: the given POSIX one on Linux and macOS, Git for Windows' bash.exe
 * on Windows (CLAUDE_CODE_GIT_BASH_PATH, the install places, PATH), as Claude Code finds it; and
 * Windows paths in the forms Claude Code accepts there (`/c/Users/me`).
 */
export {
  commandShell,
  findGitBash,
  gitBashInstallPlaces,
  nativePath,
  PosixShellMissingError,
  GIT_BASH_SETTING,
  type ShellLookup
} from '../../src-main/process/command-shell'
/** Which environment variables hold provider keys, so child processes do not inherit them. */
export { defaultKeyGuard, type KeyGuard, type ChildEnvFor } from '../../src-main/security/keys'
/** Seam's own version (the install's package.json), e.g. for a protocol's clientInfo. */
export { SEAM_VERSION } from '../../src-main/app/seam-version'
/** Writes a whole file so that a crash leaves the old content or the new, never half of it. */
export { writeFileAtomic } from '../../src-main/app/atomic-file'
/**
 * A lock file shared by Seam's processes, for work that must not interleave with the same work in
 * another one (a read-modify-write of a shared file): it names its owner's pid, a live owner is
 * waited for (FileLockBusyError after `patienceMs`), a dead one's lock is taken over.
 */
export { withFileLock, withFileLockSync, FileLockBusyError, type FileLockOptions } from '../../src-main/process/file-lock'
/** Whether a process with this pid exists on this machine (another user's counts). */
export { processAlive } from '../../src-main/process/process-alive'
/**
 * Claude Code's slash command text, as custom commands and skills share it: argument substitution
 * (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`, `$name`), shell-like argument splitting, and the
 * `` !`cmd` `` lines (found, run through the guarded process service, replaced by their output).
 */
export { substituteClaude, splitArguments, shellLinesOf, replaceShellLines, runShellLine } from '../../src-main/commands/expand'
/** Claude Code's Markdown files (commands, skills): front matter checked against a zod schema (`argument-hint: [x]` kept as text), `allowed-tools` split at top-level commas. */
export { parseFrontMatter, splitRules } from '../../src-main/commands/custom'
/**
 * Claude Code's settings files (user, then a trusted workspace's project and local) and Codex's
 * home, found as Claude Code and Codex find them; a settings file read without throwing (the
 * problem names the file) and one key of it set atomically, keeping the others.
 */
export {
  claudeUserSettingsPath,
  codexHomePath,
  claudeWorkspaceSettingsFiles,
  claudeSettingsFiles,
  readSettingsJson,
  setSettingsKey,
  type ClaudeSettingsScope,
  type ClaudeSettingsFile,
  type SettingsJson
} from '../../src-main/app/claude-settings-files'
