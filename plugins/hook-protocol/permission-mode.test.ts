import { describe, expect, it } from 'vitest'
import { CLAUDE_PERMISSION_MODES, claudePermissionMode } from './permission-mode'

describe('claudePermissionMode: the approval mode in force as hooks read it (claude-code-hooks.md §6 common fields, codex-hooks.md §4)', () => {
  it.each([
    ['ask-side-effects', 'default'],
    ['ask-all', 'default'],
    ['never-ask', 'bypassPermissions'],
    ['accept-edits', 'acceptEdits'],
    ['dont-ask', 'dontAsk'],
    ['plan', 'plan'],
    [undefined, 'default'],
    ['something-new', 'default']
  ] as const)('Seam mode %s -> %s', (mode, expected) => {
    expect(claudePermissionMode(mode)).toBe(expected)
  })

  it.each(CLAUDE_PERMISSION_MODES.map((mode) => [mode]))('a Claude Code mode name (%s) passes through', (mode) => {
    expect(claudePermissionMode(mode)).toBe(mode)
  })
})
