// Discovery order, features.hooks, trust, warnings and live edits, end to end through the loop.
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCodexFixture, hooksJson, oneHook, reminder, type CodexFixture } from './test-fixture'

let fixture: CodexFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

const say = (text: string) => oneHook('UserPromptSubmit', `echo ${text}`)
const sayToml = (text: string) => `[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "echo ${text}"\n`

/** The context messages the first request carried, in order. */
function contexts(f: CodexFixture): string[] {
  return f.ofType('context/message').map((e) => e.text)
}

describe('discovery (codex-hooks.md §2)', () => {
  it('user before project, repository root down to the working directory, hooks.json before config.toml, all merged', async () => {
    fixture = await createCodexFixture({
      workspace: 'sub',
      user: { 'hooks.json': say('user-json'), 'config.toml': sayToml('user-toml') },
      project: {
        '.codex/config.toml': sayToml('root-toml'),
        '.codex/hooks.json': say('root-json'),
        'sub/.codex/hooks.json': say('sub-json')
      },
      script: [{ text: 'ok' }]
    })
    // Above the repository root: never read.
    await fixture.write('.codex/hooks.json', say('outside-repo'))
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['user-json', 'user-toml', 'root-json', 'root-toml', 'sub-json'])
    expect(fixture.model.requests[0].messages[0]).toEqual({
      role: 'user',
      content: ['hello', ...['user-json', 'user-toml', 'root-json', 'root-toml', 'sub-json'].map(reminder)].join('\n\n')
    })
    expect(fixture.ofType('hook/invoked').map((e) => path.relative(fixture!.root, e.sourceFile))).toEqual([
      'codex-home/hooks.json',
      'codex-home/config.toml',
      'repo/.codex/hooks.json',
      'repo/.codex/config.toml',
      'repo/sub/.codex/hooks.json'
    ])
    // Codex warns about a layer holding both files; so does Seam.
    expect(fixture.notices().filter((text) => text.includes('loading hooks from both hooks.json and config.toml'))).toHaveLength(2)
  })

  it('without a .git folder the walk starts at the workspace', async () => {
    fixture = await createCodexFixture({
      git: false,
      workspace: 'sub',
      project: { '.codex/hooks.json': say('above-workspace'), 'sub/.codex/hooks.json': say('workspace') },
      script: [{ text: 'ok' }]
    })
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['workspace'])
  })

  it('config.toml also takes the inline-table form, and events are ordered canonically within a file', async () => {
    fixture = await createCodexFixture({
      project: {
        '.codex/config.toml': [
          '[hooks]',
          'Stop = [{ hooks = [{ type = "command", command = "echo stop >> \\"$PWD/../order.log\\"" }] }]',
          'UserPromptSubmit = [{ hooks = [{ type = "command", command = "echo prompt" }] }]'
        ].join('\n')
      },
      script: [{ text: 'ok' }]
    })
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['prompt'])
    expect(fixture.ofType('hook/invoked').map((e) => e.event)).toEqual(['UserPromptSubmit', 'Stop'])
  })

  it('features.hooks = false turns every hook off (visibly); a later layer may turn them back on', async () => {
    fixture = await createCodexFixture({
      user: { 'config.toml': `[features]\nhooks = false\n\n${sayToml('user')}`, 'hooks.json': say('user-json') },
      project: { '.codex/hooks.json': say('project') },
      script: [{ text: 'ok' }, { text: 'ok' }]
    })
    await fixture.run('hello')
    expect(fixture.ofType('hook/invoked')).toHaveLength(0)
    expect(fixture.notices()).toContain(`Codex hooks are off: features.hooks = false in ${path.join(fixture.codexHome, 'config.toml')}`)
    await fixture.write('repo/.codex/config.toml', '[features]\ncodex_hooks = true\n')
    await fixture.run('again')
    expect(contexts(fixture)).toEqual(['user-json', 'user', 'project'])
    expect(fixture.notices().some((text) => text.includes('features.codex_hooks is deprecated'))).toBe(true)
  })
})

describe('trust (Seam differs from Codex: skipped hooks are reported)', () => {
  it('an untrusted workspace runs only user hooks and says which project hooks were skipped and why', async () => {
    fixture = await createCodexFixture({
      trusted: false,
      workspace: 'sub',
      user: { 'hooks.json': say('user') },
      project: {
        '.codex/hooks.json': hooksJson({ PreToolUse: [{ matcher: 'Bash', hooks: ['echo no >&2; exit 2'] }] }),
        'sub/.codex/config.toml': `[features]\nhooks = false\n\n${sayToml('sub')}`
      },
      script: [{ toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'echo ran' } }] }, { text: 'ok' }]
    })
    await fixture.run('hello')
    // The untrusted project's features.hooks = false is not read either: user hooks still run.
    expect(contexts(fixture)).toEqual(['user'])
    expect(fixture.ofType('tool/result')[0]).toMatchObject({ content: 'ran', isError: false })
    const notice = fixture.notices().find((text) => text.includes('this workspace is not trusted'))
    expect(notice).toContain('2 hook(s)')
    expect(notice).toContain(`PreToolUse [echo no >&2; exit 2] (${path.join(fixture.repo, '.codex', 'hooks.json')})`)
    expect(notice).toContain(`UserPromptSubmit [echo sub] (${path.join(fixture.workspace, '.codex', 'config.toml')})`)
    expect(notice).toContain('Trust the workspace to run them')
    expect(fixture.notices().filter((text) => text === notice)).toHaveLength(1)
  })

  it('a trusted workspace runs its project hooks', async () => {
    fixture = await createCodexFixture({ trusted: true, project: { '.codex/hooks.json': say('project') }, script: [{ text: 'ok' }] })
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['project'])
    expect(fixture.notices().some((text) => text.includes('not trusted'))).toBe(false)
  })

  it('trust granted mid-session applies at the next prompt; SessionStart does not run again', async () => {
    fixture = await createCodexFixture({
      trusted: false,
      user: { 'hooks.json': oneHook('SessionStart', 'echo started') },
      project: { '.codex/hooks.json': say('project') },
      script: [{ text: 'ok' }, { text: 'ok' }]
    })
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['started'])
    fixture.setTrusted(true)
    await fixture.run('again')
    expect(contexts(fixture)).toEqual(['started', 'project'])
    expect(fixture.ofType('hook/invoked').filter((e) => e.event === 'SessionStart')).toHaveLength(1)
  })

  it('contributes every command declared in the workspace to the trust dialog', async () => {
    fixture = await createCodexFixture({
      trusted: false,
      workspace: 'sub',
      user: { 'hooks.json': say('user') },
      project: {
        '.codex/hooks.json': hooksJson({ PreToolUse: [{ matcher: 'Bash', hooks: ['./check.sh', { command: 'notify-send', async: true }] }] }),
        'sub/.codex/config.toml': sayToml('sub')
      }
    })
    expect(fixture.trustItems()).toEqual([
      // The matcher and the handler's options are part of what trust pins (issue 13).
      { source: 'Codex hooks', file: path.join(fixture.repo, '.codex', 'hooks.json'), event: 'PreToolUse', matcher: 'Bash', command: './check.sh', content: '{"timeoutSec":600,"async":false,"statusMessage":null}' },
      { source: 'Codex hooks', file: path.join(fixture.repo, '.codex', 'hooks.json'), event: 'PreToolUse', matcher: 'Bash', command: 'notify-send', content: '{"timeoutSec":600,"async":true,"statusMessage":null}' },
      { source: 'Codex hooks', file: path.join(fixture.workspace, '.codex', 'config.toml'), event: 'UserPromptSubmit', command: 'echo sub', content: '{"timeoutSec":600,"async":false,"statusMessage":null}' }
    ])
  })

  it('hooks.state enabled = false in the user config disables one handler, visibly', async () => {
    fixture = await createCodexFixture({ user: { 'hooks.json': hooksJson({ UserPromptSubmit: [{ hooks: ['echo one', 'echo two'] }] }) }, script: [{ text: 'ok' }] })
    const key = `${path.join(fixture.codexHome, 'hooks.json')}:user_prompt_submit:0:1`
    await fixture.write('codex-home/config.toml', `[hooks.state."${key}"]\nenabled = false\n`)
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['one'])
    expect(fixture.notices().some((text) => text.includes('[echo two]') && text.includes('disabled by hooks.state'))).toBe(true)
  })
})

describe('what Codex ignores silently is ignored with a visible warning', () => {
  it('snake_case and unknown events, unknown and misspelt handler keys, prompt handlers, blank commands, bad regexes, unmapped events', async () => {
    fixture = await createCodexFixture({
      project: {
        '.codex/hooks.json': {
          hooks: {
            pre_tool_use: [{ hooks: [{ type: 'command', command: 'echo snake' }] }],
            NotAnEvent: [{ hooks: [{ type: 'command', command: 'echo unknown' }] }],
            UserPromptSubmit: [
              { hooks: [{ type: 'command', command: 'echo runs', timeoutSec: 5, color: 'red' }], note: 'x' },
              { hooks: [{ type: 'prompt', prompt: 'check it' }, { type: 'command', command: '   ' }] }
            ],
            PreToolUse: [{ matcher: '[', hooks: [{ type: 'command', command: 'echo never' }] }],
            Interrupt: [{ hooks: [{ type: 'command', command: 'echo interrupt' }] }]
          }
        }
      },
      script: [{ text: 'ok' }]
    })
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['runs'])
    const notices = fixture.notices().join('\n')
    expect(notices).toContain('hooks.pre_tool_use is ignored: event names must be PascalCase ("PreToolUse")')
    expect(notices).toContain('hooks.NotAnEvent is not a Codex hook event; ignored')
    expect(notices).toContain('hooks.UserPromptSubmit[0].hooks[0].timeoutSec is ignored (Codex reads "timeout")')
    expect(notices).toContain('hooks.UserPromptSubmit[0].hooks[0].color is not a Codex handler field; ignored')
    expect(notices).toContain('hooks.UserPromptSubmit[0].note is not a Codex field; ignored')
    expect(notices).toContain('"prompt" handlers are not supported yet')
    expect(notices).toContain('hooks.UserPromptSubmit[1].hooks[1]: the command is blank; skipped')
    expect(notices).toContain('hooks.PreToolUse[0].matcher: invalid matcher regex')
    expect(notices).toContain('Interrupt hooks in')
    expect(notices).toContain('are loaded but never run')
  })

  it('a structurally wrong file is dropped whole, with a warning naming the field; other files still load', async () => {
    fixture = await createCodexFixture({
      user: { 'hooks.json': say('user') },
      project: { '.codex/hooks.json': { hooks: { UserPromptSubmit: [{ hooks: [{ command: 'echo no type' }] }] } } },
      script: [{ text: 'ok' }]
    })
    await fixture.run('hello')
    expect(contexts(fixture)).toEqual(['user'])
    expect(fixture.notices().some((text) => text.includes('hooks.UserPromptSubmit[0].hooks[0].type') && text.includes('the whole file is ignored'))).toBe(true)
  })
})

describe('live edits', () => {
  it('an edited, added or removed hook file applies at the next event without a restart', async () => {
    fixture = await createCodexFixture({ project: { '.codex/hooks.json': say('before') }, script: [{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }] })
    await fixture.run('one')
    await fixture.write('repo/.codex/hooks.json', say('after-edit'))
    await fixture.write('codex-home/config.toml', sayToml('new-user-file'))
    await fixture.run('two')
    await fixture.write('repo/.codex/hooks.json', '{"hooks": {"UserPromptSubmit": 5}}')
    await fixture.run('three')
    expect(contexts(fixture)).toEqual(['before', 'new-user-file', 'after-edit', 'new-user-file'])
    expect(fixture.notices().some((text) => text.includes('hooks.UserPromptSubmit: expected a list of matcher groups'))).toBe(true)
  })
})
