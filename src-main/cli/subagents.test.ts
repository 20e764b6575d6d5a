// Subagents end to end (issue 27): the built `seam run` as a real process, a real project agent
// file under .claude/agents, Claude Code hooks from the project's .claude/settings.json run as real
// shell scripts that write their stdin to files, and a loopback server speaking the Anthropic wire
// protocol. Proves SubagentStart/SubagentStop inputs byte for byte in the shape
// claude-code-hooks.md §6 and claude-code-extensions.md 1(a) record, agent_id/agent_type in the
// subagent's PreToolUse, the subagent's side-chain transcript, and the SubagentStop block path.
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch } from '../../test-support/built-cli'

let home: string
let workspace: string
useCliScratch('subagents', (dirs) => ({ home, workspace } = dirs))

afterEach(async () => {
  await rm(join(workspace, '.claude'), { recursive: true, force: true })
  await rm(join(home, 'records'), { recursive: true, force: true })
})

const REVIEWER = ['---', 'name: reviewer', 'description: Reviews one file and reports', 'tools: Read', '---', 'You are the reviewer. Read the file and report.', ''].join('\n')

/** A hook script that appends its stdin to `<home>/records/<name>` (one line per run), then runs `then`. */
async function hookScript(name: string, record: string, then = ''): Promise<string> {
  const file = join(workspace, '.claude', 'hooks', name)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, ['#!/bin/sh', `mkdir -p "${join(home, 'records')}"`, `cat >> "${join(home, 'records', record)}"`, `echo >> "${join(home, 'records', record)}"`, then, ''].join('\n'), { mode: 0o755 })
  return `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${name}`
}

/** The raw lines a hook script recorded (each exactly the bytes it got on stdin). */
async function rawRecords(name: string): Promise<string[]> {
  const text = await readFile(join(home, 'records', name), 'utf8').catch(() => '')
  return text.split('\n').filter(Boolean)
}

const flags = (url: string) => ['--workspace', workspace, '--trust-workspace', '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'allow']

describe('subagents through seam run, with real agent files and real hook processes', () => {
  it('SubagentStart, the subagent\'s PreToolUse and SubagentStop get Claude Code\'s inputs byte for byte; a SubagentStop exit 2 keeps the subagent going with the feedback; Stop runs for the session only', async () => {
    await writeFile(join(workspace, 'notes.txt'), 'alpha\n')
    await mkdir(join(workspace, '.claude', 'agents'), { recursive: true })
    await writeFile(join(workspace, '.claude', 'agents', 'reviewer.md'), REVIEWER)
    const hooks = {
      SubagentStart: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: await hookScript('start.sh', 'start.jsonl') }] }],
      PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: await hookScript('pre.sh', 'pre.jsonl') }] }],
      SubagentStop: [
        {
          matcher: 'reviewer',
          hooks: [{ type: 'command', command: await hookScript('sstop.sh', 'subagent-stop.jsonl', `if [ ! -e "${join(home, 'records', 'blocked')}" ]; then touch "${join(home, 'records', 'blocked')}"; echo "say which line" >&2; exit 2; fi`) }]
        }
      ],
      Stop: [{ hooks: [{ type: 'command', command: await hookScript('stop.sh', 'stop.jsonl') }] }]
    }
    await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks }))

    const server = await startFakeAnthropic([
      { toolCalls: [{ name: 'Agent', args: { description: 'Review notes', prompt: 'Review notes.txt', subagent_type: 'reviewer' } }] },
      { toolCalls: [{ name: 'Read', args: { file_path: join(workspace, 'notes.txt') } }] },
      { text: 'notes.txt holds alpha' },
      { text: 'line 1 holds alpha' },
      { text: 'the reviewer says line 1 holds alpha' }
    ])
    try {
      const result = await runSeamHeadless(['run', ...flags(server.url), 'review notes.txt with the reviewer'], { cwd: workspace, home })
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toContain('the reviewer says line 1 holds alpha')
      expect(server.requests).toHaveLength(5)
      // The subagent's third request carries the hook's feedback in its own conversation.
      expect(JSON.stringify(server.requests[3].body.messages)).toContain(`Stop hook feedback:\\n[\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/sstop.sh]: say which line`)
      expect(JSON.stringify(server.requests[4].body.messages)).not.toContain('say which line')
    } finally {
      await server.close()
    }

    const [startLine] = await rawRecords('start.jsonl')
    const start = JSON.parse(startLine) as Record<string, string>
    const sessionId = start.session_id
    const agentId = start.agent_id
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/)
    const transcriptPath = join(home, 'seam', 'sessions', 'claude-transcripts', `${sessionId}.jsonl`)
    expect(startLine).toBe(JSON.stringify({ session_id: sessionId, transcript_path: transcriptPath, cwd: workspace, prompt_id: 'turn-1', hook_event_name: 'SubagentStart', agent_id: agentId, agent_type: 'reviewer' }))

    const [preLine] = await rawRecords('pre.jsonl')
    const pre = JSON.parse(preLine) as Record<string, unknown>
    expect(preLine).toBe(
      JSON.stringify({
        session_id: sessionId,
        transcript_path: transcriptPath,
        cwd: workspace,
        prompt_id: 'turn-1',
        permission_mode: 'bypassPermissions',
        effort: { level: 'medium' },
        agent_id: agentId,
        agent_type: 'reviewer',
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: pre.tool_input,
        tool_use_id: pre.tool_use_id
      })
    )
    expect(pre.tool_input).toMatchObject({ file_path: join(workspace, 'notes.txt') })

    const agentTranscriptPath = join(home, 'seam', 'sessions', 'claude-transcripts', sessionId, 'subagents', `agent-${agentId}.jsonl`)
    const stopLines = await rawRecords('subagent-stop.jsonl')
    const subagentStop = (active: boolean, last: string) =>
      JSON.stringify({
        session_id: sessionId,
        transcript_path: transcriptPath,
        cwd: workspace,
        prompt_id: 'turn-1',
        permission_mode: 'bypassPermissions',
        effort: { level: 'medium' },
        hook_event_name: 'SubagentStop',
        stop_hook_active: active,
        agent_id: agentId,
        agent_type: 'reviewer',
        agent_transcript_path: agentTranscriptPath,
        last_assistant_message: last,
        background_tasks: [],
        session_crons: []
      })
    expect(stopLines).toEqual([subagentStop(false, 'notes.txt holds alpha'), subagentStop(true, 'line 1 holds alpha')])

    // The subagent's transcript: Claude Code's format, a side chain naming the agent.
    const lines = (await readFile(agentTranscriptPath, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.every((line) => line.isSidechain === true && line.agentId === agentId && line.sessionId === sessionId)).toBe(true)
    expect(lines[0]).toMatchObject({ type: 'user', message: { role: 'user', content: 'Review notes.txt' } })
    expect(lines.at(-1)).toMatchObject({ type: 'assistant', message: { content: [{ type: 'text', text: 'line 1 holds alpha' }] } })
    // The child's own log sits beside the session's.
    expect(existsSync(join(home, 'seam', 'sessions', `${sessionId}.agents`, `${agentId}.jsonl`))).toBe(true)
    expect(basename(transcriptPath, '.jsonl')).toBe(sessionId)

    const stops = (await rawRecords('stop.jsonl')).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(stops).toHaveLength(1)
    expect(stops[0]).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'the reviewer says line 1 holds alpha' })
    expect(stops[0]).not.toHaveProperty('agent_id')
  })
})
