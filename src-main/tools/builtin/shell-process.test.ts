// When a shell command's result is delivered, with real shells: at its exit once its own output is
// drained, never on the drain timer unless a background job holds the pipes; and its process group
// is registered with the host's death watcher only while it runs.
import { afterEach, describe, expect, it } from 'vitest'
import { watcherState } from '../../process/host-death-watcher'
import { isAlive, waitUntilDead } from '../../process/liveness'
import type { RunningCommand } from '../../../src-shared/host/background-tasks'
import { runShellCommand, type ShellRun } from './shell-process'

const strays: number[] = []
afterEach(() => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
})

function run(command: string, onOutput: (text: string) => void = () => undefined): Promise<ShellRun> {
  return runShellCommand({
    command,
    cwd: process.cwd(),
    env: process.env,
    timeoutMs: 30_000,
    signal: new AbortController().signal,
    maxCaptureChars: 1_000_000,
    killGraceMs: 500,
    onOutput: (_stream, text) => onOutput(text)
  })
}

describe('runShellCommand delivers the result', () => {
  it.each([
    ['a command that prints', 'echo hello; echo oops >&2', 0],
    ['a failing command', 'echo bye; exit 3', 3],
    ['a command with a child that ends before it', 'sh -c "echo from child"; echo parent', 0],
    ['a command that prints nothing', 'true', 0]
  ])('when %s exits and its output is drained, not on the drain timer', async (_name, command, exitCode) => {
    const result = await run(command)
    expect(result.exitCode).toBe(exitCode)
    // outputHeldOpen is what the drain timer sets: the result came from the pipes closing.
    expect(result.outputHeldOpen).toBeUndefined()
  })

  it('with every byte the command wrote before exiting', async () => {
    const result = await run('head -c 300000 /dev/zero | tr "\\0" x; echo; echo end')
    expect(result.stdout.length).toBe(300_000 + '\nend\n'.length)
    expect(result.outputHeldOpen).toBeUndefined()
  })

  it('after a bounded wait when a background job keeps the pipes open, and says so', async () => {
    const result = await run('sleep 30 & echo $!')
    const pid = Number(result.stdout.trim())
    strays.push(pid)
    expect(result.exitCode).toBe(0)
    expect(result.outputHeldOpen).toBe(true)
    // Let go, as before: the job keeps running after the call returned.
    expect(isAlive(pid)).toBe(true)
  })

  it('while the group is watched for host death during the run only', async () => {
    let during: readonly number[] = []
    let leader = 0
    const result = await run('echo $$; sleep 0.3', (text) => {
      leader = Number(text.trim())
      during = watcherState().groups
    })
    expect(result.exitCode).toBe(0)
    expect(during).toContain(leader)
    expect(watcherState().groups).not.toContain(leader)
  })

  it('after ending the whole group on abort', async () => {
    const controller = new AbortController()
    let child = 0
    const pending = runShellCommand({
      command: 'sleep 300 & echo $!; wait',
      cwd: process.cwd(),
      env: process.env,
      timeoutMs: 30_000,
      signal: controller.signal,
      maxCaptureChars: 1000,
      killGraceMs: 200,
      onOutput: (_stream, text) => {
        child = Number(text.trim())
        controller.abort()
      }
    })
    const result = await pending
    strays.push(child)
    expect(result.interruptedBy).toBe('abort')
    expect(await waitUntilDead(child)).toBe(true)
  })
})

describe('runShellCommand hands a running command over (background tasks)', () => {
  function handOverRun(command: string, when: 'start' | 'deadline', take: (running: RunningCommand, soFar: string) => boolean): Promise<ShellRun> {
    return runShellCommand({
      command,
      cwd: process.cwd(),
      env: process.env,
      timeoutMs: 200,
      signal: new AbortController().signal,
      maxCaptureChars: 1_000_000,
      killGraceMs: 500,
      onOutput: () => undefined,
      handOver: { when, take }
    })
  }

  it('at the deadline: the run resolves at once with what was printed; later output and the exit code reach the taker; the group stays watched until it exits', async () => {
    const later: string[] = []
    let exited: number | undefined
    let pid = 0
    const run = await handOverRun('echo before; sleep 0.5; echo after; exit 7', 'deadline', (running, soFar) => {
      pid = running.pid ?? 0
      expect(soFar).toBe('before\n')
      running.attach({ output: (text) => later.push(text), exit: (code) => (exited = code) })
      return true
    })
    expect(run).toMatchObject({ handedOver: true, output: 'before\n', stdout: 'before\n' })
    expect(isAlive(pid)).toBe(true)
    expect(watcherState().groups).toContain(pid)
    await waitUntilDead(pid, 5_000)
    const deadline = Date.now() + 5_000
    while (exited === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(exited).toBe(7)
    expect(later.join('')).toBe('after\n')
    expect(watcherState().groups).not.toContain(pid)
  })

  it('a taker that declines: the command is killed at its deadline as without one', async () => {
    const run = await handOverRun('sleep 30', 'deadline', () => false)
    expect(run.interruptedBy).toBe('timeout')
    expect(run.handedOver).toBeUndefined()
  })
})
