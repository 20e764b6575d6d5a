// `/tasks` wording (CLI, ACP, the UI's command output): a background agent is listed with its type
// and task, and how it ended without an exit code (it has none); a command keeps its exit code.
import { describe, expect, it } from 'vitest'
import type { BackgroundTaskInfo } from '../../src-shared/host/background-tasks'
import type { SessionEvent } from '../../src-shared/session/events'
import { tasksFromLog } from '../../src-shared/session/task-events'
import { sessionTasks, statusText, tasksText } from './background-tasks'

const agent = (over: Partial<BackgroundTaskInfo> = {}): BackgroundTaskInfo => ({
  id: 'a0123456789abcdef',
  sessionId: 's1',
  taskType: 'local_agent',
  command: 'Review the diff',
  description: 'Review the diff',
  agentType: 'reviewer',
  outputPath: '/sessions/s1.agents/a0123456789abcdef.output',
  status: 'running',
  startedAt: 1_000,
  ...over
})

describe('/tasks with background agents', () => {
  it('lists an agent with its type and task; a running one, a finished one and a stopped one read without an exit code', () => {
    const command: BackgroundTaskInfo = { id: 'b12345678', sessionId: 's1', command: 'npm test', outputPath: '/o', status: 'failed', exitCode: 1, startedAt: 500, endedAt: 2_500 }
    const text = tasksText([command, agent(), agent({ id: 'a2', status: 'completed', endedAt: 4_000 })], 62_000)
    expect(text.split('\n')).toEqual([
      'Background tasks: 1 running, 2 ended',
      '  b12345678  failed (exit code 1)  2s  npm test',
      '    output: /o',
      '  a0123456789abcdef  running  1m 1s  agent reviewer: Review the diff',
      '    output: /sessions/s1.agents/a0123456789abcdef.output',
      '  a2  completed  3s  agent reviewer: Review the diff',
      '    output: /sessions/s1.agents/a0123456789abcdef.output'
    ])
    expect(statusText(agent({ status: 'killed', endReason: 'stopped' }))).toBe('stopped')
    expect(statusText(agent({ status: 'killed' }))).toBe('stopped')
    expect(statusText(agent({ status: 'killed', endReason: 'session-closed' }))).toBe('stopped when the session closed')
    expect(statusText(agent({ status: 'failed' }))).toBe('failed')
    expect(statusText(agent({ status: 'killed', endReason: 'host-exited' }))).toBe('ended when Seam stopped')
  })
})

describe('background agents of an earlier run (a resumed session)', () => {
  const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }
  const start = (agentId: string, seq: number, background = true): SessionEvent => ({
    type: 'subagent/start',
    seq,
    ts: seq * 1_000,
    token: `t${seq}`,
    agentId,
    agentType: 'worker',
    description: `job ${agentId}`,
    file: `s1.agents/${agentId}.jsonl`,
    ...(background ? { background: true, outputFile: `/sessions/s1.agents/${agentId}.output` } : {})
  })
  const end = (agentId: string, seq: number, reason: 'completed' | 'cancelled' | 'error' | 'max_steps'): SessionEvent => ({
    type: 'subagent/end',
    seq,
    ts: seq * 1_000,
    token: 't',
    agentId,
    reason,
    steps: 1,
    toolUseCount: 0,
    durationMs: 5,
    usage,
    model: 'm'
  })

  it("reads each background agent's start and end from the log: completed (a turn limit too), failed, stopped, and one the host's end cut short; a foreground agent is no task", () => {
    const events = [
      start('a1', 1),
      start('a2', 2),
      start('a3', 3),
      start('a4', 4),
      start('a5', 5),
      start('fg', 6, false),
      end('a1', 7, 'completed'),
      end('a2', 8, 'error'),
      end('a3', 9, 'cancelled'),
      end('a4', 10, 'max_steps'),
      end('fg', 11, 'completed')
    ]
    const logged = tasksFromLog('s1', events)
    expect(logged.map(({ info, dangling }) => [info.id, info.status, info.endReason, dangling])).toEqual([
      ['a1', 'completed', undefined, false],
      ['a2', 'failed', undefined, false],
      ['a3', 'killed', undefined, false],
      ['a4', 'completed', undefined, false],
      ['a5', 'killed', 'host-exited', true]
    ])
    expect(logged[0]!.info).toEqual({
      id: 'a1',
      sessionId: 's1',
      taskType: 'local_agent',
      command: 'job a1',
      description: 'job a1',
      agentType: 'worker',
      outputPath: '/sessions/s1.agents/a1.output',
      status: 'completed',
      startedAt: 1_000,
      endedAt: 7_000
    })
    // `/tasks` with no plugin holding them (the UI's tasks/list after a restart).
    expect(tasksText(sessionTasks(undefined, 's1', events), 12_000).split('\n').filter((line) => line.startsWith('  a'))).toEqual([
      '  a1  completed  6s  agent worker: job a1',
      '  a2  failed  6s  agent worker: job a2',
      '  a3  stopped  6s  agent worker: job a3',
      '  a4  completed  6s  agent worker: job a4',
      '  a5  ended when Seam stopped  7s  agent worker: job a5'
    ])
  })
})
