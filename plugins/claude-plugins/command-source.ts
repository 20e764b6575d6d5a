// The `command` plugin source (Claude Code v2.1.229): `{source: "command", command, timeout?, mode?}`
// runs a local tool that prints the plugin's folder. The command runs with the POSIX shell through
// the host's child-process service (its own process group, the host-death watcher, the key-stripped
// environment) in the marketplace's folder; the last non-empty line of its stdout, trimmed, is the
// folder (relative to the marketplace's folder). `copy` (the default) copies it into the cache as
// other sources are; `link` puts a symlink to it in the cache, so the plugin runs in place.
import { existsSync, statSync, symlinkSync } from 'node:fs'
import { resolve } from 'node:path'
import { commandShell, defaultKeyGuard, spawnShellCommand } from '@seam/sdk/node'
import { copyTree } from './fetch'
import { PluginManagerError } from './sources'

/** Seconds, as a hook's `timeout` is; the docs give no default, so Seam takes a minute. */
export const COMMAND_SOURCE_DEFAULT_TIMEOUT_SECONDS = 60
const STDERR_TAIL_CHARS = 2000

export interface CommandSource {
  command: string
  timeout?: number | undefined
  mode?: 'copy' | 'link' | undefined
}

/** Runs the source's command in `cwd` and brings the folder it prints into `dest` (a copy, or a link to it). */
export async function fetchCommandSource(source: CommandSource, dest: string, cwd: string): Promise<void> {
  const seconds = source.timeout ?? COMMAND_SOURCE_DEFAULT_TIMEOUT_SECONDS
  const result = await run(source.command, cwd, seconds)
  const label = `command source "${source.command}"`
  if (result.timedOut) throw new PluginManagerError(`${label}: timeout: still running after ${seconds}s, its process group was killed${tail(result.stderr)}`)
  if (result.code !== 0) throw new PluginManagerError(`${label}: command: exited with ${result.code ?? `signal ${result.signal}`}${tail(result.stderr)}`)
  const printed = result.stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '').at(-1)
  if (printed === undefined) throw new PluginManagerError(`${label}: command: printed no path on stdout${tail(result.stderr)}`)
  const folder = resolve(cwd, printed)
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new PluginManagerError(`${label}: command: printed "${printed}", which is not a folder (${folder})`)
  if (source.mode === 'link') symlinkSync(folder, dest, 'dir')
  else copyTree(folder, dest)
}

function tail(stderr: string): string {
  const text = stderr.trim()
  if (text === '') return ''
  return `; stderr: ${text.length > STDERR_TAIL_CHARS ? `…${text.slice(-STDERR_TAIL_CHARS)}` : text}`
}

interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  timedOut: boolean
}

function run(command: string, cwd: string, seconds: number): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    let guarded: ReturnType<typeof spawnShellCommand>
    try {
      guarded = spawnShellCommand({ shell: commandShell('/bin/sh'), command, cwd, env: defaultKeyGuard.childEnv(process.env), stdin: 'ignore' })
    } catch (error) {
      reject(new PluginManagerError(`command source "${command}": could not start: ${(error as Error).message}`))
      return
    }
    let stdout = ''
    let stderr = ''
    let timedOut = false
    guarded.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    guarded.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => {
      timedOut = true
      guarded.signalGroup('SIGKILL')
    }, seconds * 1000)
    guarded.child.on('error', (error) => {
      clearTimeout(timer)
      guarded.release()
      reject(new PluginManagerError(`command source "${command}": could not start: ${error.message}`))
    })
    guarded.child.on('close', (code, signal) => {
      clearTimeout(timer)
      // A timed-out command's group (anything it started) is killed before it is let go.
      if (timedOut) guarded.signalGroup('SIGKILL')
      guarded.release()
      resolvePromise({ code, signal, stdout, stderr, timedOut })
    })
  })
}
