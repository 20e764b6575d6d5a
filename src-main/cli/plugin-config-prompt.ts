// Asking for a Claude Code plugin's userConfig on the terminal, as `claude plugin enable` does when
// the plugin is enabled: one question per option without a value, the default in brackets, a
// sensitive option typed without echo. The controlling terminal (/dev/tty) is used, not stdin
// (stdin may be a pipe); without one nothing is asked and the caller says what is missing.
import { closeSync, openSync } from 'node:fs'
import { createInterface } from 'node:readline/promises'
import { ReadStream, WriteStream } from 'node:tty'
import type { Readable, Writable } from 'node:stream'
import type { UserConfigField } from '../../plugins/claude-plugins/index'

export interface PromptStreams {
  input: Readable & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown }
  output: Writable
}

/** The answers typed for `fields` (an empty answer leaves the option as it is). */
export async function askUserConfig(plugin: string, fields: readonly UserConfigField[], streams: PromptStreams): Promise<Record<string, string>> {
  const answers: Record<string, string> = {}
  if (fields.length === 0) return answers
  streams.output.write(`${plugin} asks for its settings (kept in Seam's home, readable only by you; empty keeps the current value):\n`)
  const rl = createInterface({ input: streams.input, terminal: false, crlfDelay: Infinity })
  const lines = rl[Symbol.asyncIterator]()
  try {
    for (const field of fields) {
      const shown = field.sensitive ? (field.set ? ' [set]' : '') : field.value !== undefined ? ` [${String(field.value)}]` : ''
      streams.output.write(`  ${field.title ?? field.key} (${field.key}${field.required ? ', required' : ''}${field.sensitive ? ', hidden' : ''})${field.description ? `: ${field.description}` : ''}${shown}: `)
      const raw = field.sensitive && streams.input.isTTY === true && streams.input.setRawMode !== undefined
      if (raw) streams.input.setRawMode?.(true)
      let next: IteratorResult<string>
      try {
        next = await lines.next()
      } finally {
        if (raw) {
          streams.input.setRawMode?.(false)
          streams.output.write('\n')
        }
      }
      if (next.done === true) break
      const answer = next.value.replace(/\r$/, '')
      if (answer !== '') answers[field.key] = answer
    }
  } finally {
    rl.close()
  }
  return answers
}

/** `question [y/N] ` answered on the terminal: true only for y or yes. */
export async function askYesNo(question: string, streams: PromptStreams): Promise<boolean> {
  streams.output.write(`${question} [y/N] `)
  const rl = createInterface({ input: streams.input, terminal: false, crlfDelay: Infinity })
  try {
    const next = await rl[Symbol.asyncIterator]().next()
    return next.done !== true && /^y(es)?$/i.test(next.value.trim())
  } finally {
    rl.close()
  }
}

/** Runs `ask` with the controlling terminal, or returns undefined when there is none. */
export async function withTerminal<T>(ask: (streams: PromptStreams) => Promise<T>): Promise<T | undefined> {
  let inFd: number
  let outFd: number
  try {
    inFd = openSync('/dev/tty', 'r')
  } catch {
    return undefined
  }
  try {
    outFd = openSync('/dev/tty', 'w')
  } catch {
    closeSync(inFd)
    return undefined
  }
  const input = new ReadStream(inFd)
  const output = new WriteStream(outFd)
  try {
    return await ask({ input, output })
  } finally {
    input.destroy()
    output.destroy()
  }
}
