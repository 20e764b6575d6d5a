// PermissionRequest and PermissionDenied end to end (issue 24): the built `seam` as a real process
// with no terminal to ask on (so an ask nobody answers is refused), hooks from a real
// ~/.claude/settings.json run as real processes, and a loopback server speaking the Anthropic
// wire protocol. Rules a hook saves land in the workspace's real .claude/settings.local.json.
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'


let home: string
let workspace: string
useCliScratch('permission-hooks', (dirs) => ({ home, workspace } = dirs))

afterEach(async () => {
  for (const dir of [join(home, '.claude'), join(home, 'records'), join(home, 'hooks'), join(workspace, '.claude')]) await rm(dir, { recursive: true, force: true })
  for (const file of ['a.txt', 'b.txt', 'c.txt', 'marker.txt']) await rm(join(workspace, file), { force: true })
  await rm(join(home, 'outside'), { recursive: true, force: true })
})

function seam(args: string[]): Promise<CliResult> {
  return runSeamHeadless(args, { cwd: workspace, home })
}

/** A hook script that records its stdin as a line of records/<name> and prints `answer`. */
async function hook(name: string, answer: unknown): Promise<string> {
  await mkdir(join(home, 'hooks'), { recursive: true })
  await mkdir(join(home, 'records'), { recursive: true })
  const script = join(home, 'hooks', `${name}.sh`)
  const out = join(home, 'hooks', `${name}.json`)
  await writeFile(out, answer === undefined ? '' : JSON.stringify(answer))
  await writeFile(script, `#!/bin/sh\ncat >> ${join(home, 'records', `${name}.jsonl`)}\necho >> ${join(home, 'records', `${name}.jsonl`)}\ncat ${out}\n`, { mode: 0o755 })
  return script
}

async function records(name: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(home, 'records', `${name}.jsonl`), 'utf8').catch(() => '')
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
}

async function userSettings(settings: Record<string, unknown>): Promise<void> {
  await mkdir(join(home, '.claude'), { recursive: true })
  await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify(settings))
}

const flags = (url: string) => ['--workspace', workspace, '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main']
const decision = (value: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: value } })
const bash = (command: string) => ({ toolCalls: [{ name: 'Bash', args: { command } }] })

/** The text of the tool results the last request sent back to the model. */
function lastToolResults(server: { requests: Array<{ body: unknown }> }): string {
  return JSON.stringify(server.requests.at(-1)?.body ?? '')
}

describe('PermissionRequest', () => {
  it('fires when the policy asks, with Claude Code\'s inputs (no tool_use_id, permission_suggestions); its allow runs the call without asking anyone', async () => {
    await userSettings({ hooks: { PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: await hook('allow', decision({ behavior: 'allow' })) }] }] } })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { text: 'done' }])
    try {
      const result = await seam(['run', ...flags(server.url), 'make a marker'])
      expect(result.code, result.stderr).toBe(0)
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(true)
    const [input] = await records('allow')
    expect(Object.keys(input)).toEqual(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'hook_event_name', 'tool_name', 'tool_input', 'permission_suggestions'])
    expect(input).toMatchObject({
      permission_mode: 'default',
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'touch marker.txt' },
      permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }], behavior: 'allow', destination: 'localSettings' }]
    })
  })

  it('its deny refuses the call with its message, and without a decision the call is refused as before (nobody to ask)', async () => {
    await userSettings({
      hooks: {
        PermissionRequest: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: await hook('deny', decision({ behavior: 'deny', message: 'no shell today' })) }] },
          { matcher: 'Write', hooks: [{ type: 'command', command: await hook('silent', undefined) }] }
        ]
      }
    })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { text: 'refused' }, { toolCalls: [{ name: 'Write', args: { file_path: join(workspace, 'a.txt'), content: 'x' } }] }, { text: 'still refused' }])
    try {
      expect((await seam(['run', ...flags(server.url), 'try bash'])).code).toBe(0)
      expect(lastToolResults(server)).toContain('Permission denied: no shell today')
      expect((await seam(['run', ...flags(server.url), 'try write'])).code).toBe(0)
      expect(lastToolResults(server)).toMatch(/Permission denied: approval was required/)
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(false)
    expect(existsSync(join(workspace, 'a.txt'))).toBe(false)
    expect(await records('silent')).toHaveLength(1)
  })

  it('a deny with interrupt: true also ends the turn (no further model request)', async () => {
    await userSettings({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('interrupt', decision({ behavior: 'deny', message: 'stop here', interrupt: true })) }] }] } })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { text: 'should not be asked for' }])
    try {
      await seam(['run', ...flags(server.url), 'try'])
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(false)
  })

  it('updatedPermissions saves its rules to .claude/settings.local.json (keeping what is there); the next call runs without asking, in this run and the next', async () => {
    await mkdir(join(workspace, '.claude'), { recursive: true })
    await writeFile(join(workspace, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] }, outputStyle: 'terse' }))
    const answer = decision({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }], behavior: 'allow', destination: 'localSettings' }] })
    await userSettings({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('rules', answer) }] }] } })
    const server = await startFakeAnthropic([bash('touch a.txt'), bash('touch b.txt'), { text: 'both' }, bash('touch c.txt'), { text: 'third' }])
    try {
      const first = await seam(['run', ...flags(server.url), '--trust-workspace', 'two files'])
      expect(first.code, first.stderr).toBe(0)
      expect(first.stderr).toContain('.claude/settings.local.json: permissions.allow Bash(touch:*)')
      // A new process: the rule comes from the file now (the workspace is trusted for the run).
      const second = await seam(['run', ...flags(server.url), '--trust-workspace', 'a third'])
      expect(second.code, second.stderr).toBe(0)
    } finally {
      await server.close()
    }
    for (const file of ['a.txt', 'b.txt', 'c.txt']) expect(existsSync(join(workspace, file)), file).toBe(true)
    expect(await records('rules')).toHaveLength(1)
    expect(JSON.parse(await readFile(join(workspace, '.claude', 'settings.local.json'), 'utf8'))).toEqual({ permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(touch:*)'] }, outputStyle: 'terse' })
  })

  it('a malformed updatedPermissions gets a notice naming the field, nothing is written, and the call is not allowed by it', async () => {
    const answer = decision({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }, { toolName: 'bash', ruleContent: 'ls' }], behavior: 'allow', destination: 'localSettings' }] })
    await userSettings({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('malformed', answer) }] }] } })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { text: 'refused' }])
    try {
      const result = await seam(['run', ...flags(server.url), 'try'])
      expect(result.stderr).toMatch(/updatedPermissions\[0\]\.rules\[1\]: invalid permission rule "bash\(ls\)"/)
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(false)
    expect(existsSync(join(workspace, '.claude', 'settings.local.json'))).toBe(false)
  })

  it('rules for the session survive a restart: `seam resume` runs the covered call without asking', async () => {
    const answer = decision({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }], behavior: 'allow', destination: 'session' }] })
    await userSettings({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('session', answer) }] }] } })
    const server = await startFakeAnthropic([bash('touch a.txt'), { text: 'one' }, bash('touch b.txt'), { text: 'two' }])
    try {
      const first = await seam(['run', ...flags(server.url), 'one'])
      expect(first.code, first.stderr).toBe(0)
      const id = /session (\S+)/.exec(first.stderr)?.[1]
      expect(id).toBeTruthy()
      // No hook this time: only the grant in the session's log can allow the call.
      await userSettings({})
      const resumed = await seam(['resume', id!, ...flags(server.url), 'two'])
      expect(resumed.code, resumed.stderr).toBe(0)
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'b.txt'))).toBe(true)
    expect(await records('session')).toHaveLength(1)
  })
})

describe('PermissionRequest updatedPermissions beyond addRules', () => {
  it('setMode and addDirectories for the session: the next calls run in that mode and may work in that folder; later hooks read the new permission_mode', async () => {
    const outside = join(home, 'outside')
    await mkdir(outside, { recursive: true })
    const answer = decision({
      behavior: 'allow',
      updatedPermissions: [
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
        { type: 'addDirectories', directories: [outside], destination: 'session' }
      ]
    })
    await userSettings({
      hooks: {
        PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('mode', answer) }] }],
        PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: await hook('pre-write', undefined) }] }]
      }
    })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { toolCalls: [{ name: 'Write', args: { file_path: join(outside, 'note.txt'), content: 'outside' } }] }, { text: 'done' }])
    try {
      const result = await seam(['run', ...flags(server.url), 'go'])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toContain('permission mode acceptEdits for this session')
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(true)
    // acceptEdits let the Write run without asking (headless, an ask is refused), the added folder let it leave the workspace.
    expect(await readFile(join(outside, 'note.txt'), 'utf8')).toBe('outside')
    expect(await records('mode')).toHaveLength(1)
    expect((await records('pre-write'))[0]).toMatchObject({ permission_mode: 'acceptEdits' })
  })

  it('removeRules, setMode and addDirectories for a settings file change that file (and only what they name)', async () => {
    await mkdir(join(workspace, '.claude'), { recursive: true })
    await writeFile(join(workspace, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash(ls:*)', 'Read'], deny: ['Bash(rm:*)'] }, outputStyle: 'terse' }))
    const answer = decision({
      behavior: 'allow',
      updatedPermissions: [
        { type: 'removeRules', rules: [{ toolName: 'Bash', ruleContent: 'ls:*' }], behavior: 'allow', destination: 'localSettings' },
        { type: 'replaceRules', rules: [{ toolName: 'Bash', ruleContent: 'sudo:*' }], behavior: 'deny', destination: 'localSettings' },
        { type: 'setMode', mode: 'plan', destination: 'localSettings' },
        { type: 'addDirectories', directories: ['/srv/shared'], destination: 'localSettings' }
      ]
    })
    await userSettings({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('file', answer) }] }] } })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { text: 'done' }])
    try {
      const result = await seam(['run', ...flags(server.url), '--trust-workspace', 'go'])
      expect(result.code, result.stderr).toBe(0)
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(true)
    expect(JSON.parse(await readFile(join(workspace, '.claude', 'settings.local.json'), 'utf8'))).toEqual({
      permissions: { allow: ['Read'], deny: ['Bash(sudo:*)'], defaultMode: 'plan', additionalDirectories: ['/srv/shared'] },
      outputStyle: 'terse'
    })
  })

  it('a deny rule for the session refuses the next matching call in the same run', async () => {
    const answer = decision({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch b.txt' }], behavior: 'deny', destination: 'session' }] })
    await userSettings({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('deny-rule', answer) }] }] } })
    const server = await startFakeAnthropic([bash('touch a.txt'), bash('touch b.txt'), { text: 'done' }])
    try {
      const result = await seam(['run', ...flags(server.url), 'go'])
      expect(result.code, result.stderr).toBe(0)
      expect(lastToolResults(server)).toContain('added to this session by a hook')
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'a.txt'))).toBe(true)
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false)
  })

  it('an unknown type or a bad mode is a failure naming the field; nothing is applied', async () => {
    const answer = decision({ behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'yolo', destination: 'session' }] })
    await userSettings({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('bad-mode', answer) }] }] } })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { text: 'refused' }])
    try {
      const result = await seam(['run', ...flags(server.url), 'try'])
      expect(result.stderr).toMatch(/updatedPermissions\[0\]\.mode: /)
    } finally {
      await server.close()
    }
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(false)
  })
})

describe('PermissionDenied', () => {
  it('fires when the permission policy denies a call (a deny rule), with tool_name, tool_input, tool_use_id and reason', async () => {
    await userSettings({
      permissions: { deny: ['Bash(touch:*)'] },
      hooks: { PermissionDenied: [{ matcher: 'Bash', hooks: [{ type: 'command', command: await hook('denied', undefined) }] }], PermissionRequest: [{ hooks: [{ type: 'command', command: await hook('never', undefined) }] }] }
    })
    const server = await startFakeAnthropic([bash('touch marker.txt'), { text: 'refused' }])
    try {
      expect((await seam(['run', ...flags(server.url), 'try'])).code).toBe(0)
    } finally {
      await server.close()
    }
    const [input] = await records('denied')
    expect(Object.keys(input)).toEqual(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'hook_event_name', 'tool_name', 'tool_input', 'tool_use_id', 'reason'])
    expect(input).toMatchObject({ hook_event_name: 'PermissionDenied', tool_name: 'Bash', tool_input: { command: 'touch marker.txt' }, reason: expect.stringContaining('Bash(touch:*)') })
    expect(typeof input.tool_use_id).toBe('string')
    expect(await records('never')).toEqual([])
    expect(existsSync(join(workspace, 'marker.txt'))).toBe(false)
  })
})
