// PreToolUse, every row of codex-hooks.md §5.1, end to end through the agent loop.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolDefinition } from '@seam/sdk'
import { createCodexFixture, hooksJson, oneHook, printJson, reminder, toolMessage, userTexts, type CodexFixture, type CodexFixtureOptions } from './test-fixture'
import { codexRolloutPath } from './rollout'

let fixture: CodexFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

const BASH = 'echo ran > ran.txt'

/** One Bash call, then a final answer; PreToolUse hooks from `project` .codex/hooks.json. */
async function bashTurn(hooks: unknown, options: Partial<CodexFixtureOptions> = {}): Promise<CodexFixture> {
  fixture = await createCodexFixture({
    project: { '.codex/hooks.json': hooks },
    script: [{ toolCalls: [{ id: 'c1', name: 'Bash', args: { command: BASH } }] }, { text: 'done' }],
    ...options
  })
  await fixture.run('go')
  return fixture
}

function ran(f: CodexFixture, file = 'ran.txt'): boolean {
  return existsSync(path.join(f.workspace, file))
}

function results(f: CodexFixture) {
  return f.ofType('hook/result').filter((e) => e.event === 'PreToolUse')
}

const deny = (reason?: string) => printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', ...(reason !== undefined ? { permissionDecisionReason: reason } : {}) } })

describe('PreToolUse blocks (codex-hooks.md §5.1)', () => {
  it('exit 2 + stderr: the tool does not run and the model reads Codex\'s wording; hook/* events are recorded', async () => {
    const f = await bashTurn(oneHook('PreToolUse', 'echo "no writes here" >&2; exit 2', 'Bash'))
    expect(ran(f)).toBe(false)
    const tool = toolMessage(f.model.requests[1], 'c1')
    expect(tool).toMatchObject({ content: `Command blocked by PreToolUse hook: no writes here. Command: ${BASH}`, isError: true })
    const invoked = f.ofType('hook/invoked')
    expect(invoked).toHaveLength(1)
    expect(invoked[0]).toMatchObject({ source: 'codex', event: 'PreToolUse', matcher: 'Bash', command: 'echo "no writes here" >&2; exit 2', handlerType: 'command' })
    expect(invoked[0].sourceFile).toBe(path.join(f.repo, '.codex', 'hooks.json'))
    expect(results(f)[0]).toMatchObject({ source: 'codex', outcomeKind: 'block', decision: 'deny', exitCode: 2, stderr: 'no writes here\n' })
    expect(results(f)[0].invocationId).toBe(invoked[0].invocationId)
    expect(f.ofType('tool/result')[0].verdict).toMatchObject({ outcome: 'denied', stage: 'pre-execute', reason: 'no writes here', by: 'codex:PreToolUse' })
  })

  it('permissionDecision deny with a reason blocks the same way', async () => {
    const f = await bashTurn(oneHook('PreToolUse', deny('policy says no')))
    expect(ran(f)).toBe(false)
    expect(toolMessage(f.model.requests[1], 'c1')?.content).toBe(`Command blocked by PreToolUse hook: policy says no. Command: ${BASH}`)
  })

  it('an MCP tool is blocked with the "Tool call blocked" wording', async () => {
    let calls = 0
    const echo: ToolDefinition<{ text: string }> = {
      name: 'mcp__srv__echo',
      description: 'echo',
      inputSchema: z.object({ text: z.string() }),
      execute: (args) => {
        calls++
        return { content: args.text }
      }
    }
    fixture = await createCodexFixture({
      project: { '.codex/hooks.json': oneHook('PreToolUse', deny('no mcp'), 'mcp__srv__.*') },
      extraTools: [echo as unknown as ToolDefinition],
      script: [{ toolCalls: [{ id: 'm1', name: 'mcp__srv__echo', args: { text: 'hi' } }] }, { text: 'done' }]
    })
    await fixture.run('go')
    expect(calls).toBe(0)
    expect(toolMessage(fixture.model.requests[1], 'm1')?.content).toBe('Tool call blocked by PreToolUse hook: no mcp. Tool: mcp__srv__echo')
  })

  it('legacy {"decision":"block","reason"} blocks like deny', async () => {
    const f = await bashTurn(oneHook('PreToolUse', printJson({ decision: 'block', reason: 'legacy says no' })))
    expect(ran(f)).toBe(false)
    expect(toolMessage(f.model.requests[1], 'c1')?.content).toBe(`Command blocked by PreToolUse hook: legacy says no. Command: ${BASH}`)
  })

  it('Write is presented as apply_patch, matched by the Edit|Write alias, and blocked with the patch as the command', async () => {
    fixture = await createCodexFixture({
      project: { '.codex/hooks.json': oneHook('PreToolUse', 'cat > "$PWD/../input.json"; echo "no new files" >&2; exit 2', 'Edit|Write') },
      script: [{ toolCalls: [{ id: 'w1', name: 'Write', args: { file_path: 'f.txt', content: 'hello\nworld\n' } }] }, { text: 'done' }]
    })
    await fixture.run('go')
    const patch = '*** Begin Patch\n*** Add File: f.txt\n+hello\n+world\n*** End Patch'
    expect(ran(fixture, 'f.txt')).toBe(false)
    expect(toolMessage(fixture.model.requests[1], 'w1')?.content).toBe(`Command blocked by PreToolUse hook: no new files. Command: ${patch}`)
    const input = JSON.parse(readFileSync(path.join(fixture.repo, '..', 'input.json'), 'utf8'))
    expect(input).toMatchObject({ tool_name: 'apply_patch', tool_input: { command: patch }, tool_use_id: 'w1' })
  })
})

describe('PreToolUse failures: recorded, shown to the user, and the tool runs (fail open)', () => {
  const failing: Array<[string, string, string]> = [
    ['deny without a reason', deny(), 'permissionDecisionReason'],
    ['decision "approve"', printJson({ decision: 'approve' }), 'approve'],
    ['reason without decision', printJson({ reason: 'why' }), 'reason without decision'],
    ['allow without updatedInput', printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }), 'permissionDecision:allow'],
    ['updatedInput without allow', printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo other > other.txt' } } }), 'updatedInput'],
    ['permissionDecision "ask"', printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'sure?' } }), 'ask'],
    ['continue:false', printJson({ continue: false }), 'continue:false'],
    ['stopReason', printJson({ stopReason: 'stop' }), 'stopReason'],
    ['suppressOutput', printJson({ suppressOutput: true }), 'suppressOutput'],
    ['an unknown field (strict parsing)', printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'x', extra: 1 } }), 'extra']
  ]
  for (const [name, command, mentions] of failing) {
    it(name, async () => {
      const f = await bashTurn(oneHook('PreToolUse', command))
      expect(ran(f)).toBe(true)
      expect(ran(f, 'other.txt')).toBe(false)
      expect(toolMessage(f.model.requests[1], 'c1')).toMatchObject({ content: '(no output)', isError: false })
      const result = results(f)[0]
      expect(result.outcomeKind).toBe('error')
      expect(result.errorMessage).toContain(mentions)
      const notice = f.notices().find((text) => text.startsWith('Codex PreToolUse hook failed'))
      expect(notice).toContain(command)
      expect(notice).toContain(result.errorMessage)
    })
  }
})

describe('PreToolUse rewrites and context', () => {
  it('allow + updatedInput replaces tool_input: the rewritten command runs, history keeps the model\'s call, PostToolUse sees the new input', async () => {
    const rewrite = printJson({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten > rewritten.txt', ignored: true } }
    })
    const f = await bashTurn(
      hooksJson({ PreToolUse: [{ matcher: 'Bash', hooks: [rewrite] }], PostToolUse: [{ hooks: ['cat > "$PWD/../post.json"'] }] })
    )
    expect(ran(f)).toBe(false)
    expect(ran(f, 'rewritten.txt')).toBe(true)
    const assistant = f.model.requests[1].messages.find((m) => m.role === 'assistant')
    expect(assistant).toMatchObject({ toolCalls: [{ id: 'c1', name: 'Bash', args: { command: BASH } }] })
    const call = f.ofType('tool/call')[0]
    expect(call).toMatchObject({ args: { command: 'echo rewritten > rewritten.txt' }, originalArgs: { command: BASH }, rewrittenBy: 'codex:PreToolUse' })
    const post = JSON.parse(readFileSync(path.join(f.repo, '..', 'post.json'), 'utf8'))
    expect(post.tool_input).toEqual({ command: 'echo rewritten > rewritten.txt' })
    expect(results(f)[0]).toMatchObject({ outcomeKind: 'ok', decision: 'allow' })
  })

  it('allow + updatedInput on apply_patch rewrites the Write arguments', async () => {
    const patch = '*** Begin Patch\n*** Add File: f.txt\n+sanitized\n*** End Patch'
    fixture = await createCodexFixture({
      project: {
        '.codex/hooks.json': oneHook('PreToolUse', printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: patch } } }), 'Write')
      },
      script: [{ toolCalls: [{ id: 'w1', name: 'Write', args: { file_path: 'f.txt', content: 'secret\n' } }] }, { text: 'done' }]
    })
    await fixture.run('go')
    expect(readFileSync(path.join(fixture.workspace, 'f.txt'), 'utf8')).toBe('sanitized\n')
  })

  it('additionalContext reaches the model after the call\'s output (also together with a deny)', async () => {
    const f = await bashTurn(
      hooksJson({
        PreToolUse: [
          { hooks: [printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'first context' } })] },
          { hooks: [printJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'denied', additionalContext: 'deny context' } })] }
        ]
      })
    )
    expect(ran(f)).toBe(false)
    const request = f.model.requests[1]
    const messages = request.messages
    const toolIndex = messages.findIndex((m) => m.role === 'tool')
    expect(messages[toolIndex]).toMatchObject({ content: `Command blocked by PreToolUse hook: denied. Command: ${BASH}` })
    expect(messages[toolIndex + 1]).toEqual({ role: 'user', content: `${reminder('first context')}\n\n${reminder('deny context')}` })
    expect(userTexts(request)).toHaveLength(2)
  })

  it('systemMessage is a notice for the user only', async () => {
    const f = await bashTurn(oneHook('PreToolUse', printJson({ systemMessage: 'heads up' })))
    expect(ran(f)).toBe(true)
    expect(f.notices()).toContain('Codex PreToolUse hook: heads up')
    expect(JSON.stringify(f.model.requests[1].messages)).not.toContain('heads up')
  })

  it('plain stdout on PreToolUse is ignored', async () => {
    const f = await bashTurn(oneHook('PreToolUse', 'echo just text'))
    expect(ran(f)).toBe(true)
    expect(results(f)[0].outcomeKind).toBe('ok')
    expect(JSON.stringify(f.model.requests[1].messages)).not.toContain('just text')
  })

  it('hook stdin carries Codex\'s field names', async () => {
    const f = await bashTurn(oneHook('PreToolUse', 'cat > "$PWD/../pre.json"'))
    const input = JSON.parse(readFileSync(path.join(f.repo, '..', 'pre.json'), 'utf8'))
    expect(input).toEqual({
      session_id: f.log.id,
      transcript_path: codexRolloutPath({ sessionId: f.log.id, transcriptPath: f.log.path }),
      cwd: f.workspace,
      hook_event_name: 'PreToolUse',
      model: 'scripted-1',
      permission_mode: 'default',
      turn_id: 'turn-1',
      tool_name: 'Bash',
      tool_input: { command: BASH },
      tool_use_id: 'c1'
    })
  })

  it('permission_mode follows the approval mode in force (codex-hooks.md §4): never-ask reads bypassPermissions', async () => {
    const f = await bashTurn(oneHook('PreToolUse', 'cat > "$PWD/../pre.json"'), { config: { permissionMode: 'bypassPermissions' } })
    expect(JSON.parse(readFileSync(path.join(f.repo, '..', 'pre.json'), 'utf8')).permission_mode).toBe('bypassPermissions')
  })
})

describe('transcript_path is a rollout-style file (codex-hooks.md §4)', () => {
  it('a hook finds the user prompt, the function call and its output as rollout lines written before it starts', async () => {
    const f = await bashTurn(oneHook('PostToolUse', 'python3 -c \'import json,sys,shutil; shutil.copy(json.load(sys.stdin)["transcript_path"], "../rollout-copy.jsonl")\''))
    const lines = readFileSync(path.join(f.repo, '..', 'rollout-copy.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { timestamp: string; type: string; payload: Record<string, unknown> })
    expect(lines[0]).toMatchObject({ type: 'session_meta', payload: { id: f.log.id, cwd: f.workspace } })
    expect(lines.slice(1).map((line) => [line.type, line.payload.type])).toEqual([
      ['response_item', 'message'],
      ['event_msg', 'user_message'],
      ['response_item', 'function_call']
    ])
    expect(lines[1].payload).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] })
    expect(lines[3].payload).toEqual({ type: 'function_call', name: 'Bash', arguments: JSON.stringify({ command: BASH }), call_id: 'c1' })
    for (const line of lines) expect(Number.isNaN(Date.parse(line.timestamp))).toBe(false)
  })
})
