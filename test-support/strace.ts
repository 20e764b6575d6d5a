// Reading `strace -f` output in durability tests: which syscalls ran, in what order, and where
// each returned, so a test can prove one write was synced before another process started.
import { spawnSync } from 'node:child_process'

/** Whether strace is installed (the tests that need it are skipped otherwise). */
export const hasStrace = spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0

export interface Syscall {
  /** Position in the trace. */
  at: number
  name: string
  /** Where the call returned (a later line when strace printed it as unfinished/resumed). */
  doneAt: number
  text: string
}

/** strace -f output as syscalls, pairing `<unfinished ...>` lines with their `<... resumed>` line. */
export function parseTrace(trace: string): Syscall[] {
  const calls: Syscall[] = []
  const open = new Map<string, Syscall>()
  trace.split('\n').forEach((line, at) => {
    const resumed = /^(\d+)\s+<\.\.\. (\w+) resumed>/.exec(line)
    if (resumed) {
      const call = open.get(`${resumed[1]}:${resumed[2]}`)
      if (call) call.doneAt = at
      return
    }
    const started = /^(\d+)\s+(\w+)\(/.exec(line)
    if (!started) return
    const call: Syscall = { at, name: started[2], doneAt: at, text: line }
    if (line.includes('<unfinished ...>')) open.set(`${started[1]}:${started[2]}`, call)
    calls.push(call)
  })
  return calls
}
