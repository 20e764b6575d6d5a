import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadHooksObject, loadSettingsFile } from './settings-loader'
import { loadSnapshot } from './sources'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hooks-claude-loader-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function file(name: string, content: unknown): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra })

describe('loadSettingsFile (claude-code-hooks.md §2.1, §2.2)', () => {
  it('flattens groups into handlers in configuration order, with matcher, file, JSON path and dedupe key', async () => {
    const path = await file('a.json', {
      model: 'whatever',
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [cmd('one'), cmd('two', { timeout: 5, if: 'Bash(git *)', onFailure: 'block' })] },
          { hooks: [{ type: 'http', url: 'http://127.0.0.1:1/h' }] }
        ],
        Stop: [{ hooks: [cmd('three', { args: ['-x', '${HOME}'] })] }]
      }
    })
    const loaded = loadSettingsFile(path, 'user')
    expect(loaded.status).toBe('loaded')
    expect(loaded.handlers.map((h) => [h.event, h.matcher, h.label, h.where, h.key])).toEqual([
      ['PreToolUse', 'Bash', 'one', 'hooks.PreToolUse[0].hooks[0]', 'one'],
      ['PreToolUse', 'Bash', 'two', 'hooks.PreToolUse[0].hooks[1]', 'two'],
      ['PreToolUse', undefined, 'http://127.0.0.1:1/h', 'hooks.PreToolUse[1].hooks[0]', 'http http://127.0.0.1:1/h'],
      ['Stop', undefined, 'three -x ${HOME}', 'hooks.Stop[0].hooks[0]', JSON.stringify(['three', '-x', '${HOME}'])]
    ])
    expect(loaded.handlers[1].handler).toMatchObject({ timeout: 5, if: 'Bash(git *)', onFailure: 'block' })
  })

  it('a missing file is "missing", not a problem', () => {
    expect(loadSettingsFile(join(dir, 'nope.json'), 'user')).toMatchObject({ status: 'missing', handlers: [] })
  })

  it('drops the whole file when a timeout is a string, naming the file and the field', async () => {
    const path = await file('bad-timeout.json', { hooks: { PreToolUse: [{ hooks: [cmd('ok'), cmd('x', { timeout: '5' })] }] } })
    const loaded = loadSettingsFile(path, 'project')
    expect(loaded.status).toBe('invalid')
    expect(loaded.handlers).toEqual([])
    expect(loaded.problem).toMatch(/^hooks\.PreToolUse\[0\]\.hooks\[1\]\.timeout: /)
  })

  it('drops the file for an unknown handler type, a non-positive timeout, bad JSON, a non-object top level', async () => {
    const unknownType = loadSettingsFile(await file('t.json', { hooks: { Stop: [{ hooks: [{ type: 'shell', command: 'x' }] }] } }), 'user')
    expect(unknownType).toMatchObject({ status: 'invalid' })
    expect(unknownType.problem).toMatch(/^hooks\.Stop\[0\]\.hooks\[0\]/)
    expect(loadSettingsFile(await file('z.json', { hooks: { Stop: [{ hooks: [cmd('x', { timeout: 0 })] }] } }), 'user').problem).toMatch(/timeout/)
    expect(loadSettingsFile(await file('j.json', '{ "hooks": '), 'user').problem).toMatch(/not valid JSON/)
    expect(loadSettingsFile(await file('arr.json', []), 'user').status).toBe('invalid')
    expect(loadSettingsFile(await file('dis.json', { disableAllHooks: 'yes' }), 'user').problem).toMatch(/^disableAllHooks: /)
    expect(loadSettingsFile(await file('ev.json', { hooks: { Stop: { hooks: [] } } }), 'user').problem).toMatch(/^hooks\.Stop: /)
  })

  it('ignores unknown event names and keeps the rest', async () => {
    const loaded = loadSettingsFile(await file('u.json', { hooks: { NoSuchEvent: 42, Stop: [{ hooks: [cmd('s')] }] } }), 'user')
    expect(loaded.status).toBe('loaded')
    expect(loaded.unknownEvents).toEqual(['NoSuchEvent'])
    expect(loaded.handlers.map((h) => h.label)).toEqual(['s'])
  })

  it('drops a matcher group whose hooks is not an array, with a note, and loads the rest', async () => {
    const loaded = loadSettingsFile(await file('g.json', { hooks: { Stop: [{ hooks: 'nope' }, { hooks: [cmd('kept')] }] } }), 'local')
    expect(loaded.status).toBe('loaded')
    expect(loaded.handlers.map((h) => h.label)).toEqual(['kept'])
    expect(loaded.notes[0]).toMatch(/hooks\.Stop\[0\]\.hooks is not an array/)
  })

  it('notes prompt / agent / mcp_tool handlers, powershell, a malformed `if` and an invalid matcher regex', async () => {
    const loaded = loadSettingsFile(
      await file('n.json', {
        hooks: {
          Stop: [{ hooks: [{ type: 'prompt', prompt: 'is it done? $ARGUMENTS' }, { type: 'agent', prompt: 'check' }, { type: 'mcp_tool', server: 's', tool: 't' }] }],
          PreToolUse: [{ matcher: '(', hooks: [cmd('ps', { shell: 'powershell' }), cmd('iffy', { if: 'Bash(' })] }]
        }
      }),
      'user'
    )
    expect(loaded.status).toBe('loaded')
    expect(loaded.handlers.map((h) => h.unsupported !== undefined)).toEqual([true, true, true, true, true])
    const notes = loaded.notes.join('\n')
    expect(notes).toMatch(/hooks\.Stop\[0\]\.hooks\[0\] \(prompt: is it done\? \$ARGUMENTS\): "prompt" hooks are not supported yet/)
    expect(notes).toMatch(/"agent" hooks are not supported yet/)
    expect(notes).toMatch(/"mcp_tool" hooks are not supported yet/)
    expect(notes).toMatch(/shell "powershell" is not supported/)
    expect(notes).toMatch(/hooks\.PreToolUse\[0\]\.hooks\[1\] \(iffy\): its "if" is not a permission rule/)
    expect(notes).toMatch(/hooks\.PreToolUse\[0\]\.matcher: .*matches nothing/)
  })

  it("reads Seam's own hooks object like a file's hooks", () => {
    const loaded = loadHooksObject({ SessionEnd: [{ matcher: 'other', hooks: [cmd('bye')] }] })
    expect(loaded).toMatchObject({ source: 'seam', file: 'Seam settings', status: 'loaded' })
    expect(loaded.handlers[0]).toMatchObject({ event: 'SessionEnd', matcher: 'other', label: 'bye' })
    expect(loadHooksObject({ Stop: [{ hooks: [cmd('x', { timeout: 'no' })] }] }).problem).toMatch(/^hooks\.Stop\[0\]\.hooks\[0\]\.timeout/)
  })
})

describe('loadSnapshot: merging the sources', () => {
  it('merges user, project, local and Seam hooks in that order; untrusted workspace files are listed, not run', async () => {
    const ws = join(dir, 'ws1')
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(ws, '.claude'), { recursive: true })
    await writeFile(join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [cmd('project')] }] } }))
    await writeFile(join(ws, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [cmd('local')] }] } }))
    const user = await file('merge-user.json', { hooks: { Stop: [{ hooks: [cmd('user')] }], TeammateIdle: [{ hooks: [cmd('n')] }] } })
    const seamHooks = { Stop: [{ hooks: [cmd('seam')] }] }
    const trusted = loadSnapshot({ userSettingsPath: user, workspaceRoot: ws, trusted: true, seamHooks })
    expect(trusted.byEvent.get('Stop')?.map((h) => h.label)).toEqual(['user', 'project', 'local', 'seam'])
    expect(trusted.untrusted).toEqual([])
    expect(trusted.unmapped).toEqual(['TeammateIdle'])
    const untrusted = loadSnapshot({ userSettingsPath: user, workspaceRoot: ws, trusted: false, seamHooks })
    expect(untrusted.byEvent.get('Stop')?.map((h) => h.label)).toEqual(['user', 'seam'])
    expect(untrusted.untrusted.map((h) => h.label)).toEqual(['project', 'local'])
  })

  it('disableAllHooks in any loaded file turns every source off; an untrusted file cannot turn them off', async () => {
    const ws = join(dir, 'ws2')
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(ws, '.claude'), { recursive: true })
    await writeFile(join(ws, '.claude', 'settings.local.json'), JSON.stringify({ disableAllHooks: true }))
    const user = await file('dis-user.json', { hooks: { Stop: [{ hooks: [cmd('user')] }] } })
    const on = loadSnapshot({ userSettingsPath: user, workspaceRoot: ws, trusted: true, seamHooks: { Stop: [{ hooks: [cmd('seam')] }] } })
    expect(on.byEvent.size).toBe(0)
    expect(on.disabledBy).toBe(join(ws, '.claude', 'settings.local.json'))
    const untrusted = loadSnapshot({ userSettingsPath: user, workspaceRoot: ws, trusted: false })
    expect(untrusted.byEvent.get('Stop')?.map((h) => h.label)).toEqual(['user'])
  })

  it('an invalid file becomes a warning naming the file and the field; the other sources still load', async () => {
    const user = await file('inv-user.json', { hooks: { Stop: [{ hooks: [cmd('x', { timeout: '1' })] }] } })
    const snapshot = loadSnapshot({ userSettingsPath: user, workspaceRoot: null, trusted: true, seamHooks: { Stop: [{ hooks: [cmd('seam')] }] } })
    expect(snapshot.warnings).toEqual([`Claude Code hooks: ${user} was skipped: ${snapshot.sources[0].problem}`])
    expect(snapshot.warnings[0]).toContain('hooks.Stop[0].hooks[0].timeout')
    expect(snapshot.byEvent.get('Stop')?.map((h) => h.label)).toEqual(['seam'])
  })
})
