// `--api-key-env` takes a variable's name; a pasted key must never be printed back (issue 13: Keys).
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { main } from './main'
import { UsageError } from './usage-error'

const io = () => ({ stdout: new PassThrough(), stderr: new PassThrough(), env: { ...process.env } }) as unknown as Parameters<typeof main>[1]

describe('--api-key-env', () => {
  it('a value that is not a variable name is refused without echoing it', async () => {
    const pasted = 'sk-proj-PASTED/KEY+value=='
    const run = main(['run', '--provider', 'openai', '--api-key-env', pasted, 'hi'], io())
    await expect(run).rejects.toBeInstanceOf(UsageError)
    const error = (await run.catch((e: unknown) => e)) as Error
    expect(error.message).toMatch(/--api-key-env takes the NAME of an environment variable/)
    expect(error.message).not.toContain(pasted)
    expect(error.message).not.toContain('PASTED')
  })

  it('a variable name that is not set is named (a name is not a secret)', async () => {
    const run = main(['run', '--provider', 'openai', '--api-key-env', 'SEAM_TEST_UNSET_VARIABLE', 'hi'], io())
    await expect(run).rejects.toThrow('--api-key-env SEAM_TEST_UNSET_VARIABLE: that variable is not set')
  })
})
