// The stdio transport on real processes: what it says when a server cannot start, exits, or
// breaks the framing, and that closing never hangs.
import { describe, expect, it } from 'vitest'
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
    expect(Date.now() - started).toBeLessThan(500)
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
})
