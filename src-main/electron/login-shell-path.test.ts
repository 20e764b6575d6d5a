// macOS's Finder-started PATH (issue 30), with a real login shell (/bin/sh reading a scratch
// home's .profile) as the user's: its folders come first; a shell that fails or hangs is logged.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scaledTestMs } from '../process/liveness'
import { mergePath, readLoginShellPath, useLoginShellPath } from './login-shell-path'

let home: string
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-login-path-'))
  await writeFile(join(home, '.profile'), 'echo "welcome to the shell"\nexport PATH="/opt/homebrew/bin:$HOME/.local/bin:$PATH"\n')
})
afterAll(() => rm(home, { recursive: true, force: true }))

const finderEnv = () => ({ HOME: home, PATH: '/usr/bin:/bin:/usr/sbin:/sbin', SHELL: '/bin/sh' })

describe("the login shell's PATH on macOS (issue 30)", () => {
  it("reads the PATH the user's login shell builds, ignoring what its start-up files print", async () => {
    const path = await readLoginShellPath({ env: finderEnv() })
    // /etc/profile may add system folders of its own; the user's come first.
    expect(path).toMatch(new RegExp(`^/opt/homebrew/bin:${home}/\\.local/bin:`))
    expect(String(path).split(':')).toContain('/usr/bin')
  })

  it("puts the shell's folders first in the environment tools and hooks get, on macOS only", async () => {
    const env: NodeJS.ProcessEnv = finderEnv()
    await useLoginShellPath({ env, platform: 'darwin', log: () => {} })
    expect(env.PATH?.startsWith(`/opt/homebrew/bin:${home}/.local/bin:`)).toBe(true)
    expect(env.PATH?.split(':').filter((dir) => dir === '/usr/bin')).toHaveLength(1)
    const linux: NodeJS.ProcessEnv = finderEnv()
    await useLoginShellPath({ env: linux, platform: 'linux', log: () => {} })
    expect(linux.PATH).toBe('/usr/bin:/bin:/usr/sbin:/sbin')
  })

  it('a shell that is missing or hangs is logged and the PATH kept', async () => {
    const lines: string[] = []
    const env: NodeJS.ProcessEnv = { ...finderEnv(), SHELL: join(home, 'no-such-shell') }
    await useLoginShellPath({ env, platform: 'darwin', log: (line) => lines.push(line) })
    expect(env.PATH).toBe('/usr/bin:/bin:/usr/sbin:/sbin')
    expect(lines[0]).toMatch(/^PATH: could not read the login shell's PATH \(.*ENOENT.*\); tools and hooks get \/usr\/bin:\/bin:\/usr\/sbin:\/sbin$/)
    await writeFile(join(home, '.profile-hang'), 'sleep 30\n')
    const hanging = await readLoginShellPath({ env: { ...finderEnv(), ENV: join(home, '.profile-hang'), HOME: join(home, 'nothing') }, shell: '/bin/sh', timeoutMs: scaledTestMs(300) })
    expect(hanging).toBeInstanceOf(Error)
    expect((hanging as Error).message).toMatch(/^\/bin\/sh gave no PATH within/)
  })

  it('merges without duplicates or empty entries', () => {
    expect(mergePath('/a:/b::/a', '/b:/c:')).toBe('/a:/b:/c')
  })
})
