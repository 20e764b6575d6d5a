// Commands that run another command: the wrapper is seen through and the command it runs is what
// rules match, as Claude Code strips `timeout`, `time`, `nice`, `nohup` and `stdbuf` (and bare
// `xargs`) before matching. Seam also strips `env`, `command`, `builtin`, `exec` and `xargs` with
// options, and reads `bash -c '…'` payloads, so a deny rule sees the command wherever it sits.
import type { WordValue } from './words'

export interface ShellWord {
  value: WordValue
  /** Where the word is in the source, for the part's own text. */
  start: number
  end: number
}

export type Unwrapped =
  | { kind: 'command'; words: ShellWord[]; unknownArgs: boolean }
  | { kind: 'shell'; payload: string }
  | { kind: 'none' }
  | { kind: 'unreadable'; reason: string }

/** Options taking a value, per wrapper; other `-x` options stand alone. */
const WRAPPERS: Readonly<Record<string, { valued: readonly string[]; positional?: number }>> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: { valued: [] },
  time: { valued: ['-f', '--format', '-o', '--output'] },
  stdbuf: { valued: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  env: { valued: ['-u', '--unset', '-C', '--chdir'] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  xargs: { valued: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'] }
}

/** Shells whose `-c` payload is itself a command line. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh'])
const MAX_WRAPPERS = 16

/** Strips wrappers from the front of a simple command's words (its assignments already removed). */
export function unwrap(words: ShellWord[]): Unwrapped {
  let rest = words
  let unknownArgs = false
  for (let round = 0; round < MAX_WRAPPERS; round++) {
    const head = rest[0]
    if (!head) return { kind: 'none' }
    if (!head.value.literal) return { kind: 'unreadable', reason: 'its command name is computed when it runs' }
    const name = head.value.value
    if (name === 'eval') return { kind: 'unreadable', reason: '`eval` runs text built when it runs' }
    if (SHELLS.has(name)) return shellPayload(rest) ?? { kind: 'command', words: rest, unknownArgs }
    const wrapper = WRAPPERS[name]
    if (!wrapper) return { kind: 'command', words: rest, unknownArgs }
    // `command -v x` and `command -V x` only look a name up.
    if (name === 'command' && rest.slice(1).some((w) => w.value.literal && /^-[a-zA-Z]*[vV]/.test(w.value.value))) return { kind: 'command', words: rest, unknownArgs }
    const after = skipOptions(name, rest.slice(1), wrapper.valued, wrapper.positional ?? 0)
    if ('reason' in after) return { kind: 'unreadable', reason: after.reason }
    if (name === 'xargs') {
      unknownArgs = true // the rest of the words come from its input
      if (after.rest.length === 0) return { kind: 'command', words: [{ ...head, value: { literal: true, value: 'echo' } }], unknownArgs }
    } else if (after.rest.length === 0) {
      return { kind: 'command', words: rest, unknownArgs } // `env`, `time`, `nohup` alone: the wrapper is the command
    }
    rest = after.rest
  }
  return { kind: 'unreadable', reason: `it nests more than ${MAX_WRAPPERS} wrapper commands` }
}

function skipOptions(name: string, words: ShellWord[], valued: readonly string[], positional: number): { rest: ShellWord[] } | { reason: string } {
  let i = 0
  for (; i < words.length; i++) {
    const word = words[i].value
    if (!word.literal) return { reason: `an option of \`${name}\` is computed when it runs` }
    const text = word.value
    if (text === '--') {
      i++
      break
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) continue
    if (name === 'env' && (text === '-S' || text.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(text))) return { reason: '`env -S` splits a string into a command' }
    if (name === 'nice' && /^-\d+$/.test(text)) continue
    if (!text.startsWith('-') || text === '-') break
    const flag = text.includes('=') ? text.slice(0, text.indexOf('=')) : text
    if (valued.includes(flag) && !text.includes('=')) i++
    else if (!text.startsWith('--') && text.length > 2 && valued.includes(text.slice(0, 2))) continue // `-n5`, `-oL`
  }
  const rest = words.slice(i)
  for (let p = 0; p < positional; p++) {
    const word = rest.shift()
    if (word && !word.value.literal) return { reason: `an argument of \`${name}\` is computed when it runs` }
  }
  return { rest }
}

/** `bash -c 'payload'` (also `-lc`, `-ec`, …): the payload when it is a literal word. */
function shellPayload(words: ShellWord[]): { kind: 'shell'; payload: string } | { kind: 'unreadable'; reason: string } | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i].value
    if (!word.literal) return { kind: 'unreadable', reason: `the arguments of \`${(words[0].value as { value: string }).value}\` are computed when it runs` }
    if (!word.value.startsWith('-') && !word.value.startsWith('+')) return undefined // a script file: an ordinary command
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.value)) {
      const payload = words[i + 1]?.value
      if (!payload) return undefined
      if (!payload.literal) return { kind: 'unreadable', reason: 'a `-c` payload is computed when it runs' }
      return { kind: 'shell', payload: payload.value }
    }
    if (word.value === '-o' || word.value === '+o' || word.value === '-O' || word.value === '+O') i++
  }
  return undefined
}
