// Headless answerers of the approval seam (S11): ask on the terminal, or answer every ask the
// same way (--approve allow|deny). With no terminal, an ask is refused with the reason.
import { createInterface } from 'node:readline/promises'
import { closeSync, openSync } from 'node:fs'
import { ReadStream, WriteStream } from 'node:tty'
import { definePlugin } from '../../src-shared/kernel'
import type { ApprovalAnswer, ApprovalRequest } from '../../src-shared/host/tools'
import '../../src-shared/host/tools'
import { approvalText, wantsColor } from './approval-text'

export type ApproveMode = 'ask' | 'allow' | 'deny'

export function terminalApprovalPlugin(mode: ApproveMode, out: NodeJS.WritableStream = process.stderr) {
  return definePlugin({
    name: `approval-cli-${mode}`,
    apply(ctx) {
      ctx.on('approval/request', async (request) => {
        if (mode === 'allow') return { outcome: 'allowed-once', by: 'cli --approve allow' }
        if (mode === 'deny') return { outcome: 'denied', by: 'cli --approve deny', note: 'denied by --approve deny' }
        // Answered elsewhere first (a channel's permission relay): the question on the terminal is
        // withdrawn, so it does not hold up the next one.
        const elsewhere = new AbortController()
        const off = ctx.on('approval/settled', (id) => {
          if (id === request.id) elsewhere.abort()
        })
        try {
          const answer = await askOnTerminal({ ...request, signal: AbortSignal.any([request.signal, elsewhere.signal]) }, out, ctx.maybe('workspace')?.root ?? null)
          if (elsewhere.signal.aborted) out.write('  answered elsewhere\n')
          return answer
        } finally {
          off()
        }
      })
    }
  })
}

/** Where [a] saves (Claude Code's localSettings). */
const ALWAYS_FILE = '.claude/settings.local.json'
const USER_RULES_FILE = 'permissions.json'

let queue: Promise<unknown> = Promise.resolve()

/** One question at a time, on the controlling terminal (stdin may be a pipe of prompts). */
function askOnTerminal(request: ApprovalRequest, out: NodeJS.WritableStream, workspace: string | null): Promise<ApprovalAnswer> {
  const next = queue.then(() => askOnce(request, out, workspace))
  queue = next.catch(() => undefined)
  return next
}

async function askOnce(request: ApprovalRequest, out: NodeJS.WritableStream, workspace: string | null): Promise<ApprovalAnswer> {
  if (request.signal.aborted) return { outcome: 'cancelled', by: 'cli' }
  // The controlling terminal, not stdin: prompts may arrive on a pipe. tty streams (not fs
  // streams) so that no blocking read outlives the question.
  let inFd: number
  let outFd: number
  try {
    inFd = openSync('/dev/tty', 'r')
  } catch {
    return { outcome: 'unavailable', by: 'cli', note: 'no terminal to ask the user (run with --approve allow or deny)' }
  }
  try {
    outFd = openSync('/dev/tty', 'w')
  } catch {
    closeSync(inFd)
    return { outcome: 'unavailable', by: 'cli', note: 'no terminal to ask the user (run with --approve allow or deny)' }
  }
  const input = new ReadStream(inFd)
  const output = new WriteStream(outFd)
  const rl = createInterface({ input, output })
  try {
    out.write(`\n${approvalText(request, { color: wantsColor(out), workspace })}`)
    // The rules [s] and [a] add, shown before anything is saved.
    const rules = request.scope.rules ?? []
    if (rules.length > 0) {
      const them = rules.length === 1 ? 'it' : 'them'
      out.write(`  [s], [a] and [u] allow: ${rules.join(', ')}\n  [a] saves ${them} in ${ALWAYS_FILE} (this workspace), [u] in your Seam rules (${USER_RULES_FILE} in the Seam home, every workspace)\n`)
    }
    const choices = rules.length > 0
      ? '[y] allow once  [s] allow for this session  [a] always allow here  [u] always allow everywhere  [n] deny (Enter): '
      : `[y] allow once  [s] allow for this session (${request.scope.description})  [n] deny (Enter): `
    const answer = (await rl.question(`  ${choices}`, { signal: request.signal })).trim().toLowerCase()
    if (answer === 'y' || answer === 'yes') return { outcome: 'allowed-once', by: 'cli' }
    if (answer === 's') return { outcome: 'allowed-session', by: 'cli' }
    if (answer === 'a' && rules.length > 0) return { outcome: 'allowed-always', by: 'cli', saveTo: 'workspace' }
    if (answer === 'u' && rules.length > 0) return { outcome: 'allowed-always', by: 'cli', saveTo: 'user' }
    const note = (await rl.question('  note for the model (optional): ', { signal: request.signal })).trim()
    return { outcome: 'denied', by: 'cli', note: note || undefined }
  } catch {
    return { outcome: 'cancelled', by: 'cli' }
  } finally {
    rl.close()
    input.destroy()
    output.destroy()
  }
}
