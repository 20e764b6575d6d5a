// Bash: runs a command in a real shell in the session's directory, streaming its output live.
import { randomUUID } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import type { BackgroundTaskInfo, BackgroundTaskService, RunningCommand } from '../../../src-shared/host/background-tasks'
import type { Disposable } from '../../../src-shared/kernel/types'
import type { ToolDefinition, ToolExec, ToolOutput } from '../../../src-shared/host/tools'
import { defaultKeyGuard, type KeyGuard } from '../../security/keys'
import { resolveBuiltinToolOptions, type BuiltinToolOptionsInput } from './options'
import { truncateMiddle } from './output-limit'
import { runShellCommand, type ShellRun } from './shell-process'

export function bashInputSchema(maxTimeoutMs: number) {
  return z.object({
    command: z.string().min(1).describe('The shell command to run.'),
    timeout: z
      .number()
      .int()
      .positive()
      .max(maxTimeoutMs)
      .optional()
      .describe(`Optional timeout in milliseconds (at most ${maxTimeoutMs}). When it passes, the command is moved to the background (commands starting with sleep, or running git, are killed instead).`),
    description: z
      .string()
      .optional()
      .describe('A short (5-10 word) description of what the command does, shown to the user, e.g. "List files in the current directory".'),
    run_in_background: z
      .boolean()
      .optional()
      .describe('Set to true to run this command in the background. Its output goes to a file you can Read, or read with TaskOutput; stop it with TaskStop. You are told when it ends.')
  })
}

export const BACKGROUND_UNAVAILABLE = 'run_in_background is not available: the background-tasks plugin is disabled. Run the command in the foreground (give it a `timeout` if it is slow).'

export type BashArgs = z.output<ReturnType<typeof bashInputSchema>>

/**
 * Claude Code's Bash tool_response (claude-code-hooks.md §6 PostToolUse), then `output`: both
 * streams untrimmed in arrival order, which is Codex's tool_response (codex-hooks.md §4). The
 * Claude bridge passes only Claude's five keys (`CLAUDE_BASH_RESPONSE_KEYS`).
 */
export interface BashStructured {
  stdout: string
  stderr: string
  interrupted: boolean
  isImage: false
  /** The command is one that prints nothing when it works (mkdir, touch, a redirect to a file, ...). */
  noOutputExpected: boolean
  output: string
  /** Claude Code's: the task the command runs on as, when it runs in the background. */
  backgroundTaskId?: string
  /** Claude Code's: the user moved the running command to the background (Ctrl+B). */
  backgroundedByUser?: boolean
  /** Claude Code's: the timeout after which a foreground command was moved to the background. */
  timedOutAfterMs?: number
  /** Where a background command's output is written. */
  persistedOutputPath?: string
}

/**
 * `keys` strips Seam's provider keys from the command's environment (the host's guard; without
 * a host, the default key variables).
 */
/** Where Bash hands background commands (the background-tasks plugin's service; absent when it is disabled). */
export type BackgroundTasksAccess = () => BackgroundTaskService | undefined

export function createBashTool(
  input: BuiltinToolOptionsInput = {},
  keys: Pick<KeyGuard, 'childEnv'> = defaultKeyGuard,
  background: BackgroundTasksAccess = () => undefined
): ToolDefinition<BashArgs> {
  const options = resolveBuiltinToolOptions(input)
  return {
    name: 'Bash',
    description: [
      `Runs a shell command (bash -c, or sh when bash is missing) in the session's working directory and returns its stdout, stderr and exit code.`,
      `- The working directory carries over to the next call (cd inside the workspace); exported variables and shell options do not.`,
      `- A command still running after ${options.bashDefaultTimeoutMs} ms (or \`timeout\`, at most ${options.bashMaxTimeoutMs}) is moved to the background when background tasks are on, else killed with everything it started.`,
      `- \`run_in_background: true\` starts a long-running command (a dev server, a watcher) and returns its task id and output file at once.`,
      `- Standard input is closed: interactive commands (editors, pagers, prompts) cannot be answered; pass flags such as --yes or --no-pager.`,
      `- Output beyond ${options.maxOutputChars} characters keeps its beginning and end, with a marker where text was cut.`,
      `- Prefer the Read, Edit, Write, Glob and Grep tools over cat, sed, echo >, find and grep for files.`,
      `- Quote paths that contain spaces. Chain dependent commands with &&.`
    ].join('\n'),
    inputSchema: bashInputSchema(options.bashMaxTimeoutMs),
    sideEffects: true,
    concurrent: false,
    timeoutMs: options.bashDefaultTimeoutMs,
    endsAtOwnDeadline: true,
    async execute(args: BashArgs, exec: ToolExec): Promise<ToolOutput> {
      const tasks = background()
      if (args.run_in_background) {
        if (!tasks) return failure(BACKGROUND_UNAVAILABLE)
        const refused = tasks.refusal(exec.sessionId)
        if (refused) return failure(refused)
      }
      const cwdProblem = await checkDirectory(exec.cwd)
      if (cwdProblem) return failure(cwdProblem)
      if (exec.signal.aborted) return failure('The command was not started: the call was aborted.')
      const timeoutMs = args.timeout ?? options.bashDefaultTimeoutMs
      let task: BackgroundTaskInfo | undefined
      // Moved by itself: at once (`run_in_background`), or at its deadline unless Claude Code would kill it then.
      const automatic: 'start' | 'deadline' | undefined = args.run_in_background ? 'start' : movesToBackground(args.command) ? 'deadline' : undefined
      let byUser = false
      let tracked: Disposable | undefined
      const handOver = tasks
        ? {
            ...(automatic ? { when: automatic } : {}),
            take: (running: RunningCommand, outputSoFar: string) => {
              // A foreground command moves only while the cap allows (else, at its deadline, it is killed as before).
              if (!args.run_in_background && tasks.refusal(exec.sessionId) !== undefined) return false
              task = tasks.adopt({
                sessionId: exec.sessionId,
                command: args.command,
                ...(args.description !== undefined ? { description: args.description } : {}),
                outputSoFar,
                running: removingOnExit(running, cwdFile),
                ...(automatic === 'deadline' && !byUser ? { movedAfterTimeoutMs: timeoutMs } : {})
              })
              return true
            },
            // While it runs in the foreground, the user may move it (Ctrl+B, the card's control).
            ...(args.run_in_background
              ? {}
              : {
                  onReady: (handOverNow: () => boolean) => {
                    tracked = tasks.trackForeground({
                      sessionId: exec.sessionId,
                      token: exec.token,
                      command: args.command,
                      moveToBackground: () => {
                        byUser = true
                        if (handOverNow() && task) return task
                        byUser = false
                        return { refused: tasks.refusal(exec.sessionId) ?? 'The command is no longer running.' }
                      }
                    })
                  }
                })
          }
        : undefined
      // Where the shell ended up is written to a file, so the session can continue there (Claude Code keeps the cwd).
      const cwdFile = exec.moveCwd && !args.run_in_background ? path.join(tmpdir(), `seam-cwd-${randomUUID()}`) : undefined
      const run = await runShellCommand({
        command: cwdFile ? trackingCwd(args.command, cwdFile) : args.run_in_background ? oneStream(args.command) : args.command,
        cwd: exec.cwd,
        env: keys.childEnv({ ...process.env, ...exec.env }),
        timeoutMs,
        signal: exec.signal,
        maxCaptureChars: options.maxOutputChars,
        killGraceMs: options.bashKillGraceMs,
        ...(handOver ? { handOver } : {}),
        onOutput: (stream, text) => {
          try {
            exec.progress({ stream, text })
          } catch {
            // A failing progress sink (e.g. a closed UI channel) must not end the command; the result still carries the output.
          }
        }
      }).finally(() => tracked?.())
      if (run.handedOver && task) return backgroundOutput(run, task, args.command, byUser)
      const output = bashOutput(run, timeoutMs, options.maxOutputChars, args.command)
      if (!cwdFile || !exec.moveCwd) return output
      const ended = readEndCwd(cwdFile)
      if (ended === undefined || ended === exec.cwd) return output
      const now = exec.moveCwd(ended)
      // As Claude Code words it when the shell left the project.
      return now === ended ? output : { ...output, content: `${output.content}\nShell cwd was reset to ${now}` }
    }
  }
}

/**
 * Whether a command that reaches its timeout is moved to the background. As in Claude Code, not
 * one that starts with `sleep` (waiting is what it was asked to do) nor one that runs git (a git
 * command left running holds the repository's lock).
 */
export function movesToBackground(command: string): boolean {
  return !/^\s*sleep\b/.test(command) && !/(?:^|[\s;&|(`$])git(?:\s|$|[;&|)])/.test(command)
}

/** The command, whose cwd-tracking file (written when it ends) is removed then: nobody reads it after a hand-over. */
function removingOnExit(running: RunningCommand, file: string | undefined): RunningCommand {
  if (file === undefined) return running
  return {
    ...running,
    attach: (sink) =>
      running.attach({
        output: (text) => sink.output(text),
        exit: (code) => {
          rmSync(file, { force: true })
          sink.exit(code)
        }
      })
  }
}

/**
 * Claude Code's text for a command that runs on in the background: where it runs, preceded, for
 * one moved at its timeout, by `Command did not complete within its 120s timeout and was moved to
 * the background.` (the timeout in seconds).
 */
export function backgroundText(taskId: string, outputPath: string, movedAfterTimeoutMs?: number, byUser = false): string {
  // Claude Code's words for a command the user moved with Ctrl+B (its result carries nothing else).
  if (byUser) return `Command was manually backgrounded by user with ID: ${taskId}. Output is being written to: ${outputPath}`
  const where = `Command running in background with ID: ${taskId}. Output is being written to: ${outputPath}`
  return movedAfterTimeoutMs === undefined ? where : `Command did not complete within its ${movedAfterTimeoutMs / 1000}s timeout and was moved to the background.\n${where}`
}

/**
 * Claude Code's answer for a command that runs on in the background (also for one in an ACP
 * client's terminal). One the user moved (`byUser`) answers as Claude Code's does: empty
 * `stdout`/`stderr` (what it printed so far is in the task's output file) and `backgroundedByUser`.
 */
export function backgroundOutput(run: Pick<ShellRun, 'stdout' | 'stderr' | 'output'>, task: BackgroundTaskInfo, command: string, byUser = false): ToolOutput {
  const timedOut = task.movedAfterTimeoutMs
  const content = backgroundText(task.id, task.outputPath, timedOut, byUser)
  const structured: BashStructured = {
    stdout: byUser ? '' : stripBlankLines(run.stdout),
    stderr: byUser ? '' : stripBlankLines(run.stderr),
    interrupted: false,
    isImage: false,
    noOutputExpected: expectsNoOutput(command),
    output: run.output,
    backgroundTaskId: task.id,
    ...(byUser ? { backgroundedByUser: true } : {}),
    persistedOutputPath: task.outputPath,
    ...(timedOut !== undefined ? { timedOutAfterMs: timedOut } : {})
  }
  return { content, isError: false, structured }
}

/**
 * A command started in the background writes stdout and stderr to one pipe, so its output file
 * holds them in the order it wrote them, merged as Claude Code merges them; from two pipes they
 * arrive in whichever order the host happens to read them. On the command's own line, so an
 * error still names line 1.
 */
function oneStream(command: string): string {
  return `exec 2>&1; ${command}`
}

/** The command, then its final directory written to `file`; the command's own exit status is kept. */
function trackingCwd(command: string, file: string): string {
  return `eval ${shellQuote(command)}\n__seam_status=$?\npwd -P >| ${shellQuote(file)} 2>/dev/null\nexit $__seam_status`
}

/** Synchronous on purpose: a few bytes in a temp file, read at once instead of two thread-pool round trips on every call's path to its result. */
function readEndCwd(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8').replace(/\n$/, '')
    return text === '' ? undefined : text
  } catch {
    // The command exited the shell itself (`exit`, `set -e`): the directory stays as it was.
    return undefined
  } finally {
    rmSync(file, { force: true })
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** Claude Code's trimming of Bash output: blank lines at the start and the end go, indentation stays. */
export function stripBlankLines(text: string): string {
  const lines = text.split('\n')
  let start = 0
  let end = lines.length
  while (start < end && lines[start].trim() === '') start++
  while (end > start && lines[end - 1].trim() === '') end--
  return lines.slice(start, end).join('\n')
}

/** Commands that print nothing when they work. */
const SILENT_COMMANDS = new Set(['mkdir', 'touch', 'cp', 'mv', 'rm', 'rmdir', 'ln', 'chmod', 'chown', 'chgrp', 'cd', 'export', 'unset', 'wait', 'true', ':'])

/**
 * Whether the command is expected to print nothing (Claude Code's `noOutputExpected`): every part
 * of it (split on `&&`, `||`, `;`) is a silent command, or sends its stdout to a file.
 */
export function expectsNoOutput(command: string): boolean {
  const firstLine = command.split('\n')[0]
  const parts = firstLine.split(/&&|\|\||;/).map((part) => part.trim()).filter((part) => part !== '')
  // A pipeline's last command prints: not silent.
  if (parts.length === 0 || /(?<!\|)\|(?!\|)/.test(firstLine)) return false
  return parts.every((part) => {
    const word = part.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*/, '').split(/\s+/)[0] ?? ''
    return SILENT_COMMANDS.has(word) || /(?:^|[^0-9&>])>>?\s*[^\s&]/.test(part)
  })
}

/**
 * The result the model reads for a finished run (also used when the command ran in an editor's
 * terminal, which gives one combined stream). `command` decides `noOutputExpected`.
 */
export function bashOutput(run: Omit<ShellRun, 'output'> & { output?: string }, timeoutMs: number, maxChars: number, command = ''): ToolOutput {
  if (run.spawnError) return failure(`Could not start the shell: ${run.spawnError}`)
  const interrupted = run.interruptedBy !== undefined
  const parts: string[] = []
  const stdout = stripBlankLines(run.stdout)
  const stderr = stripBlankLines(run.stderr)
  // Claude Code's wording: a failed command reads `Exit code N` first, then its output.
  if (!interrupted && run.exitCode !== 0) parts.push(`Exit code ${run.exitCode}`)
  if (stdout) parts.push(stdout)
  if (stderr) parts.push(stderr)
  if (run.interruptedBy === 'timeout') parts.push(`Command timed out after ${timeoutMs} ms and was killed.`)
  else if (run.interruptedBy === 'abort') parts.push('Command was aborted.')
  const structured: BashStructured = { stdout, stderr, interrupted, isImage: false, noOutputExpected: expectsNoOutput(command), output: run.output ?? run.stdout + run.stderr }
  return {
    content: parts.length > 0 ? truncateMiddle(parts.join('\n'), maxChars) : '(no output)',
    isError: interrupted || run.exitCode !== 0,
    structured
  }
}

async function checkDirectory(dir: string): Promise<string | undefined> {
  try {
    const info = await stat(dir)
    return info.isDirectory() ? undefined : `The working directory ${dir} is not a directory.`
  } catch {
    return `The working directory ${dir} does not exist.`
  }
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}

export const bashTool = createBashTool()
