// SubagentStart and SubagentStop on the real loop (issue 27): the whole host against the loopback
// OpenAI-wire server, with Claude Code hooks from a real ~/.claude/settings.json run as real
// processes (shell scripts that record their stdin). Proves the inputs' fields and key order
// (claude-code-hooks.md §6 SubagentStart / SubagentStop, claude-code-extensions.md 1(a)), the
// additionalContext delivered into the subagent, agent_id/agent_type on the subagent's tool hooks,
// the subagent's own transcript, and the block path (the subagent goes on with the feedback).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionEvent, SessionEventOf } from '@seam/sdk'
import { cwdOf, hookRecords as records, hostPerTest, ofType, recordingHook as script } from './test-host'

const REVIEWER = ['---', 'name: reviewer', 'description: Reviews one file', 'tools: Read', '---', 'You are REVIEWER-MARKER.', ''].join('\n')

const startHost = hostPerTest()

const hookFiles = (hooks: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(hooks).map(([name, body]) => [`home/.claude/hooks/${name}`, body]))

/** `home/.claude/settings.json` naming the scripts through $HOME (the test's home, set before the host starts). */
function settings(hooks: Record<string, Array<{ matcher?: string; script: string }>>): Record<string, string> {
  const shaped = Object.fromEntries(
    Object.entries(hooks).map(([event, groups]) => [
      event,
      groups.map((group) => ({ ...(group.matcher !== undefined ? { matcher: group.matcher } : {}), hooks: [{ type: 'command', command: `"$HOME"/.claude/hooks/${group.script}` }] }))
    ])
  )
  return { 'home/.claude/settings.json': JSON.stringify({ hooks: shaped }) }
}

describe('SubagentStart and SubagentStop (Claude Code hooks) on the real loop', () => {
  it('SubagentStart (matched on agent_type) gets agent_id and agent_type and its additionalContext reaches the subagent; the subagent\'s PreToolUse carries agent_id/agent_type; SubagentStop gets agent_transcript_path (a side-chain transcript) and the last message; Stop runs for the session only', async () => {
    const host = await startHost({
      files: {
        'workspace/.claude/agents/reviewer.md': REVIEWER,
        'workspace/a.txt': 'alpha\n',
        ...hookFiles({
          'start.sh': script('start.jsonl', `printf '%s' '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"CONTEXT-FOR-REVIEWER"}}'`),
          'other.sh': script('other-start.jsonl'),
          'pre.sh': script('pre.jsonl'),
          'sstop.sh': script('subagent-stop.jsonl'),
          'stop.sh': script('stop.jsonl')
        }),
        ...settings({
          SubagentStart: [{ matcher: 'reviewer', script: 'start.sh' }, { matcher: 'Explore', script: 'other.sh' }],
          PreToolUse: [{ matcher: 'Read', script: 'pre.sh' }],
          SubagentStop: [{ matcher: 'reviewer', script: 'sstop.sh' }],
          Stop: [{ script: 'stop.sh' }]
        })
      },
      conversations: [
        { marker: 'REVIEWER-MARKER', turns: [(body) => ({ toolCalls: [{ name: 'Read', args: { file_path: join(cwdOf(body), 'a.txt') } }] }), { text: 'a.txt says alpha' }] },
        { marker: '', turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'Review a file', prompt: 'Review a.txt', subagent_type: 'reviewer' } }] }, { text: 'main done' }] }
      ]
    })
    const root = host.root
    const { events } = await host.run('review a.txt')
    const session = { id: (events[0] as SessionEventOf<'session/header'>).sessionId }
    expect(ofType(events, 'tool/result')[0]).toMatchObject({ name: 'Agent', isError: false, content: 'a.txt says alpha' })
    const agentId = (ofType(events, 'tool/result')[0].structured as { agentId: string }).agentId
    const turnId = ofType(events, 'turn/start')[0].turnId

    const [start] = records(root, 'start.jsonl')
    expect(Object.keys(start)).toEqual(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'hook_event_name', 'agent_id', 'agent_type'])
    expect(start).toEqual({ session_id: session.id, transcript_path: start.transcript_path, cwd: host.workspace, prompt_id: turnId, hook_event_name: 'SubagentStart', agent_id: agentId, agent_type: 'reviewer' })
    expect(String(start.transcript_path).endsWith(join('claude-transcripts', `${session.id}.jsonl`))).toBe(true)
    expect(records(root, 'other-start.jsonl')).toEqual([])

    // The context is in the subagent's first request, not the parent's.
    const childRequests = host.model.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes('REVIEWER-MARKER'))
    expect(JSON.stringify(childRequests[0].body.messages)).toContain('SubagentStart hook additional context: CONTEXT-FOR-REVIEWER')
    expect(host.model.requests.filter((r) => !JSON.stringify(r.body.messages[0]).includes('REVIEWER-MARKER')).some((r) => JSON.stringify(r.body).includes('CONTEXT-FOR-REVIEWER'))).toBe(false)

    const [pre] = records(root, 'pre.jsonl')
    expect(Object.keys(pre)).toEqual(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'agent_id', 'agent_type', 'hook_event_name', 'tool_name', 'tool_input', 'tool_use_id'])
    expect(pre).toMatchObject({ session_id: session.id, transcript_path: start.transcript_path, prompt_id: turnId, agent_id: agentId, agent_type: 'reviewer', tool_name: 'Read' })

    const [stop] = records(root, 'subagent-stop.jsonl')
    expect(Object.keys(stop)).toEqual(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'hook_event_name', 'stop_hook_active', 'agent_id', 'agent_type', 'agent_transcript_path', 'last_assistant_message', 'background_tasks', 'session_crons'])
    const childTranscript = String(stop.agent_transcript_path)
    expect(stop).toMatchObject({ hook_event_name: 'SubagentStop', stop_hook_active: false, agent_id: agentId, agent_type: 'reviewer', last_assistant_message: 'a.txt says alpha', background_tasks: [], session_crons: [] })
    expect(childTranscript).toBe(join(String(start.transcript_path).replace(/\.jsonl$/, ''), 'subagents', `agent-${agentId}.jsonl`))
    const lines = readFileSync(childTranscript, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.every((line) => line.isSidechain === true && line.agentId === agentId && line.sessionId === session.id)).toBe(true)
    expect(lines.map((line) => line.type)).toEqual(['user', 'attachment', 'assistant', 'user', 'assistant'])
    expect(lines[0]).toMatchObject({ message: { role: 'user', content: 'Review a.txt' } })
    expect(lines.at(-1)).toMatchObject({ message: { content: [{ type: 'text', text: 'a.txt says alpha' }] } })

    // Stop: once, for the session's turn (with its own last message), never for the subagent.
    expect(records(root, 'stop.jsonl')).toMatchObject([{ hook_event_name: 'Stop', last_assistant_message: 'main done' }])
    expect(records(root, 'stop.jsonl')[0]).not.toHaveProperty('agent_id')
  })

  it('SubagentStop exit 2 keeps the subagent going with "Stop hook feedback" in its own conversation (stop_hook_active on re-entry); decision "block" too, capped by stopBlockCap', async () => {
    const blockOnce = script('subagent-stop.jsonl', ['marker="$(dirname "$0")/blocked-once"', 'if [ ! -e "$marker" ]; then touch "$marker"; echo "check the second file too" >&2; exit 2; fi'].join('\n'))
    const host = await startHost({
      files: { 'workspace/.claude/agents/reviewer.md': REVIEWER, ...hookFiles({ 'sstop.sh': blockOnce }), ...settings({ SubagentStop: [{ script: 'sstop.sh' }] }) },
      conversations: [
        { marker: 'REVIEWER-MARKER', turns: [{ text: 'first answer' }, { text: 'second answer' }] },
        { marker: '', turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'Review', prompt: 'Review it', subagent_type: 'reviewer' } }] }, { text: 'main done' }] }
      ]
    })
    const { events } = await host.run('review')
    expect(ofType(events, 'tool/result')[0]).toMatchObject({ name: 'Agent', content: 'second answer' })
    const inputs = records(host.root, 'subagent-stop.jsonl')
    expect(inputs.map((input) => [input.stop_hook_active, input.last_assistant_message])).toEqual([
      [false, 'first answer'],
      [true, 'second answer']
    ])
    const childRequests = host.model.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes('REVIEWER-MARKER'))
    expect(childRequests).toHaveLength(2)
    const command = '"$HOME"/.claude/hooks/sstop.sh'
    expect(JSON.stringify(childRequests[1].body.messages)).toContain(JSON.stringify(`Stop hook feedback:\n[${command}]: check the second file too`).slice(1, -1))
    // The parent's requests never see the feedback.
    expect(host.model.requests.filter((r) => !JSON.stringify(r.body.messages[0]).includes('REVIEWER-MARKER')).some((r) => JSON.stringify(r.body).includes('check the second file'))).toBe(false)
  })

  it('a SubagentStop hook that always blocks is overridden at stopBlockCap: the subagent ends, the parent gets its last text', async () => {
    const host = await startHost({
      files: {
        'workspace/.claude/agents/reviewer.md': REVIEWER,
        ...hookFiles({ 'sstop.sh': script('subagent-stop.jsonl', `printf '%s' '{"decision":"block","reason":"not yet"}'`) }),
        ...settings({ SubagentStop: [{ script: 'sstop.sh' }] })
      },
      patch: '- id: hooks-claude\n  config: { stopBlockCap: 2 }\n',
      conversations: [
        { marker: 'REVIEWER-MARKER', turns: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] },
        { marker: '', turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'Review', prompt: 'Review it', subagent_type: 'reviewer' } }] }, { text: 'main done' }] }
      ]
    })
    const { events } = await host.run('review')
    expect(ofType(events, 'tool/result')[0]).toMatchObject({ name: 'Agent', content: 'two' })
    expect(records(host.root, 'subagent-stop.jsonl')).toHaveLength(2)
    const childRequests = host.model.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes('REVIEWER-MARKER'))
    expect(JSON.stringify(childRequests[1].body.messages)).toContain('Stop hook feedback:\\nnot yet')
    expect(JSON.stringify(childRequests[1].body.messages)).toContain('SubagentStop hook blocking error from command')
  })
})


describe('SubagentStart and SubagentStop (Codex hooks) on the real loop', () => {
  it('~/.codex/hooks.json: SubagentStart (agent_type matcher) with the child turn, its context in the subagent\'s first request; PreToolUse inside carries agent_id/agent_type and the child\'s rollout; SubagentStop exit 2 continues the subagent with a <hook_prompt>', async () => {
    const codexHooks = (hooks: Record<string, Array<{ matcher?: string; script: string }>>) =>
      JSON.stringify({
        hooks: Object.fromEntries(Object.entries(hooks).map(([event, groups]) => [event, groups.map((g) => ({ ...(g.matcher ? { matcher: g.matcher } : {}), hooks: [{ type: 'command', command: `"$HOME"/.claude/hooks/${g.script}` }] }))]))
      })
    const blockOnce = script('codex-stop.jsonl', ['marker="$(dirname "$0")/codex-blocked"', 'if [ ! -e "$marker" ]; then touch "$marker"; echo "one more look" >&2; exit 2; fi'].join('\n'))
    const host = await startHost({
      files: {
        'workspace/.claude/agents/reviewer.md': REVIEWER,
        'workspace/a.txt': 'alpha\n',
        ...hookFiles({ 'cstart.sh': script('codex-start.jsonl', `printf '%s' '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"CODEX-CONTEXT"}}'`), 'cpre.sh': script('codex-pre.jsonl'), 'cstop.sh': blockOnce }),
        'home/.codex/hooks.json': codexHooks({ SubagentStart: [{ matcher: 'reviewer', script: 'cstart.sh' }], PreToolUse: [{ matcher: 'Read', script: 'cpre.sh' }], SubagentStop: [{ matcher: 'reviewer', script: 'cstop.sh' }] })
      },
      conversations: [
        { marker: 'REVIEWER-MARKER', turns: [(body) => ({ toolCalls: [{ name: 'Read', args: { file_path: join(cwdOf(body), 'a.txt') } }] }), { text: 'first' }, { text: 'second' }] },
        { marker: '', turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'Review', prompt: 'Review a.txt', subagent_type: 'reviewer' } }] }, { text: 'main done' }] }
      ]
    })
    const { events } = await host.run('review')
    const sessionId = (events[0] as SessionEventOf<'session/header'>).sessionId
    expect(ofType(events, 'tool/result')[0]).toMatchObject({ name: 'Agent', content: 'second' })
    const agentId = (ofType(events, 'tool/result')[0].structured as { agentId: string }).agentId

    const [start] = records(host.root, 'codex-start.jsonl')
    expect(Object.keys(start)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'permission_mode', 'turn_id', 'agent_id', 'agent_type'])
    expect(start).toMatchObject({ session_id: sessionId, hook_event_name: 'SubagentStart', model: 'm', turn_id: `${agentId}/turn-1`, agent_id: agentId, agent_type: 'reviewer' })
    const rollout = String(start.transcript_path)
    expect(rollout.endsWith(join('codex-rollouts', `rollout-${agentId}.jsonl`))).toBe(true)
    const childRequests = host.model.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes('REVIEWER-MARKER'))
    expect(JSON.stringify(childRequests[0].body.messages)).toContain('CODEX-CONTEXT')

    const pre = records(host.root, 'codex-pre.jsonl')
    expect(pre.map((input) => input.tool_name)).toEqual(['Read'])
    expect(Object.keys(pre[0]).slice(0, 9)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'permission_mode', 'agent_id', 'agent_type', 'turn_id'])
    expect(pre[0]).toMatchObject({ transcript_path: rollout, agent_id: agentId, agent_type: 'reviewer' })

    const stops = records(host.root, 'codex-stop.jsonl')
    expect(Object.keys(stops[0])).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'permission_mode', 'turn_id', 'agent_id', 'agent_type', 'agent_transcript_path', 'last_assistant_message', 'stop_hook_active'])
    expect(stops.map((input) => [input.last_assistant_message, input.stop_hook_active, input.agent_transcript_path])).toEqual([
      ['first', false, rollout],
      ['second', true, rollout]
    ])
    expect(existsSync(rollout)).toBe(true)
    expect(JSON.stringify(childRequests.at(-1)!.body.messages)).toMatch(/<hook_prompt hook_run_id=\\"subagent_stop:[^"\\]*\\">one more look<\/hook_prompt>/)
  })
})

describe('an agent\'s permissionMode', () => {
  it('the subagent\'s calls run under its permissionMode (dontAsk: a call that would ask is refused, though the user would allow it); its hooks read that permission_mode; the session\'s own calls keep the session\'s mode', async () => {
    const STRICT = ['---', 'name: strict', 'description: Never asks', 'tools: Bash', 'permissionMode: dontAsk', '---', 'You are STRICT-MARKER.', ''].join('\n')
    const host = await startHost({
      files: {
        'workspace/.claude/agents/strict.md': STRICT,
        ...hookFiles({ 'pre.sh': script('pre.jsonl') }),
        ...settings({ PreToolUse: [{ matcher: 'Bash', script: 'pre.sh' }] })
      },
      conversations: [
        { marker: 'STRICT-MARKER', turns: [{ toolCalls: [{ name: 'Bash', args: { command: 'touch made-by-agent' } }] }, { text: 'could not' }] },
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Touch', prompt: 'Touch a file', subagent_type: 'strict' } }] },
            { toolCalls: [{ name: 'Bash', args: { command: 'touch made-by-session' } }] },
            { text: 'done' }
          ]
        }
      ]
    })
    const { events } = await host.run('go')
    const start = ofType(events, 'subagent/start')[0]
    const childResults = readFileSync(join(host.home, 'sessions', start.file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SessionEvent)
      .filter((event): event is SessionEventOf<'tool/result'> => event.type === 'tool/result')
    expect(childResults[0]).toMatchObject({ name: 'Bash', isError: true })
    expect(existsSync(join(host.workspace, 'made-by-agent'))).toBe(false)
    // The session's own call is asked for and the user (here: the test's answerer) allows it.
    expect(ofType(events, 'tool/result')[1]).toMatchObject({ name: 'Bash', isError: false })
    expect(existsSync(join(host.workspace, 'made-by-session'))).toBe(true)
    expect(records(host.root, 'pre.jsonl').map((input) => [input.permission_mode, input.agent_type])).toEqual([
      ['dontAsk', 'strict'],
      ['default', undefined]
    ])
  })
})
