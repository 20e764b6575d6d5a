// Bash: runs a command in a real shell in the session's directory, streaming its output live.
import { stat } from 'node:fs/promises'
import { z } from 'zod'
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
      .describe(`Optional deadline in milliseconds (at most ${maxTimeoutMs}). When it passes, the command and everything it started are killed.`),
    description: z
      .string()
      .optional()
      .describe('A short (5-10 word) description of what the command does, shown to the user, e.g. "List files in the current directory".'),
    run_in_background: z.boolean().optional().describe('Not supported yet: must be omitted or false.')
  })
}

export type BashArgs = z.output<ReturnType<typeof bashInputSchema>>

/** Claude Code's Bash tool_response fields, plus the exit code. */
export interface BashStructured {
  stdout: string
  stderr: string
  exitCode: number
  interrupted: boolean
  isImage: false
}

/**
 * `keys` strips Seam's provider keys from the command's environment (the host's guard; without
 * a host, the default key variables).
 */
export function createBashTool(input: BuiltinToolOptionsInput = {}, keys: Pick<KeyGuard, 'childEnv'> = defaultKeyGuard): ToolDefinition<BashArgs> {
  const options = resolveBuiltinToolOptions(input)
  return {
    name: 'Bash',
    description: [
      `Runs a shell command (bash -c, or sh when bash is missing) in the session's working directory and returns its stdout, stderr and exit code.`,
      `- Each call is a fresh shell: cd, exported variables and shell options do not carry over to the next call.`,
      `- The command is killed with everything it started after ${options.bashDefaultTimeoutMs} ms unless \`timeout\` (ms, at most ${options.bashMaxTimeoutMs}) says otherwise.`,
      `- Standard input is closed: interactive commands (editors, pagers, prompts) cannot be answered; pass flags such as --yes or --no-pager.`,
      `- Output beyond ${options.maxOutputChars} characters keeps its beginning and end, with a marker where text was cut.`,
      `- Prefer the Read, Edit, Write, Glob and Grep tools over cat, sed, echo >, find and grep for files.`,
      `- Quote paths that contain spaces. Chain dependent commands with &&.`
    ].join('\n'),
    inputSchema: bashInputSchema(options.bashMaxTimeoutMs),
    sideEffects: true,
    concurrent: false,
    timeoutMs: options.bashDefaultTimeoutMs,
    async execute(args: BashArgs, exec: ToolExec): Promise<ToolOutput> {
      if (args.run_in_background) {
        return failure('run_in_background is not supported yet. Run the command in the foreground (give it a `timeout` if it is slow), or start it with nohup ... & and redirect its output to a file.')
      }
      const cwdProblem = await checkDirectory(exec.cwd)
      if (cwdProblem) return failure(cwdProblem)
      if (exec.signal.aborted) return failure('The command was not started: the call was aborted.')
      const timeoutMs = args.timeout ?? options.bashDefaultTimeoutMs
      const run = await runShellCommand({
        command: args.command,
        cwd: exec.cwd,
        env: keys.childEnv({ ...process.env, ...exec.env }),
        timeoutMs,
        signal: exec.signal,
        maxCaptureChars: options.maxOutputChars,
        killGraceMs: options.bashKillGraceMs,
        onOutput: (stream, text) => {
          try {
            exec.progress({ stream, text })
          } catch {
            // A failing progress sink (e.g. a closed UI channel) must not end the command; the result still carries the output.
          }
        }
      })
      return bashOutput(run, timeoutMs, options.maxOutputChars)
    }
  }
}

/** The result the model reads for a finished run (also used when the command ran in an editor's terminal). */
export function bashOutput(run: ShellRun, timeoutMs: number, maxChars: number): ToolOutput {
  if (run.spawnError) return failure(`Could not start the shell: ${run.spawnError}`)
  const interrupted = run.interruptedBy !== undefined
  const parts: string[] = []
  const stdout = run.stdout.replace(/\s+$/, '')
  const stderr = run.stderr.replace(/\s+$/, '')
  if (stdout) parts.push(stdout)
  if (stderr) parts.push(stderr)
  if (run.interruptedBy === 'timeout') parts.push(`Command timed out after ${timeoutMs} ms and was killed.`)
  else if (run.interruptedBy === 'abort') parts.push('Command was aborted.')
  else if (run.exitCode !== 0) parts.push(`Exit code ${run.exitCode}`)
  const structured: BashStructured = { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode, interrupted, isImage: false }
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
