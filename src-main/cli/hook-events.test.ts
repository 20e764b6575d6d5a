// Claude Code hook events end to end: the built `seam` as a real process, hooks from a real
// ~/.claude/settings.json run as real processes recording the JSON they got on stdin, and a
// loopback server speaking the Anthropic wire protocol (errors included, as HTTP statuses).
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { errorBody, startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliResult, hookRecorder, hookRecords } from '../../test-support/built-cli'


let home: string
let workspace: string
useCliScratch('hook-events', (dirs) => ({ home, workspace } = dirs))

afterEach(async () => {
  await rm(join(home, '.claude'), { recursive: true, force: true })
  await rm(join(home, 'records'), { recursive: true, force: true })
})

function seam(args: string[]): Promise<CliResult> {
  return runSeamHeadless(args, { cwd: workspace, home })
}

const recorder = (name: string) => hookRecorder(home, name)
const records = (name: string) => hookRecords(home, name)

async function userHooks(hooks: Record<string, unknown[]>): Promise<void> {
  await mkdir(join(home, '.claude'), { recursive: true })
  await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks }))
}

const flags = (url: string) => ['--workspace', workspace, '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'allow']

describe('StopFailure', () => {
  it('a turn that ends on a rate limit (retries spent) runs StopFailure with error "rate_limit", the provider\'s words and the turn\'s last text, in Claude Code\'s key order; Stop does not run', async () => {
    await writeFile(join(workspace, 'notes.txt'), 'alpha\n')
    await userHooks({
      StopFailure: [{ matcher: 'rate_limit', hooks: [{ type: 'command', command: recorder('failure.jsonl') }] }, { matcher: 'authentication_failed', hooks: [{ type: 'command', command: recorder('auth.jsonl') }] }],
      Stop: [{ hooks: [{ type: 'command', command: recorder('stop.jsonl') }] }]
    })
    const limited = { error: { status: 429, body: errorBody(429, 'This request would exceed your rate limit.'), headers: { 'retry-after-ms': '1' } } }
    const server = await startFakeAnthropic([{ text: 'Let me read it.', toolCalls: [{ name: 'Read', args: { file_path: join(workspace, 'notes.txt') } }] }, limited, limited, limited])
    try {
      const result = await seam(['run', ...flags(server.url), 'read notes'])
      expect(result.code).toBe(1)
      expect(server.requests).toHaveLength(4)
    } finally {
      await server.close()
    }
    const [input] = await records('failure.jsonl')
    expect(Object.keys(input)).toEqual(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'hook_event_name', 'error', 'error_details', 'last_assistant_message'])
    expect(input).toMatchObject({
      cwd: workspace,
      permission_mode: 'bypassPermissions',
      hook_event_name: 'StopFailure',
      error: 'rate_limit',
      error_details: 'This request would exceed your rate limit.',
      last_assistant_message: 'Let me read it.'
    })
    expect(await records('auth.jsonl')).toEqual([])
    expect(await records('stop.jsonl')).toEqual([])
  })

  it('an authentication failure is "authentication_failed" (the matcher target is error); a turn that completes runs Stop, not StopFailure', async () => {
    await userHooks({ StopFailure: [{ matcher: 'authentication_failed', hooks: [{ type: 'command', command: recorder('auth.jsonl') }] }], Stop: [{ hooks: [{ type: 'command', command: recorder('stop.jsonl') }] }] })
    const server = await startFakeAnthropic([{ error: { status: 401, body: errorBody(401, 'invalid x-api-key') } }, { text: 'fine' }])
    try {
      expect((await seam(['run', ...flags(server.url), 'hi'])).code).toBe(1)
      expect((await seam(['run', ...flags(server.url), 'hi again'])).code).toBe(0)
    } finally {
      await server.close()
    }
    expect(await records('auth.jsonl')).toMatchObject([{ hook_event_name: 'StopFailure', error: 'authentication_failed', error_details: 'invalid x-api-key', last_assistant_message: '' }])
    expect(await records('stop.jsonl')).toMatchObject([{ hook_event_name: 'Stop', last_assistant_message: 'fine' }])
  })
})
