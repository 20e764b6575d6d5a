// The one child-environment policy reaches processes whose caller passes no environment (a
// plugin spawning through @seam/sdk/node): provider keys are stripped, everything else is kept.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setDefaultChildEnvPolicy, spawnGuarded } from './guarded-spawn'
import { defaultKeyGuard } from '../security/keys'

const KEY = 'sk-ant-test-0123456789abcdefghijklmnop'

function childEnv(): Promise<Record<string, string>> {
  const guarded = spawnGuarded(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(process.env))'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  guarded.child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  return new Promise((resolve, reject) => {
    guarded.child.on('error', reject)
    guarded.child.on('close', () => {
      guarded.release()
      resolve(JSON.parse(out) as Record<string, string>)
    })
  })
}

describe('spawnGuarded without an environment', () => {
  // vi.stubEnv, not a replaced process.env: a plain object in its place would stop later files in
  // this worker from reaching the real environment (os.homedir() reads it, not the object).
  afterEach(() => {
    vi.unstubAllEnvs()
    setDefaultChildEnvPolicy((env) => defaultKeyGuard.childEnv(env))
  })

  it('gives the child this process environment without the provider keys', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY)
    vi.stubEnv('SEAM_PROBE_PLAIN', 'kept')
    const env = await childEnv()
    expect(env.SEAM_PROBE_PLAIN).toBe('kept')
    expect(env.ANTHROPIC_API_KEY).toBeUndefined()
    expect(Object.values(env)).not.toContain(KEY)
  })

  it('uses the policy the host sets (its key guard, with the settings extra variables)', async () => {
    vi.stubEnv('MY_SERVICE_TOKEN', 'token-value-that-is-long-enough')
    setDefaultChildEnvPolicy((env) => Object.fromEntries(Object.entries(env).filter(([name, value]) => name !== 'MY_SERVICE_TOKEN' && value !== undefined)) as Record<string, string>)
    const env = await childEnv()
    expect(env.MY_SERVICE_TOKEN).toBeUndefined()
  })
})
