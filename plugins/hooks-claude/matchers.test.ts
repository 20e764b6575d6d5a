// claude-code-hooks.md §2.3: the matcher table, end to end. One session calls Bash, Write, Read,
// Edit and an MCP tool; every matcher of the table has its own recording hook, and each row
// checks which calls it saw. Also the per-event match targets and the events that ignore matchers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, hookCommand, hooksOf, mcpEchoTool, type Harness, type Lang } from './test-harness'

const TOOLS = ['Bash', 'Write', 'Read', 'Edit', 'mcp__srv__echo'] as const
type Row = [matcher: string | undefined, expected: ReadonlyArray<boolean | null>]
const Y = true
const N = false
const _ = null // not probed in the spec's table

const ROWS: Row[] = [
  [undefined, [Y, Y, Y, Y, Y]],
  ['', [Y, Y, Y, Y, Y]],
  ['*', [Y, Y, Y, Y, Y]],
  ['.*', [Y, Y, Y, Y, Y]],
  ['Bash', [Y, N, N, N, N]],
  ['Write', [N, Y, N, N, N]],
  ['Read', [N, N, Y, N, N]],
  ['bash', [N, N, N, N, N]],
  ['BASH', [N, _, _, _, N]],
  ['Bas', [N, N, N, N, N]],
  ['Ba', [N, _, _, _, N]],
  ['ash', [N, _, _, _, N]],
  ['Bash ', [Y, _, _, _, N]],
  [' Bash', [Y, _, _, _, N]],
  ['Bash|Read', [Y, N, Y, N, N]],
  ['Bash,Read', [Y, _, _, _, N]],
  ['Bash, Read', [Y, _, _, _, N]],
  ['Bash|', [Y, _, _, _, N]],
  ['|Bash', [Y, _, _, _, N]],
  ['Edit|Write', [N, Y, N, Y, N]],
  ['^Bash$', [Y, N, N, N, N]],
  ['B.*', [Y, N, N, N, N]],
  ['(Bash)', [Y, _, _, _, N]],
  ['[B]ash', [Y, _, _, _, N]],
  ['a.h', [Y, _, _, _, N]],
  ['ash$', [Y, _, _, _, N]],
  ['^B', [Y, _, _, _, N]],
  ['Ba*', [Y, _, _, _, N]],
  ['Bash*', [Y, _, _, _, N]],
  ['B*', [Y, _, _, _, Y]],
  ['Notebook.*', [N, N, N, N, N]],
  ['mcp__srv__echo', [N, N, N, N, Y]],
  ['mcp__srv__.*', [N, N, N, N, Y]],
  ['mcp__.*__echo', [N, N, N, N, Y]],
  ['mcp__srv__*', [N, N, N, N, Y]],
  ['mcp__srv', [N, N, N, N, N]],
  ['mcp__srv_', [N, _, _, _, N]],
  ['srv', [N, _, _, _, N]],
  ['echo', [N, _, _, _, N]],
  ['Bash(echo *)', [N, N, N, N, N]]
]

const LANGS: Lang[] = ['bash', 'bash', 'bash', 'node'] // mostly bash (fast), some Node
const record = (i: number) => `matcher-${i}.jsonl`

let h: Harness
beforeAll(async () => {
  const entries = ROWS.map(([matcher], i): [string, string | undefined, string] => ['PreToolUse', matcher, hookCommand(LANGS[i % LANGS.length], { record: record(i) })])
  entries.push(
    ['SessionStart', 'startup', hookCommand('bash', { record: 'ss-startup.jsonl' })],
    ['SessionStart', 'resume', hookCommand('bash', { record: 'ss-resume.jsonl' })],
    ['SessionStart', 'clear|compact', hookCommand('bash', { record: 'ss-clear.jsonl' })],
    ['UserPromptSubmit', 'Nonsense(*', hookCommand('bash', { record: 'ups.jsonl' })],
    ['Stop', 'NoSuchThing', hookCommand('python', { record: 'stop.jsonl' })],
    ['PostToolUse', 'Edit|Write', hookCommand('bash', { record: 'post-edit-write.jsonl' })]
  )
  h = await createHarness({
    user: { hooks: hooksOf(...entries) },
    tools: [mcpEchoTool],
    config: { concurrency: 16 },
    script: [
      { toolCalls: [{ name: 'Bash', args: { command: 'echo hi' } }] },
      { toolCalls: [{ name: 'Write', args: { file_path: 'w.txt', content: 'x' } }] },
      { toolCalls: [{ name: 'Read', args: { file_path: 'w.txt' } }] },
      { toolCalls: [{ name: 'Edit', args: { file_path: 'w.txt', old_string: 'x', new_string: 'y' } }] },
      { toolCalls: [{ name: 'mcp__srv__echo', args: { text: 'e' } }] },
      { text: 'done' }
    ]
  })
  await h.run('go')
}, 20_000)
afterAll(async () => {
  await h?.cleanup()
})

describe('§2.3 matcher table (PreToolUse, the tool name is the target)', () => {
  it('every call of the session ran and no hook failed', () => {
    expect(h.events('tool/result').map((r) => [r.name, r.isError])).toEqual(TOOLS.map((tool) => [tool, false]))
    expect(h.events('hook/result').filter((r) => r.outcomeKind !== 'ok')).toEqual([])
  })

  it.each(ROWS.map(([matcher, expected], i) => [JSON.stringify(matcher), expected, i] as const))('matcher %s', (_label, expected, i) => {
    const seen = new Set(h.records(record(i)).map((input) => input.tool_name))
    TOOLS.forEach((tool, column) => {
      const want = expected[column]
      if (want === null) return
      expect({ tool, matched: seen.has(tool) }).toEqual({ tool, matched: want })
    })
  })
})

describe('§2.3 per-event match targets', () => {
  it('SessionStart matches on source: startup ran, resume and clear|compact did not', () => {
    expect(h.records('ss-startup.jsonl')).toHaveLength(1)
    expect(h.records('ss-resume.jsonl')).toEqual([])
    expect(h.records('ss-clear.jsonl')).toEqual([])
  })

  it('UserPromptSubmit and Stop ignore their matcher (a nonsense matcher still runs)', () => {
    expect(h.records('ups.jsonl')).toHaveLength(1)
    expect(h.records('stop.jsonl')).toHaveLength(1)
  })

  it('PostToolUse matches tool names', () => {
    expect(h.records('post-edit-write.jsonl').map((input) => input.tool_name)).toEqual(['Write', 'Edit'])
  })

  it('the hook input carries Claude Code field names for each tool (tool_input as the model sent it, defaults filled: §6 PreToolUse)', () => {
    const all = h.records(record(0))
    expect(all.map((input) => [input.tool_name, input.tool_input])).toEqual([
      ['Bash', { command: 'echo hi' }],
      ['Write', { file_path: 'w.txt', content: 'x' }],
      ['Read', { file_path: 'w.txt' }],
      ['Edit', { file_path: 'w.txt', old_string: 'x', new_string: 'y', replace_all: false }],
      ['mcp__srv__echo', { text: 'e' }]
    ])
  })
})
