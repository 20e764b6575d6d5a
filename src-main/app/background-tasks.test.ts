// `/tasks` wording (CLI, ACP, the UI's command output): a background agent is listed with its type
// and task, and how it ended without an exit code (it has none); a command keeps its exit code.
import { describe, expect, it } from 'vitest'
import type { BackgroundTaskInfo } from '../../src-shared/host/background-tasks'
import { statusText, tasksText } from './background-tasks'

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
  })
})
