// What `seam run` shows: assistant text streams to stdout; tool calls, results, notices, hook
// failures and turn ends go to stderr. With --json, every session event is one JSON line.
import type { SessionEvent } from '../../src-shared/session/events'
import type { HostRuntime } from '../app/runtime'

interface Io {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

export function attachPrinter(runtime: HostRuntime, sessionId: string, json: boolean, io: Io): () => void {
  const hookCommands = new Map<string, string>()
  const offEvents = runtime.sessions.onAppended((id, event) => {
    if (id !== sessionId) return
    if (json) io.stdout.write(JSON.stringify(event) + '\n')
    else printEvent(event, io, hookCommands)
  })
  let midLine = false
  const offDelta = json
    ? () => {}
    : runtime.eachKernel((kernel) =>
        kernel.context.on('agent/delta', (id, delta) => {
          if (id !== sessionId || delta.kind !== 'text') return
          io.stdout.write(delta.text)
          midLine = !delta.text.endsWith('\n')
        })
      )
  const offTurn = json
    ? () => {}
    : runtime.sessions.onAppended((id, event) => {
        if (id === sessionId && event.type === 'assistant/message' && midLine) {
          io.stdout.write('\n')
          midLine = false
        }
      })
  return () => {
    offEvents()
    offDelta()
    offTurn()
  }
}

function firstLines(text: string, lines = 6): string {
  const all = text.split('\n')
  const shown = all.slice(0, lines).map((l) => `    ${l}`).join('\n')
  return all.length > lines ? `${shown}\n    … ${all.length - lines} more lines` : shown
}

function printEvent(event: SessionEvent, io: Io, hookCommands: Map<string, string>): void {
  const err = io.stderr
  switch (event.type) {
    case 'tool/call':
      err.write(`● ${event.name}(${JSON.stringify(event.args)})${event.originalArgs ? `  [rewritten by ${event.rewrittenBy ?? 'a policy'}]` : ''}\n`)
      break
    case 'tool/result':
      err.write(`  ${event.isError ? `✗ ${event.code ?? 'error'}` : '✓'} ${event.name} (${Math.round(event.durationMs)} ms)\n${firstLines(event.content)}\n`)
      break
    case 'prompt/blocked':
      err.write(`prompt blocked${event.by ? ` by ${event.by}` : ''}: ${event.reason}\n`)
      break
    case 'notice':
      err.write(`[${event.level}] ${event.source}: ${event.text}\n`)
      break
    case 'context/message':
      // A channel message, as Claude Code's terminal shows one: `← webhook: build failed on main`.
      if (event.channel) err.write(`← ${event.channel.server}: ${event.channel.content.replace(/\s*\n\s*/g, ' ')}\n`)
      break
    case 'mentions/attached':
      for (const file of event.files) err.write(file.error === undefined ? `@ attached ${file.path}\n` : `[warn] @${file.mention}: ${file.error}\n`)
      break
    case 'hook/invoked':
      hookCommands.set(event.invocationId, event.command)
      break
    case 'hook/result': {
      const command = hookCommands.get(event.invocationId) ?? ''
      hookCommands.delete(event.invocationId)
      if (event.failureKind || event.outcomeKind === 'error') {
        err.write(`[${event.source} hook ${event.event} failed: ${event.failureKind ?? 'error'}] ${command}${event.errorMessage ? `: ${event.errorMessage}` : ''}\n`)
      }
      break
    }
    case 'approval/decided':
      if (!event.outcome.startsWith('allowed-')) err.write(`approval ${event.outcome}${event.note ? `: ${event.note}` : ''}\n`)
      break
    case 'turn/end':
      if (event.reason !== 'completed') err.write(`turn ended: ${event.reason}${event.error ? `: ${event.error}` : ''}\n`)
      break
    default:
      break
  }
}
