// `seam acp`: Seam as an ACP agent on stdin/stdout. stdout carries protocol messages only; every
// log line goes to stderr (console output of plugins included).
import { Readable, Writable } from 'node:stream'
import { format } from 'node:util'
import * as acp from '@agentclientprotocol/sdk'
import type { ProviderConfig } from '../../src-shared/model'
import { keyEnvFor, providerFromFlags, type ProviderFlags } from '../cli/provider-flags'
import { UsageError } from '../cli/usage-error'
import type { ApproveMode } from './permission'
import { AcpServer } from './server'
import { protocolStream } from './wire'
import { onStopSignal } from '../app/stop-signals'
import { killWatchedGroups } from '../process/guarded-spawn'

export interface AcpFlags extends ProviderFlags {
  approve?: string
  'trust-workspace'?: boolean
  patch?: string
  'max-steps'?: string
}

export interface AcpIo {
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  env: NodeJS.ProcessEnv
}

export async function runAcp(flags: AcpFlags, patchFile: string | undefined, io: AcpIo): Promise<number> {
  const approve = (flags.approve ?? 'ask') as ApproveMode
  if (!['ask', 'allow', 'deny'].includes(approve)) throw new UsageError(`--approve must be ask, allow or deny (got "${flags.approve}")`)
  const maxSteps = flags['max-steps'] === undefined ? undefined : Number(flags['max-steps'])
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) throw new UsageError('--max-steps must be a positive integer')
  // A missing key is reported to the editor (initialize's auth methods, session/new's error), not at start-up.
  const provider: ProviderConfig | undefined = providerFromFlags(flags, io.env, false)
  const log = (message: string) => io.stderr.write(`seam acp: ${message}\n`)
  routeConsoleTo(io.stderr)
  if (flags['trust-workspace']) log('--trust-workspace: hooks and patches declared in every workspace this editor opens will run')

  const server = new AcpServer({
    env: io.env,
    provider,
    keyEnv: flags.provider ? keyEnvFor(flags.provider, flags) : undefined,
    trustWorkspace: flags['trust-workspace'] === true,
    patchFile,
    approve,
    maxSteps,
    log
  })
  const stream = acp.ndJsonStream(
    Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>
  )
  // A stop signal ends the connection; the sessions then close (turns cancelled, hooks, tools and
  // MCP servers stopped, logs flushed) and the exit status is the signal's (130, 143, 129).
  const signals = onStopSignal(() => server.stop(), { log })
  try {
    await server.serve(protocolStream(stream))
  } finally {
    signals.dispose()
    // What outlived the sessions' clean close (a tool's background job) goes before we exit.
    if (signals.received) killWatchedGroups()
  }
  return signals.exitCode ?? 0
}

/** Plugins and libraries that log with console.* must not write into the protocol stream. */
function routeConsoleTo(stderr: NodeJS.WritableStream): void {
  const write = (...args: unknown[]) => {
    stderr.write(format(...args) + '\n')
  }
  console.log = write
  console.info = write
  console.debug = write
  console.warn = write
}
