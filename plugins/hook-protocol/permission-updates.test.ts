// A PermissionRequest hook's `updatedPermissions`, every type Claude Code defines (issue 24).
import { describe, expect, it } from 'vitest'
import { parsePermissionUpdates } from './permission-updates'

const bash = (ruleContent: string) => ({ toolName: 'Bash', ruleContent })

describe('parsePermissionUpdates', () => {
  it('reads every type, with rule values as rule texts and cliArg as the session', () => {
    const parsed = parsePermissionUpdates([
      { type: 'addRules', rules: [bash('npm test:*')], behavior: 'allow', destination: 'localSettings' },
      { type: 'removeRules', rules: [{ toolName: 'Read' }], behavior: 'deny', destination: 'userSettings' },
      { type: 'replaceRules', rules: [], behavior: 'ask', destination: 'projectSettings' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      { type: 'addDirectories', directories: ['/srv/a', '../b'], destination: 'cliArg' },
      { type: 'removeDirectories', directories: ['/srv/a'], destination: 'session' }
    ])
    expect(parsed).toEqual({
      ok: true,
      updates: [
        { behavior: 'allow', rules: ['Bash(npm test:*)'], destination: 'localSettings' },
        { type: 'removeRules', behavior: 'deny', rules: ['Read'], destination: 'userSettings' },
        { type: 'replaceRules', behavior: 'ask', rules: [], destination: 'projectSettings' },
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
        { type: 'addDirectories', directories: ['/srv/a', '../b'], destination: 'session' },
        { type: 'removeDirectories', directories: ['/srv/a'], destination: 'session' }
      ]
    })
  })

  it.each([
    ['not a list', { type: 'setMode' }, /^updatedPermissions: expected a list/],
    ['an unknown type', [{ type: 'grantEverything' }], /^updatedPermissions\[0\]\.type: expected one of addRules, .*got "grantEverything"/],
    ['a mode Claude Code does not have', [{ type: 'setMode', mode: 'yolo', destination: 'session' }], /^updatedPermissions\[0\]\.mode: /],
    ['directories that are not strings', [{ type: 'addDirectories', directories: [3], destination: 'session' }], /^updatedPermissions\[0\]\.directories\[0\]: /],
    ['no directories', [{ type: 'addDirectories', directories: [], destination: 'session' }], /^updatedPermissions\[0\]\.directories: /],
    ['an unknown destination', [{ type: 'setMode', mode: 'plan', destination: 'everywhere' }], /^updatedPermissions\[0\]\.destination: /],
    ['a rule that does not parse, in the second entry', [{ type: 'setMode', mode: 'plan', destination: 'session' }, { type: 'removeRules', rules: [{ toolName: 'bash' }], behavior: 'allow', destination: 'session' }], /^updatedPermissions\[1\]\.rules\[0\]: invalid permission rule "bash"/]
  ])('%s is refused naming the field, nothing taken', (_name, value, problem) => {
    const parsed = parsePermissionUpdates(value)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.problem).toMatch(problem)
  })
})
