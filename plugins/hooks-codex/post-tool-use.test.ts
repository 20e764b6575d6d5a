// PostToolUse, every row of codex-hooks.md §5.1, end to end through the agent loop.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolDefinition } from '@seam/sdk'
import { createCodexFixture, hooksJson, oneHook, printJson, reminder, toolMessage, type CodexFixture } from './test-fixture'

let fixture: CodexFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

const BASH = 'echo original output; echo ran > ran.txt'

async function bashTurn(hooks: unknown, command = BASH): Promise<CodexFixture> {
  fixture = await createCodexFixture({
    project: { '.codex/hooks.json': hooks },
    script: [{ toolCalls: [{ id: 'c1', name: 'Bash', args: { command } }] }, { text: 'done' }]
  })
  await fixture.run('go')
  return fixture
}

function postResults(f: CodexFixture) {
  return f.ofType('hook/result').filter((e) => e.event === 'PostToolUse')
}

describe('PostToolUse replaces the output the model sees (codex-hooks.md §5.1)', () => {
  it('exit 2 + stderr: the tool ran, the model reads the stderr text instead of its output', async () => {
    const f = await bashTurn(oneHook('PostToolUse', 'echo "output withheld" >&2; exit 2', 'Bash'))
    expect(existsSync(path.join(f.workspace, 'ran.txt'))).toBe(true)
    expect(toolMessage(f.model.requests[1], 'c1')).toMatchObject({ content: 'output withheld', isError: true })
    expect(postResults(f)[0]).toMatchObject({ source: 'codex', outcomeKind: 'block', exitCode: 2 })
    expect(f.ofType('hook/invoked').find((e) => e.event === 'PostToolUse')?.toolCallToken).toBe(f.ofType('tool/call')[0].token)
  })

  it('{"decision":"block","reason":R} replaces the output with R', async () => {
    const f = await bashTurn(oneHook('PostToolUse', printJson({ decision: 'block', reason: 'redacted by policy' })))
    expect(toolMessage(f.model.requests[1], 'c1')?.content).toBe('redacted by policy')
  })

  it('continue:false + stopReason replaces the output with stopReason and the turn continues', async () => {
    const f = await bashTurn(oneHook('PostToolUse', printJson({ continue: false, stopReason: 'stopped here' })))
    expect(toolMessage(f.model.requests[1], 'c1')?.content).toBe('stopped here')
    expect(f.model.calls).toBe(2)
    expect(f.ofType('turn/end')[0].reason).toBe('completed')
  })

  it('additionalContext is a context message after the output', async () => {
    const f = await bashTurn(oneHook('PostToolUse', printJson({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint: clean' } })))
    const messages = f.model.requests[1].messages
    const at = messages.findIndex((m) => m.role === 'tool')
    expect(messages[at]).toMatchObject({ content: 'original output', isError: false })
    expect(messages[at + 1]).toEqual({ role: 'user', content: reminder('lint: clean') })
  })

  it('tool_input and tool_response follow Codex: Bash {command} and the captured output as one string', async () => {
    const f = await bashTurn(oneHook('PostToolUse', 'cat > "$PWD/../post.json"'))
    const input = JSON.parse(readFileSync(path.join(f.repo, '..', 'post.json'), 'utf8'))
    expect(input).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: BASH }, tool_response: 'original output\n', tool_use_id: 'c1', turn_id: 'turn-1' })
  })

  it('a Bash tool_response keeps stdout and stderr in the order they arrived (codex-hooks.md §4: interleaved)', async () => {
    const f = await bashTurn(oneHook('PostToolUse', 'cat > "$PWD/../post.json"'), 'echo first; sleep 0.1; echo second >&2; sleep 0.1; echo third')
    const input = JSON.parse(readFileSync(path.join(f.repo, '..', 'post.json'), 'utf8'))
    expect(input.tool_response).toBe('first\nsecond\nthird\n')
  })
})

describe('PostToolUse failures leave the output alone', () => {
  const failing: Array<[string, string, string]> = [
    ['block without a reason', printJson({ decision: 'block' }), 'non-empty reason'],
    ['reason without decision', printJson({ reason: 'r' }), 'reason without decision'],
    ['suppressOutput', printJson({ suppressOutput: true }), 'suppressOutput'],
    ['updatedMCPToolOutput', printJson({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: { content: [] } } }), 'updatedMCPToolOutput'],
    ['updatedToolOutput (unknown field)', printJson({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'x' } }), 'updatedToolOutput'],
    ['exit 2 without stderr', 'exit 2', 'did not write a reason to stderr'],
    ['exit 1', 'echo oops >&2; exit 1', 'exited with code 1']
  ]
  for (const [name, command, mentions] of failing) {
    it(name, async () => {
      const f = await bashTurn(oneHook('PostToolUse', command))
      expect(toolMessage(f.model.requests[1], 'c1')).toMatchObject({ content: 'original output', isError: false })
      expect(postResults(f)[0].outcomeKind).toBe('error')
      expect(postResults(f)[0].errorMessage).toContain(mentions)
      expect(f.notices().some((text) => text.startsWith('Codex PostToolUse hook failed') && text.includes(command))).toBe(true)
    })
  }
})

describe('When PostToolUse runs', () => {
  it('runs after a Bash command that exits non-zero, not after a call PreToolUse blocked', async () => {
    fixture = await createCodexFixture({
      project: {
        '.codex/hooks.json': hooksJson({
          PreToolUse: [{ hooks: ['if grep -q blocked; then echo no >&2; exit 2; fi'] }],
          PostToolUse: [{ hooks: ['echo post >> "$PWD/../post.log"'] }]
        })
      },
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'Bash', args: { command: 'exit 3' } },
            { id: 'c2', name: 'Bash', args: { command: 'echo blocked' } }
          ]
        },
        { text: 'done' }
      ]
    })
    await fixture.run('go')
    expect(readFileSync(path.join(fixture.root, 'post.log'), 'utf8')).toBe('post\n')
    expect(toolMessage(fixture.model.requests[1], 'c1')).toMatchObject({ isError: true })
    expect(toolMessage(fixture.model.requests[1], 'c2')?.content).toBe('Command blocked by PreToolUse hook: no. Command: echo blocked')
  })

  it('does not run for an MCP result with isError, nor for a failed patch; runs for a successful MCP call with the MCP result shape', async () => {
    const mcp: ToolDefinition<{ fail?: boolean }> = {
      name: 'mcp__srv__echo',
      description: 'echo',
      inputSchema: z.object({ fail: z.boolean().optional() }),
      execute: (args) => (args.fail ? { content: 'mcp failed', isError: true } : { content: 'mcp ok' })
    }
    fixture = await createCodexFixture({
      project: { '.codex/hooks.json': oneHook('PostToolUse', 'cat >> "$PWD/../post.jsonl"; echo >> "$PWD/../post.jsonl"') },
      extraTools: [mcp as unknown as ToolDefinition],
      script: [
        {
          toolCalls: [
            { id: 'm1', name: 'mcp__srv__echo', args: { fail: true } },
            { id: 'm2', name: 'mcp__srv__echo', args: {} },
            { id: 'e1', name: 'Edit', args: { file_path: 'missing.txt', old_string: 'a', new_string: 'b' } }
          ]
        },
        { text: 'done' }
      ]
    })
    await fixture.run('go')
    const lines = readFileSync(path.join(fixture.root, 'post.jsonl'), 'utf8').trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0])).toMatchObject({
      tool_name: 'mcp__srv__echo',
      tool_input: {},
      tool_response: { content: [{ type: 'text', text: 'mcp ok' }], structuredContent: null, isError: false },
      tool_use_id: 'm2'
    })
  })
})
