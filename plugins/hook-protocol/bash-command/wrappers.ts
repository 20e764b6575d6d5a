// Commands that run another command: the wrapper is seen through and the command it runs is what
// rules match, as Claude Code strips `timeout`, `time`, `nice`, `nohup` and `stdbuf` (and bare
// `xargs`) before matching. Seam also strips `env`, `command`, `builtin`, `exec` and `xargs` with
// options, and reads `bash -c '…'` payloads, so a deny rule sees the command wherever it sits.
// `seeThrough` goes further for deny and ask rules only: `sudo`/`doas`/`run0` and absolute paths.
import type { WordValue } from './words'

export interface ShellWord {
  value: WordValue
  /** Shown in a part's text instead of the source (a command name reduced to its basename). */
  shown?: string
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

/**
 * Commands that run another command as another user, with their valued options. Not stripped from
 * a part's text (an allow rule matches `sudo rm x` as written); deny and ask rules also see the
 * command they run (`seeThrough`).
 */
const ELEVATORS: Readonly<Record<string, readonly string[]>> = {
  sudo: ['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-D', '--chdir', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-U', '--other-user'],
  doas: ['-u', '-C'],
  run0: ['-u', '--user', '-g', '--group', '-D', '--chdir', '--setenv', '--unit', '--property', '--description', '--slice', '--slice-inherit', '--nice', '--machine', '-M', '--background']
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

/**
 * What a command (wrappers already stripped) runs, seen through what only changes how it runs: a
 * command name given as an absolute path (`/bin/rm` is `rm`) and `sudo`/`doas`/`run0` with their
 * options (and the wrappers after them). `none` when there is nothing to see through.
 */
export function seeThrough(words: ShellWord[]): Unwrapped {
  let current = words
  let changed = false
  let unknownArgs = false
  for (let round = 0; round < MAX_WRAPPERS; round++) {
    const head = current[0]
    if (!head || !head.value.literal) break
    const name = head.value.value
    let next: ShellWord[]
    if (name.startsWith('/') && name.length > 1 && !name.endsWith('/')) {
      const base = name.slice(name.lastIndexOf('/') + 1)
      next = [{ ...head, value: { literal: true, value: base }, shown: base }, ...current.slice(1)]
    } else if (ELEVATORS[name] !== undefined) {
      const after = skipOptions(name, current.slice(1), ELEVATORS[name], 0)
      if ('reason' in after) return { kind: 'unreadable', reason: after.reason }
      let skip = 0 // `sudo VAR=value cmd`
      while (skip < after.rest.length && after.rest[skip].value.literal && /^[A-Za-z_][A-Za-z0-9_]*=/.test((after.rest[skip].value as { value: string }).value)) skip++
      const rest = after.rest.slice(skip)
      if (rest.length === 0) break
      next = rest
    } else break
    const inner = unwrap(next)
    if (inner.kind !== 'command') return inner
    current = inner.words
    unknownArgs ||= inner.unknownArgs
    changed = true
  }
  return changed ? { kind: 'command', words: current, unknownArgs } : { kind: 'none' }
}
