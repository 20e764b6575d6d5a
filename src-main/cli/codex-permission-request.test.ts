// Codex PermissionRequest end to end (issue 24, codex-hooks.md §5 PermissionRequest): the built
// `seam` as a real process with no terminal (an ask nobody answers is refused), hooks from a real
// $CODEX_HOME/hooks.json run as real processes, a loopback server speaking the Anthropic protocol.
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'

let home: string
let workspace: string
useCliScratch('codex-permission', (dirs) => ({ home, workspace } = dirs))

afterEach(async () => {
  for (const dir of [join(home, '.codex'), join(home, 'records'), join(home, 'hooks')]) await rm(dir, { recursive: true, force: true })
  await rm(join(workspace, 'marker.txt'), { force: true })
})

const codexHome = () => join(home, '.codex')

function seam(args: string[]): Promise<CliResult> {
  return runSeamHeadless(args, { cwd: workspace, home, env: { CODEX_HOME: codexHome() } })
}

/** A hook that appends its stdin to records/<name>.jsonl, then runs `body` (its answer). */
async function hook(name: string, body: string): Promise<string> {
  await mkdir(join(home, 'hooks'), { recursive: true })
  await mkdir(join(home, 'records'), { recursive: true })
  const script = join(home, 'hooks', `${name}.sh`)
  const record = join(home, 'records', `${name}.jsonl`)
  await writeFile(script, `#!/bin/sh\ncat >> ${record}\necho >> ${record}\n${body}\n`, { mode: 0o755 })
  return script
}

async function records(name: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(home, 'records', `${name}.jsonl`), 'utf8').catch(() => '')
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
}

async function codexHooks(events: Record<string, Array<{ matcher?: string; command: string }>>): Promise<void> {
  await mkdir(codexHome(), { recursive: true })
  const hooks = Object.fromEntries(Object.entries(events).map(([event, list]) => [event, list.map(({ matcher, command }) => ({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }))]))
  await writeFile(join(codexHome(), 'hooks.json'), JSON.stringify({ hooks }))
}

const printJson = (value: unknown) => `printf '%s' '${JSON.stringify(value)}'`
const decision = (value: Record<string, unknown>) => printJson({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: value } })
const flags = (url: string) => ['--workspace', workspace, '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main']
const bash = { toolCalls: [{ name: 'Bash', args: { command: 'touch marker.txt', description: 'make the marker' } }] }

async function turn(): Promise<string> {
  const server = await startFakeAnthropic([bash, { text: 'done' }])
  try {
    const result = await seam(['run', ...flags(server.url), 'make a marker'])
    expect(result.code, result.stderr).toBe(0)
    return JSON.stringify(server.requests.at(-1)?.body ?? '')
  } finally {
    await server.close()
  }
}

describe('Codex PermissionRequest', () => {
  it('fires after PreToolUse only when the call would ask, with Codex\'s input (no tool_use_id, Bash\'s description); its allow runs the call without asking', async () => {
    await codexHooks({ PreToolUse: [{ matcher: 'Bash', command: await hook('pre', 'true') }], PermissionRequest: [{ matcher: 'Bash', command: await hook('allow', decision({ behavior: 'allow' })) }] })
    await turn()
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(true)
    expect(await records('pre')).toHaveLength(1)
    const [input] = await records('allow')
    expect(Object.keys(input)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'permission_mode', 'turn_id', 'tool_name', 'tool_input'])
    expect(input).toMatchObject({ hook_event_name: 'PermissionRequest', permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'touch marker.txt', description: 'make the marker' } })
  })

  it('a deny refuses the call with its message, or Codex\'s own words without one; exit 2 denies with its stderr', async () => {
    for (const [body, message] of [
      [decision({ behavior: 'deny', message: 'not on this machine' }), 'not on this machine'],
      [decision({ behavior: 'deny' }), 'PermissionRequest hook denied approval'],
      ['echo "stderr says no" >&2; exit 2', 'stderr says no']
    ] as const) {
      await codexHooks({ PermissionRequest: [{ matcher: 'Bash', command: await hook('deny', body) }] })
      expect(await turn()).toContain(`Permission denied: ${message}`)
      expect(existsSync(join(workspace, 'marker.txt'))).toBe(false)
    }
  })

  it('an answer Codex does not support (updatedInput, interrupt) or no decision falls through to the approval, refused headless', async () => {
    for (const body of [decision({ behavior: 'allow', updatedInput: { command: 'true' } }), decision({ behavior: 'deny', interrupt: true }), 'true']) {
      await codexHooks({ PermissionRequest: [{ matcher: 'Bash', command: await hook('fallthrough', body) }] })
      expect(await turn()).toMatch(/Permission denied: approval was required/)
      expect(existsSync(join(workspace, 'marker.txt'))).toBe(false)
    }
    expect(await records('fallthrough')).toHaveLength(3)
  })

  it('does not fire for a call the policy allows without asking (Read)', async () => {
    await writeFile(join(workspace, 'marker.txt'), 'hello')
    await codexHooks({ PermissionRequest: [{ command: await hook('never', decision({ behavior: 'deny' })) }] })
    const server = await startFakeAnthropic([{ toolCalls: [{ name: 'Read', args: { file_path: join(workspace, 'marker.txt') } }] }, { text: 'read it' }])
    try {
      expect((await seam(['run', ...flags(server.url), 'read it'])).code).toBe(0)
      expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('hello')
    } finally {
      await server.close()
    }
    expect(await records('never')).toHaveLength(0)
  })
})
