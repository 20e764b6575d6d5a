// The presence file of a session another process holds open: trusted only while its pid runs and
// started when the file says. Real processes: a `sleep` child as the other holder, killed for real.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { SessionPresence, processStarted } from './presence'
import { waitUntilDead } from '../process/liveness'

let dir: string
let presence: SessionPresence
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-presence-'))
  presence = new SessionPresence(dir)
  mkdirSync(presence.dir)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const claim = (id: string, holder: Record<string, unknown>) => writeFileSync(presence.fileOf(id), JSON.stringify(holder))

it('another live process holds the session; once it is killed (-9) its file is stale and reads as nobody; a reused pid (other start time) counts as nobody', async () => {
  const other = spawn('sleep', ['60'], { stdio: 'ignore' })
  const pid = other.pid!
  const started = processStarted(pid)
  claim('held', { pid, started, since: Date.now() })
  claim('reused', { pid, started: `${started}0`, since: Date.now() })
  expect(presence.holder('held')).toMatchObject({ pid })
  expect(presence.holder('reused')).toBeUndefined()
  other.kill('SIGKILL')
  expect(await waitUntilDead(pid, 10_000)).toBe(true)
  expect(presence.holder('held')).toBeUndefined()
  expect(existsSync(presence.fileOf('held'))).toBe(true)
})

it('this process holds and releases its own; it is never "another process"; a damaged file reads as nobody', () => {
  presence.hold('mine')
  expect(presence.holder('mine')).toBeUndefined()
  expect(existsSync(presence.fileOf('mine'))).toBe(true)
  presence.release('mine')
  expect(existsSync(presence.fileOf('mine'))).toBe(false)
  writeFileSync(presence.fileOf('broken'), '{"pid": "x"')
  expect(presence.holder('broken')).toBeUndefined()
  // Another process's file is not removed by this one's release.
  claim('theirs', { pid: process.ppid, since: Date.now() })
  presence.release('theirs')
  expect(existsSync(presence.fileOf('theirs'))).toBe(true)
})
