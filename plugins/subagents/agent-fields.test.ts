// An agent file's `skills`, `mcpServers` and `hooks` on the real loop (issue 27,
// claude-code-extensions.md 1(a) "Frontmatter"): the whole host against the loopback OpenAI-wire
// server, real SKILL.md files, real stdio MCP server processes and real hook processes (shell
// scripts that record their stdin).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '@seam/sdk'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { cwdOf, hookRecords as records, hostPerTest, ofType, recordingHook as recorder } from './test-host'

const SCRIPTED_SERVER = join(import.meta.dirname, '..', 'mcp', 'test-servers', 'scripted-server.mjs')

const startHost = hostPerTest()

const toolNames = (body: OpenAIRequestBody): string[] => (body.tools ?? []).map((tool) => tool.function.name)
const isWorker = (body: OpenAIRequestBody): boolean => String(body.messages[0]?.content).includes('WORKER-MARKER')

/** This test process's children whose command line holds `marker` (MCP servers are spawned by the host in this process). */
function processes(marker: string): number {
  const out = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
  return out.split('\n').filter((line) => line.includes(marker)).length
}

describe("an agent file's skills and hooks", () => {
  it('skills are preloaded whole (substituted as the Skill tool does) before the task, an unknown one is a notice naming the file and the skill; hooks run for that agent only and while it runs, its Stop hook as SubagentStop', async () => {
    const agentFile = [
      '---',
      'name: worker',
      'description: Does the work',
      'tools: Read',
      'skills: [deploy, nosuch]',
      'hooks:',
      '  PreToolUse:',
      '    - matcher: Read',
      '      hooks:',
      '        - type: command',
      '          command: \'"$HOME"/.claude/hooks/pre.sh\'',
      '  Stop:',
      '    - hooks:',
      '        - type: command',
      '          command: \'"$HOME"/.claude/hooks/stop.sh\'',
      '---',
      'You are WORKER-MARKER.',
      ''
    ].join('\n')
    const host = await startHost({
      files: {
        'workspace/.claude/agents/worker.md': agentFile,
        'workspace/.claude/skills/deploy/SKILL.md': '---\ndescription: Deploys the app\n---\nDEPLOY-BODY: run the scripts in ${CLAUDE_SKILL_DIR}/scripts\n',
        'workspace/a.txt': 'alpha\n',
        'home/.claude/hooks/pre.sh': recorder('pre.jsonl'),
        'home/.claude/hooks/stop.sh': recorder('stop.jsonl')
      },
      conversations: [
        { marker: 'WORKER-MARKER', turns: [(body) => ({ toolCalls: [{ name: 'Read', args: { file_path: join(cwdOf(body), 'a.txt') } }] }), { text: 'worker done' }] },
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Do the work', prompt: 'THE-TASK', subagent_type: 'worker' } }] },
            // The session's own Read after the agent ended: the agent's PreToolUse hook is gone.
            (body) => ({ toolCalls: [{ name: 'Read', args: { file_path: join(cwdOf(body) || host!.workspace, 'a.txt') } }] }),
            { text: 'main done' }
          ]
        }
      ]
    })
    const { events } = await host.run('go')
    const agentResult = ofType(events, 'tool/result').find((result) => result.name === 'Agent')
    expect(agentResult).toMatchObject({ isError: false, content: 'worker done' })
    const agentId = (agentResult!.structured as { agentId: string }).agentId

    // The skill's whole message is in the worker's first request, before its task; never in the session's.
    const first = host.model.requests.find((request) => isWorker(request.body))!.body
    // (Consecutive user-side messages may be joined into one on the wire: the order is what counts.)
    const conversation = JSON.stringify(first.messages.slice(1))
    const skillAt = conversation.indexOf('<command-name>/deploy</command-name>')
    expect(skillAt).toBeGreaterThan(-1)
    expect(conversation).toContain(`DEPLOY-BODY: run the scripts in ${join(host.workspace, '.claude', 'skills', 'deploy')}/scripts`)
    expect(conversation.indexOf('THE-TASK')).toBeGreaterThan(skillAt)
    expect(host.model.requests.filter((request) => !isWorker(request.body)).some((request) => JSON.stringify(request.body).includes('DEPLOY-BODY'))).toBe(false)
    const notices = ofType(events, 'notice').map((notice) => notice.text)
    expect(notices).toContainEqual(expect.stringMatching(new RegExp(`^Agent file ${join(host.workspace, '.claude', 'agents', 'worker.md').replace(/[.]/g, '\\.')}: skill "nosuch" not preloaded: no skill named "nosuch"`)))

    // PreToolUse: the worker's Read only (with its agent_id), not the session's Read after it.
    expect(ofType(events, 'tool/result').filter((result) => result.name === 'Read')).toHaveLength(1)
    expect(records(host.root, 'pre.jsonl')).toMatchObject([{ hook_event_name: 'PreToolUse', tool_name: 'Read', agent_id: agentId, agent_type: 'worker' }])
    // The agent's Stop hook ran as SubagentStop, once, for the worker; not for the session's own turn.
    expect(records(host.root, 'stop.jsonl')).toMatchObject([{ hook_event_name: 'SubagentStop', agent_id: agentId, agent_type: 'worker', last_assistant_message: 'worker done' }])
  })
})

describe("an agent file's MCP servers", () => {
  it('an inline server is started for the agent, its tools offered and callable by it alone, and stopped when it ends; a configured server named is the agent\'s beyond its tools list; an unknown name is a notice', async () => {
    const agentFile = [
      '---',
      'name: worker',
      'description: Uses its own server',
      'tools: Read',
      'mcpServers:',
      '  - shared',
      '  - missing',
      '  - own:',
      `      command: ${JSON.stringify(process.execPath)}`,
      `      args: [${JSON.stringify(SCRIPTED_SERVER)}, list-changed, OWN-SERVER-MARKER]`,
      '---',
      'You are WORKER-MARKER.',
      ''
    ].join('\n')
    let runningDuringCall = -1
    const host = await startHost({
      files: {
        'workspace/.claude/agents/worker.md': agentFile,
        'workspace/.mcp.json': JSON.stringify({ mcpServers: { shared: { command: process.execPath, args: [SCRIPTED_SERVER, 'list-changed'] } } })
      },
      conversations: [
        {
          marker: 'WORKER-MARKER',
          turns: [
            { toolCalls: [{ name: 'mcp__own__grow', args: {} }, { name: 'mcp__shared__fails', args: {} }] },
            () => {
              runningDuringCall = processes('OWN-SERVER-MARKER')
              return { text: 'worker done' }
            }
          ]
        },
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Use the server', prompt: 'grow', subagent_type: 'worker' } }] },
            { toolCalls: [{ name: 'mcp__own__grow', args: {} }] },
            { text: 'main done' }
          ]
        }
      ]
    })
    const { events } = await host.run('go')
    expect(ofType(events, 'tool/result').find((result) => result.name === 'Agent')).toMatchObject({ isError: false, content: 'worker done' })

    // Offered: the worker gets its own server's tools and the named shared server's beside Read; the session never sees the worker's.
    const workerTools = toolNames(host.model.requests.find((request) => isWorker(request.body))!.body)
    expect(workerTools).toEqual(expect.arrayContaining(['Read', 'mcp__own__grow', 'mcp__own__fails', 'mcp__shared__grow', 'mcp__shared__fails']))
    expect(workerTools).not.toContain('Bash')
    const sessionTools = toolNames(host.model.requests.find((request) => !isWorker(request.body))!.body)
    expect(sessionTools).toContain('mcp__shared__grow')
    expect(sessionTools.filter((name) => name.startsWith('mcp__own__'))).toEqual([])

    // The worker's calls reached both servers (its own log), and its own server ran while it did.
    const childLog = ofType(events, 'subagent/start')[0]!.file
    const childEvents = readFileSync(join(host.home, 'sessions', childLog), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as SessionEvent)
    expect(ofType(childEvents, 'tool/result').map((result) => [result.name, result.isError, result.content])).toEqual([
      ['mcp__own__grow', false, 'grew'],
      ['mcp__shared__fails', true, 'it broke']
    ])
    expect(runningDuringCall).toBe(1)

    // The session's own call to the worker's tool is refused; the worker's server is gone, the shared one still runs.
    const sessionCall = ofType(events, 'tool/result').find((result) => result.name === 'mcp__own__grow')
    expect(sessionCall).toMatchObject({ isError: true })
    expect(sessionCall!.content).toMatch(/Unknown tool "mcp__own__grow"/)
    expect(processes('OWN-SERVER-MARKER')).toBe(0)
    expect(host.runtime.kernel.getService('mcp')!.servers().map((server) => [server.name, server.state])).toEqual([['shared', 'connected']])
    expect(ofType(events, 'notice').map((notice) => notice.text)).toContainEqual(expect.stringContaining('worker.md: MCP server "missing" is not configured (configured: shared)'))
  })

  it("a Codex agent file's [mcp_servers.NAME] tables are read as config.toml's (enabled_tools filters), started for that agent alone and stopped when it ends; a table that is not one skips the file naming the field", async () => {
    const codexAgent = [
      'name = "worker"',
      'description = "Uses its own Codex server"',
      'developer_instructions = "You are WORKER-MARKER."',
      '',
      '[mcp_servers.own]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(SCRIPTED_SERVER)}, "list-changed", "CODEX-SERVER-MARKER"]`,
      'enabled_tools = ["grow"]',
      'startup_timeout_sec = 30',
      ''
    ].join('\n')
    let runningDuringCall = -1
    const host = await startHost({
      files: {
        'workspace/.codex/agents/worker.toml': codexAgent,
        'home/.codex/agents/broken.toml': 'name = "broken"\ndescription = "d"\ndeveloper_instructions = "x"\nmcp_servers = { own = "not a table" }\n'
      },
      conversations: [
        {
          marker: 'WORKER-MARKER',
          turns: [
            { toolCalls: [{ name: 'mcp__own__grow', args: {} }] },
            () => {
              runningDuringCall = processes('CODEX-SERVER-MARKER')
              return { text: 'worker done' }
            }
          ]
        },
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Use the server', prompt: 'grow', subagent_type: 'worker' } }] },
            { toolCalls: [{ name: 'mcp__own__grow', args: {} }] },
            { text: 'main done' }
          ]
        }
      ]
    })
    const { events } = await host.run('go')
    expect(ofType(events, 'tool/result').find((result) => result.name === 'Agent')).toMatchObject({ isError: false, content: 'worker done' })

    // Codex's enabled_tools kept "fails" out; the session never sees the worker's server.
    const workerTools = toolNames(host.model.requests.find((request) => isWorker(request.body))!.body)
    expect(workerTools.filter((name) => name.startsWith('mcp__'))).toEqual(['mcp__own__grow'])
    const sessionTools = toolNames(host.model.requests.find((request) => !isWorker(request.body))!.body)
    expect(sessionTools.filter((name) => name.startsWith('mcp__own__'))).toEqual([])

    const childLog = ofType(events, 'subagent/start')[0]!.file
    const childEvents = readFileSync(join(host.home, 'sessions', childLog), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as SessionEvent)
    expect(ofType(childEvents, 'tool/result').map((result) => [result.name, result.isError, result.content])).toEqual([['mcp__own__grow', false, 'grew']])
    expect(runningDuringCall).toBe(1)

    const sessionCall = ofType(events, 'tool/result').find((result) => result.name === 'mcp__own__grow')
    expect(sessionCall).toMatchObject({ isError: true })
    expect(sessionCall!.content).toMatch(/Unknown tool "mcp__own__grow"/)
    expect(processes('CODEX-SERVER-MARKER')).toBe(0)

    const skipped = host.runtime.kernel.getService('subagents')!.skipped(host.workspace)
    expect(skipped).toContainEqual(expect.objectContaining({ file: join(host.home, '.codex', 'agents', 'broken.toml'), field: 'mcp_servers.own' }))
  })

  it('in an untrusted workspace the project agent does not run, so its inline server never starts', async () => {
    const host = await startHost({
      trusted: false,
      files: {
        'workspace/.claude/agents/worker.md': ['---', 'name: worker', 'description: d', 'mcpServers:', '  - own:', `      command: ${JSON.stringify(process.execPath)}`, `      args: [${JSON.stringify(SCRIPTED_SERVER)}, list-changed, UNTRUSTED-MARKER]`, '---', 'WORKER-MARKER', ''].join('\n')
      },
      conversations: [{ marker: '', turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'x', prompt: 'x', subagent_type: 'worker' } }] }, { text: 'done' }] }]
    })
    const { events } = await host.run('go')
    expect(ofType(events, 'tool/result')[0]).toMatchObject({ name: 'Agent', isError: true })
    expect(ofType(events, 'tool/result')[0]!.content).toMatch(/Agent type 'worker' not found/)
    expect(processes('UNTRUSTED-MARKER')).toBe(0)
  })
})
