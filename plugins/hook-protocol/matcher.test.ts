// Every row of the matcher tables: claude-code-hooks.md §2.3 and codex-hooks.md §2.2.
import { describe, it, expect } from 'vitest'
import { compileMatcher, matcherError, matchesClaude, matchesCodex } from './matcher'
import { claudeMatchTarget, codexMatchTargets, groupMatches, matchTargetFor } from './match-target'

const TOOLS = ['Bash', 'Write', 'Read', 'Edit', 'mcp__srv__echo'] as const

/** claude-code-hooks.md §2.3, one entry per table row; cells are Bash, Write, Read, Edit, mcp__srv__echo ('-' = not probed). */
const CLAUDE_TABLE: Array<{ matchers: Array<string | undefined>; cells: string }> = [
  { matchers: [undefined, '', '*', '.*'], cells: 'YYYYY' },
  { matchers: ['Bash'], cells: 'YNNNN' },
  { matchers: ['Write'], cells: 'NYNNN' },
  { matchers: ['Read'], cells: 'NNYNN' },
  { matchers: ['bash'], cells: 'NNNNN' },
  { matchers: ['BASH'], cells: 'N---N' },
  { matchers: ['Bas'], cells: 'NNNNN' },
  { matchers: ['Ba', 'ash'], cells: 'N---N' },
  { matchers: ['Bash ', ' Bash'], cells: 'Y---N' },
  { matchers: ['Bash|Read'], cells: 'YNYNN' },
  { matchers: ['Bash,Read', 'Bash, Read'], cells: 'Y---N' },
  { matchers: ['Bash|', '|Bash'], cells: 'Y---N' },
  { matchers: ['Edit|Write'], cells: 'NYNYN' },
  { matchers: ['^Bash$', 'B.*'], cells: 'YNNNN' },
  { matchers: ['(Bash)', '[B]ash', 'a.h', 'ash$', '^B', 'Ba*', 'Bash*'], cells: 'Y---N' },
  { matchers: ['B*'], cells: 'Y---Y' },
  { matchers: ['Notebook.*'], cells: 'NNNNN' },
  { matchers: ['mcp__srv__echo', 'mcp__srv__.*', 'mcp__.*__echo', 'mcp__srv__*'], cells: 'NNNNY' },
  { matchers: ['mcp__srv'], cells: 'NNNNN' },
  { matchers: ['mcp__srv_', 'srv', 'echo'], cells: 'N---N' },
  { matchers: ['Bash(echo *)'], cells: 'NNNNN' }
]

describe('matchesClaude: every row of §2.3', () => {
  const cases = CLAUDE_TABLE.flatMap(({ matchers, cells }) =>
    matchers.flatMap((matcher) =>
      TOOLS.flatMap((tool, i) => (cells[i] === '-' ? [] : [{ matcher: matcher === undefined ? '(omitted)' : JSON.stringify(matcher), raw: matcher, tool, expected: cells[i] === 'Y' }]))
    )
  )
  it.each(cases)('matcher $matcher on $tool -> $expected', ({ raw, tool, expected }) => {
    expect(matchesClaude(raw, tool)).toBe(expected)
  })

  it('reports an invalid regex and matches nothing', () => {
    const reports: string[] = []
    expect(matchesClaude('Bash[', 'Bash[', (matcher, error) => reports.push(`${matcher}: ${error}`))).toBe(false)
    expect(reports).toHaveLength(1)
    expect(reports[0]).toMatch(/^Bash\[: invalid matcher regex/)
    expect(matcherError('claude', 'Bash[')).toMatch(/invalid matcher regex/)
    expect(matcherError('claude', 'Bash|Read')).toBeUndefined()
  })

  it('classifies name lists and regexes by the character rule', () => {
    expect(compileMatcher('claude', 'Bash, Read|Edit')).toMatchObject({ ok: true, mode: 'names' })
    expect(compileMatcher('claude', 'Bash.')).toMatchObject({ ok: true, mode: 'regex' })
    expect(compileMatcher('claude', '*')).toMatchObject({ ok: true, mode: 'all' })
  })
})

/** codex-hooks.md §2.2 matcher syntax; targets include apply_patch's aliases. */
const CODEX_CASES: Array<{ matcher: string | undefined; target: string; expected: boolean }> = [
  { matcher: undefined, target: 'Bash', expected: true },
  { matcher: '', target: 'apply_patch', expected: true },
  { matcher: '*', target: 'mcp__srv__echo', expected: true },
  { matcher: 'Bash', target: 'Bash', expected: true },
  { matcher: 'Bash', target: 'apply_patch', expected: false },
  { matcher: 'Ba', target: 'Bash', expected: false },
  { matcher: 'bash', target: 'Bash', expected: false },
  { matcher: 'as', target: 'Bash', expected: false },
  { matcher: 'Edit|Write', target: 'apply_patch', expected: true },
  { matcher: 'Edit', target: 'apply_patch', expected: true },
  { matcher: 'Edit|Write', target: 'Bash', expected: false },
  { matcher: 'mcp__srv', target: 'mcp__srv__echo', expected: false },
  { matcher: 'a.h', target: 'Bash', expected: true },
  { matcher: '^Ba', target: 'Bash', expected: true },
  { matcher: '.as.', target: 'Bash', expected: true },
  { matcher: 'mcp__srv__.*', target: 'mcp__srv__echo', expected: true },
  { matcher: '[', target: 'Bash', expected: false },
  // Differences from Claude: spaces and commas make a regex, not a name list.
  { matcher: 'Bash ', target: 'Bash', expected: false },
  { matcher: 'Bash,Read', target: 'Bash', expected: false },
  // Rust inline flags.
  { matcher: '(?i)^bash$', target: 'Bash', expected: true }
]

describe('matchesCodex: §2.2', () => {
  it.each(CODEX_CASES)('matcher $matcher on $target -> $expected', ({ matcher, target, expected }) => {
    const targets = codexMatchTargets('PreToolUse', { tool_name: target }) ?? []
    expect(matchesCodex(matcher, targets)).toBe(expected)
  })

  it('reports an invalid regex; look-around is not Rust syntax', () => {
    const reports: string[] = []
    expect(matchesCodex('[', 'Bash', (_m, error) => reports.push(error))).toBe(false)
    expect(matchesCodex('(?=B)Bash', 'Bash', (_m, error) => reports.push(error))).toBe(false)
    expect(reports).toHaveLength(2)
    expect(reports[1]).toMatch(/look-around/)
    expect(matchesClaude('(?=B)Bash', 'Bash')).toBe(true)
  })
})

describe('match targets per event', () => {
  it.each([
    ['PreToolUse', { tool_name: 'Bash' }, 'Bash'],
    ['PostToolUse', { tool_name: 'Read' }, 'Read'],
    ['PostToolUseFailure', { tool_name: 'Bash' }, 'Bash'],
    ['PermissionRequest', { tool_name: 'Write' }, 'Write'],
    ['PermissionDenied', { tool_name: 'Write' }, 'Write'],
    ['SessionStart', { source: 'startup' }, 'startup'],
    ['SessionEnd', { reason: 'other' }, 'other'],
    ['Setup', { trigger: 'init' }, 'init'],
    ['PreCompact', { trigger: 'manual' }, 'manual'],
    ['PostCompact', { trigger: 'auto' }, 'auto'],
    ['Notification', { notification_type: 'idle' }, 'idle'],
    ['StopFailure', { error: 'rate_limit' }, 'rate_limit'],
    ['SubagentStart', { agent_type: 'Explore' }, 'Explore'],
    ['SubagentStop', { agent_type: '' }, ''],
    ['Elicitation', { mcp_server_name: 'srv' }, 'srv'],
    ['ElicitationResult', { mcp_server_name: 'srv' }, 'srv'],
    ['ConfigChange', { source: 'local_settings' }, 'local_settings'],
    ['PreModelSwitch', { model: 'opus' }, 'opus'],
    ['UserPromptSubmit', { prompt: 'x' }, null],
    ['Stop', {}, null],
    ['CwdChanged', {}, null]
  ] as const)('Claude %s -> %j', (event, input, expected) => {
    expect(claudeMatchTarget(event, input)).toBe(expected)
  })

  it('Claude: SessionStart matches on source, UserPromptSubmit and Stop ignore the matcher (§2.3)', () => {
    const start = { source: 'claude', event: 'SessionStart', input: { source: 'startup' } } as const
    expect(groupMatches(start, 'startup')).toBe(true)
    expect(groupMatches(start, 'resume')).toBe(false)
    expect(groupMatches(start, 'clear|compact')).toBe(false)
    const end = { source: 'claude', event: 'SessionEnd', input: { reason: 'other' } } as const
    expect(groupMatches(end, 'other')).toBe(true)
    expect(groupMatches(end, 'clear')).toBe(false)
    expect(groupMatches({ source: 'claude', event: 'UserPromptSubmit', input: { prompt: 'hi' } }, 'nonsense[')).toBe(true)
    expect(groupMatches({ source: 'claude', event: 'Stop', input: {} }, 'Bash')).toBe(true)
  })

  it.each([
    ['PreToolUse', { tool_name: 'apply_patch' }, ['apply_patch', 'Edit', 'Write']],
    ['PostToolUse', { tool_name: 'Bash' }, ['Bash']],
    ['PermissionRequest', { tool_name: 'apply_patch' }, ['apply_patch', 'Edit', 'Write']],
    ['SessionStart', { source: 'resume' }, ['resume']],
    ['PreCompact', { trigger: 'auto' }, ['auto']],
    ['PostCompact', { trigger: 'manual' }, ['manual']],
    ['SubagentStart', { agent_type: 'default' }, ['default']],
    ['SubagentStop', { agent_type: 'default' }, ['default']],
    ['UserPromptSubmit', { prompt: 'x' }, null],
    ['Stop', {}, null],
    ['Interrupt', {}, null]
  ] as const)('Codex %s -> %j', (event, input, expected) => {
    expect(codexMatchTargets(event, input)).toEqual(expected)
    expect(matchTargetFor({ source: 'codex', event, input })).toEqual(expected)
  })

  it('Codex: Edit|Write matches apply_patch; UserPromptSubmit, Stop and Interrupt drop the matcher', () => {
    expect(groupMatches({ source: 'codex', event: 'PreToolUse', input: { tool_name: 'apply_patch' } }, 'Edit|Write')).toBe(true)
    expect(groupMatches({ source: 'codex', event: 'PreToolUse', input: { tool_name: 'apply_patch' } }, 'Bash')).toBe(false)
    for (const event of ['UserPromptSubmit', 'Stop', 'Interrupt'] as const) {
      expect(groupMatches({ source: 'codex', event, input: {} }, 'Bash')).toBe(true)
    }
  })

  it('Claude does not apply Codex aliases', () => {
    expect(groupMatches({ source: 'claude', event: 'PreToolUse', input: { tool_name: 'apply_patch' } }, 'Edit')).toBe(false)
  })
})
