// The stdio transport on real processes: what it says when a server cannot start, exits, or
// breaks the framing, and that closing never hangs.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { scaledTestMs } from '@seam/sdk/testing'
import { ProcessTransport } from './stdio-transport'
import { SCRIPTED_SERVER } from './test-host'


function transport(command: string, args: string[], stderr: string[] = []) {
  return new ProcessTransport({ command, args, env: process.env as Record<string, string>, cwd: process.cwd(), maxMessageBytes: 1024, onStderr: (line) => stderr.push(line) })
}

describe('ProcessTransport', () => {
  it('a command that does not exist: start rejects naming it, and close returns at once', async () => {
    const t = transport('/no/such/server', [])
    await expect(t.start()).rejects.toThrow('cannot start "/no/such/server": spawn /no/such/server ENOENT')
    const started = Date.now()
    await t.close()
    expect(Date.now() - started).toBeLessThan(scaledTestMs(500))
  })

  it('an exit reports its code and the stderr lines; a line past maxMessageBytes ends the connection saying so', async () => {
    const stderr: string[] = []
    const exits = transport(process.execPath, [SCRIPTED_SERVER, 'exit'], stderr)
    const closed = new Promise<void>((resolve) => (exits.onclose = resolve))
    await exits.start()
    await closed
    expect(exits.fault).toBe('the server process exited with code 7')
    expect(stderr).toEqual(['fatal: no configuration found'])

    // 2 KB of one unfinished line exceeds the 1 KB limit.
    const big = transport(process.execPath, ['-e', "process.stdout.write('x'.repeat(2048)); setInterval(() => {}, 1000)"])
    const errors: string[] = []
    big.onerror = (error) => errors.push(error.message)
    const ended = new Promise<void>((resolve) => (big.onclose = resolve))
    await big.start()
    await ended
    expect(errors).toEqual(['the server sent a message larger than 1 KB (the maxMessageBytes limit)'])
  })

  // Issue 25: Seam's own close used to win this race now and then ("closed by Seam" for a server
  // that had exited with code 7, and a flaky test). Here the race is forced: the child has exited
  // (a zombie: the event loop is held, so Node has not reaped it nor seen the exit) when close runs.
  it('a server that exited with code 7 before Seam closed the connection is reported as exited with code 7', async () => {
    const t = transport(process.execPath, [SCRIPTED_SERVER, 'exit'])
    await t.start()
    const pid = t.pid!
    const deadline = Date.now() + 10_000
    while (processState(pid) !== 'Z') {
      if (Date.now() > deadline) throw new Error(`the scripted server (pid ${pid}) did not exit within 10 s; state ${processState(pid)}`)
    }
    const closing = t.close()
    expect(t.endReason).toBe('the connection was closed by Seam')
    await closing
    expect(t.fault).toBe('the server process exited with code 7')
    expect(t.endReason).toBe('the server process exited with code 7')
  })

  it('a server Seam closes while it runs ends "closed by Seam", with no fault', async () => {
    const t = transport(process.execPath, ['-e', 'process.stdin.resume()'])
    await t.start()
    await t.close()
    expect(t.fault).toBeUndefined()
    expect(t.endReason).toBe('the connection was closed by Seam')
  })
})

/** The process's state letter from /proc (`Z`: exited, not reaped yet), or `gone`. */
function processState(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').charAt(0)
  } catch {
    return 'gone'
  }
}
