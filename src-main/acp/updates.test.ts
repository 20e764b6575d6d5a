// Session events -> ACP updates, stop reasons, prompt blocks and permission answers: the pure
// parts of `seam acp` (acp.test.ts drives the whole process).
import { describe, expect, it } from 'vitest'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'
import { answerOf, askClient, permissionOptions } from './permission'
import { promptContent, promptText, PromptContentError } from './prompt-content'
import { toolView } from './tool-view'
import { diffOf, planOf, stopReasonOf, UpdateMapper } from './updates'

const base = { seq: 1, ts: 0 }
const turnEnd = (reason: SessionEventOf<'turn/end'>['reason'], error?: string): SessionEventOf<'turn/end'> => ({ type: 'turn/end', ...base, turnId: 't', reason, ...(error ? { error } : {}) })
const assistant = (stopReason?: string): SessionEventOf<'assistant/message'> => ({ type: 'assistant/message', ...base, turnId: 't', step: 0, text: '', toolCalls: [], ...(stopReason ? { stopReason } : {}) })

describe('stop reasons', () => {
  it('map every TurnEndReason; rejected ends cancelled (S21), an error fails the request', () => {
    expect(stopReasonOf(turnEnd('completed'), assistant('end_turn'))).toEqual({ stopReason: 'end_turn' })
    expect(stopReasonOf(turnEnd('completed'), assistant('max_tokens'))).toEqual({ stopReason: 'max_tokens' })
    expect(stopReasonOf(turnEnd('completed'), assistant('refusal'))).toEqual({ stopReason: 'refusal' })
    expect(stopReasonOf(turnEnd('max_steps'), undefined)).toEqual({ stopReason: 'max_turn_requests' })
    expect(stopReasonOf(turnEnd('rejected'), undefined)).toEqual({ stopReason: 'cancelled' })
    expect(stopReasonOf(turnEnd('cancelled'), undefined)).toEqual({ stopReason: 'cancelled' })
    expect(stopReasonOf(turnEnd('error', 'HTTP 401'), undefined)).toEqual({ error: 'HTTP 401' })
  })
})

describe('UpdateMapper', () => {
  const events: SessionEvent[] = [
    { type: 'user/message', seq: 2, ts: 0, turnId: 'turn-1', content: 'rewritten', originalContent: 'typed', source: 'user' },
    { type: 'assistant/message', seq: 3, ts: 0, turnId: 'turn-1', step: 0, text: 'Looking.', thinking: 'plan', toolCalls: [{ id: 'a', name: 'Read', args: { file_path: 'src/x.ts' } }] },
    { type: 'tool/call', seq: 4, ts: 0, turnId: 'turn-1', callId: 'a', token: 'tok', name: 'Read', args: { file_path: 'src/y.ts' }, originalArgs: { file_path: 'src/x.ts' }, rewrittenBy: 'hooks-claude' },
    { type: 'tool/result', seq: 5, ts: 0, turnId: 'turn-1', callId: 'a', token: 'tok', name: 'Read', content: '1\tx', isError: false, verdict: { outcome: 'allowed', stage: 'pre-execute' }, durationMs: 1 },
    { type: 'notice', seq: 6, ts: 0, level: 'warn', text: 'a hook failed', source: 'hooks-claude' }
  ]

  it('replays what the user typed, the thinking and text, and the call as announced, sealed (S18) and finished', () => {
    const mapper = new UpdateMapper({ cwd: '/ws', notices: false })
    const updates = events.flatMap((e) => mapper.fromEvent(e, 'replay'))
    expect(updates.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'agent_thought_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update', 'tool_call_update', 'agent_message_chunk'])
    expect(updates[0]).toMatchObject({ content: { type: 'text', text: 'typed' } })
    expect(updates[3]).toMatchObject({ toolCallId: 'turn-1/a', kind: 'read', title: 'Read src/x.ts', rawInput: { file_path: 'src/x.ts' }, locations: [{ path: '/ws/src/x.ts', line: 1 }] })
    expect(updates[4]).toMatchObject({ rawInput: { file_path: 'src/y.ts' }, title: 'Read src/y.ts', _meta: { seam: { originalArgs: { file_path: 'src/x.ts' }, rewrittenBy: 'hooks-claude' } } })
    expect(updates[5]).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '1\tx' } }] })
    expect(updates[6]).toMatchObject({ messageId: 'notice/6', content: { text: '[hooks-claude] a hook failed' } })
  })

  it('live, leaves the text to the streamed deltas and shows notices as notices when the client can', () => {
    const mapper = new UpdateMapper({ cwd: '/ws', notices: true })
    const updates = events.flatMap((e) => mapper.fromEvent(e, 'live'))
    expect(updates.map((u) => u.sessionUpdate)).toEqual(['tool_call', 'tool_call_update', 'tool_call_update', 'notice'])
    expect(updates[3]).toMatchObject({ severity: 'warning', title: 'a hook failed' })
    expect(mapper.fromDelta({ turnId: 'turn-2', step: 1, kind: 'thinking', text: 'hm' })).toEqual([
      { sessionUpdate: 'agent_thought_chunk', messageId: 'turn-2/1', content: { type: 'text', text: 'hm' } }
    ])
  })

  it('announces a call that never sealed (cancelled while waiting for a slot) before its result', () => {
    const mapper = new UpdateMapper({ cwd: '/ws', notices: false })
    const result: SessionEvent = { type: 'tool/result', seq: 9, ts: 0, turnId: 't', callId: 'late', token: '', name: 'Bash', content: 'cancelled', isError: true, code: 'CANCELLED', verdict: { outcome: 'denied', stage: 'pre-execute' }, durationMs: 0 }
    const updates = mapper.fromEvent(result, 'live')
    expect(updates).toMatchObject([{ sessionUpdate: 'tool_call', toolCallId: 't/late', kind: 'execute' }, { sessionUpdate: 'tool_call_update', status: 'failed', _meta: { seam: { code: 'CANCELLED' } } }])
  })
})

describe('diffs and plans', () => {
  it('Write shows a new file with no old text; Edit shows the whole file before and after', () => {
    expect(diffOf('Write', { type: 'create', filePath: '/a', content: 'x\n', originalFile: null, structuredPatch: [] })?.content).toEqual({ type: 'diff', path: '/a', oldText: null, newText: 'x\n' })
    const edit = diffOf('Edit', {
      filePath: '/b',
      oldString: 'two',
      newString: 'TWO',
      originalFile: 'one\ntwo\n',
      replaceAll: false,
      structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' one', '-two', '+TWO'] }]
    })
    expect(edit).toEqual({ content: { type: 'diff', path: '/b', oldText: 'one\ntwo\n', newText: 'one\nTWO\n' }, line: 2 })
    expect(diffOf('Bash', { stdout: '' })).toBeUndefined()
  })

  it("the list a TodoWrite result wrote (Claude Code's newTodos) is the plan; anything else is not", () => {
    expect(planOf('TodoWrite', { oldTodos: [], newTodos: [{ content: 'a', status: 'in_progress', activeForm: 'Doing a' }, { content: 'b', status: 'pending', priority: 'high' }] })).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'a', status: 'in_progress', priority: 'medium' },
        { content: 'b', status: 'pending', priority: 'high' }
      ]
    })
    expect(planOf('TodoWrite', { newTodos: [{ content: 'a', status: 'done' }] })).toBeUndefined()
    expect(planOf('TodoWrite', 'text')).toBeUndefined()
    expect(planOf('Write', { newTodos: [] })).toBeUndefined()
  })

  it('tool views: Bash shows its description or command, searches their pattern, paths outside the workspace stay absolute', () => {
    expect(toolView('Bash', { command: 'npm test', description: 'Run the tests' }, '/ws')).toEqual({ kind: 'execute', title: 'Run the tests', locations: [] })
    expect(toolView('Bash', { command: 'ls\n-la' }, '/ws').title).toBe('`ls ⏎ -la`')
    expect(toolView('Grep', { pattern: 'TODO', path: 'src' }, '/ws')).toEqual({ kind: 'search', title: 'Search for "TODO" in src', locations: [{ path: '/ws/src' }] })
    expect(toolView('Write', { file_path: '/etc/hosts' }, '/ws').title).toBe('Write /etc/hosts')
    expect(toolView('mcp__x__y', {}, '/ws')).toEqual({ kind: 'other', title: 'mcp__x__y', locations: [] })
  })
})

describe('prompt content', () => {
  it('keeps mentions in place and appends embedded text resources as context', () => {
    const text = promptText([
      { type: 'text', text: 'explain ' },
      { type: 'resource', resource: { uri: 'file:///ws/a.ts', text: 'const a = 1', mimeType: 'text/x-typescript' } },
      { type: 'text', text: ' and ' },
      { type: 'resource_link', uri: 'file:///ws/b.ts', name: 'b.ts' }
    ])
    expect(text).toBe('explain [@a.ts](file:///ws/a.ts) and [@b.ts](file:///ws/b.ts)\n\n<context uri="file:///ws/a.ts" mimeType="text/x-typescript">\nconst a = 1\n</context>')
  })

  it('image blocks become the prompt\'s images (the composer\'s path); a bad type or data is refused naming the block', () => {
    expect(promptContent([{ type: 'text', text: 'what is this?' }, { type: 'image', data: 'iVBORw0K', mimeType: 'image/png' }])).toEqual({
      text: 'what is this?',
      images: [{ mediaType: 'image/png', data: 'iVBORw0K' }]
    })
    expect(() => promptContent([{ type: 'text', text: 'x' }, { type: 'image', data: '', mimeType: 'image/png' }])).toThrow(/prompt\[1\]\.data: must be the image's bytes in base64/)
    expect(() => promptContent([{ type: 'image', data: 'AAAA', mimeType: 'image/bmp' }])).toThrow(/prompt\[0\]\.mimeType: image\/bmp is not an image Seam can send/)
  })

  it('refuses binary resources and an empty message, naming the block', () => {
    expect(() => promptText([{ type: 'resource', resource: { uri: 'file:///x.bin', blob: 'AA==' } }])).toThrow(PromptContentError)
    expect(() => promptText([{ type: 'text', text: '  ' }])).toThrow(/the message is empty/)
  })
})

describe('permission answers (S11)', () => {
  const scope = { tool: 'Bash', pattern: { command: 'ls' }, description: 'Bash: ls' }

  it('the three options map to allowed-once, allowed-session and denied (with the note); cancelled stays cancelled', () => {
    expect(permissionOptions({ scope }).map((o) => [o.optionId, o.kind])).toEqual([
      ['allow-once', 'allow_once'],
      ['allow-session', 'allow_always'],
      ['reject', 'reject_once']
    ])
    expect(answerOf({ outcome: { outcome: 'selected', optionId: 'allow-once' } }).outcome).toBe('allowed-once')
    expect(answerOf({ outcome: { outcome: 'selected', optionId: 'allow-session' } }).outcome).toBe('allowed-session')
    expect(answerOf({ outcome: { outcome: 'selected', optionId: 'reject' }, _meta: { note: 'no' } })).toEqual({ outcome: 'denied', by: 'acp', note: 'no' })
    expect(answerOf({ outcome: { outcome: 'cancelled' } }).outcome).toBe('cancelled')
  })

  it('an ask with rules adds "always allow", whose name shows the rules and where they are saved before anything is', () => {
    const ruled = { tool: 'Bash', pattern: {}, description: 'Bash(npm test:*)', rules: ['Bash(npm test:*)'] }
    expect(permissionOptions({ scope: ruled }).map((o) => [o.optionId, o.name, o.kind])).toEqual([
      ['allow-once', 'Allow once', 'allow_once'],
      ['allow-session', 'Allow for this session: Bash(npm test:*)', 'allow_always'],
      ['allow-always', 'Always allow Bash(npm test:*) (saved in .claude/settings.local.json)', 'allow_always'],
      ['reject', 'Reject', 'reject_once']
    ])
    expect(answerOf({ outcome: { outcome: 'selected', optionId: 'allow-always' } })).toEqual({ outcome: 'allowed-always', by: 'acp', saveTo: 'workspace' })
  })

  it('an option never offered, a malformed answer or a failed request is unavailable; an aborted ask is cancelled', async () => {
    expect(answerOf({ outcome: { outcome: 'selected', optionId: 'yes-please' } })).toMatchObject({ outcome: 'unavailable', note: expect.stringMatching(/yes-please/) })
    expect(answerOf({ outcome: { outcome: 'maybe' } })).toMatchObject({ outcome: 'unavailable', note: expect.stringMatching(/malformed/) })
    const request = { id: 'r', sessionId: 's', tool: 'Bash', args: { command: 'ls' }, token: 't', reason: 'why', scope, signal: new AbortController().signal }
    const failing = { toolCallFor: () => ({ toolCallId: 'x' }), requestPermission: () => Promise.reject(new Error('connection closed')) }
    expect(await askClient(failing, request)).toMatchObject({ outcome: 'unavailable', note: expect.stringMatching(/connection closed/) })
    const aborted = new AbortController()
    aborted.abort()
    expect((await askClient(failing, { ...request, signal: aborted.signal })).outcome).toBe('cancelled')
  })
})
