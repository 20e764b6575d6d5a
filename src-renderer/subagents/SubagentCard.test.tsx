// @vitest-environment happy-dom
// The subagent card in the transcript: type, task, live status, usage and cost, the nested
// transcript (streamed from `subagent/appended` and `agent/delta` while it runs, read with
// `subagents/events` once opened), Stop, and the status a finished or stopped subagent keeps.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HostProvider } from '../app/host-context'
import { wireHost, type HostWiring } from '../app/wire-host'
import { eventLog, verdictAllowed } from '../test/events'
import { FakeHost } from '../test/fake-host'
import { fakeTranscriptLayout } from '../test/fake-layout'
import { resetStores } from '../test/reset-stores'
import { sessionActions } from '../transcript/session-store'
import { Transcript } from '../transcript/Transcript'
import { subagentActions } from './subagent-store'
import type { SessionEvent } from '../../src-shared/session/events'

let host: FakeHost
let wiring: HostWiring
let restoreLayout: () => void

const AGENT = 'a0123456789abcdef'

function parentLog() {
  const log = eventLog()
  log.add({ type: 'turn/start', turnId: 't1' })
  log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Agent', args: { description: 'Find the config', prompt: 'Where is the config read?', subagent_type: 'Explore' } })
  log.add({ type: 'subagent/start', turnId: 't1', token: 'k1', agentId: AGENT, agentType: 'Explore', description: 'Find the config', file: `s1.agents/${AGENT}.jsonl` })
  return log
}

function childLog() {
  const log = eventLog()
  log.add({ type: 'session/header', sessionId: AGENT, version: 1, workspace: '/w', createdAt: 1, title: 'Find the config' })
  log.add({ type: 'turn/start', turnId: `${AGENT}/turn-1` })
  log.add({ type: 'user/message', turnId: `${AGENT}/turn-1`, content: 'Where is the config read?', source: 'user' })
  log.add({ type: 'assistant/message', turnId: `${AGENT}/turn-1`, step: 1, text: '', toolCalls: [{ id: 'g1', name: 'Grep', args: { pattern: 'loadConfig' } }] })
  log.add({ type: 'tool/call', turnId: `${AGENT}/turn-1`, callId: 'g1', token: 'k2', parent: 'k1', name: 'Grep', args: { pattern: 'loadConfig' } })
  log.add({ type: 'tool/result', turnId: `${AGENT}/turn-1`, callId: 'g1', token: 'k2', name: 'Grep', content: 'src/config.ts', isError: false, durationMs: 3, verdict: verdictAllowed })
  log.add({ type: 'usage/step', turnId: `${AGENT}/turn-1`, step: 1, provider: 'p', model: 'm', usage: { inputTokens: 1500, cachedInputTokens: 0, outputTokens: 40, reasoningTokens: 0 }, costUsd: 0.0123 })
  return log
}

function open(events: SessionEvent[], running: boolean) {
  sessionActions.begin('s1')
  sessionActions.loaded({ id: 's1', events, state: { sessionId: 's1', running, queued: 0, steering: 0 }, warnings: [] })
  render(<HostProvider host={host}><Transcript /></HostProvider>)
}

const card = () => screen.getByRole('article', { name: 'Subagent Explore: Find the config' })

beforeEach(() => {
  resetStores()
  subagentActions.reset()
  restoreLayout = fakeTranscriptLayout()
  host = new FakeHost()
  wiring = wireHost(host)
})
afterEach(() => {
  wiring.dispose()
  cleanup()
  restoreLayout()
})

describe('SubagentCard', () => {
  it('shows a running subagent live: its type and task, the pushed tool calls and streamed text inside, usage and cost as they come, and Stop', async () => {
    const child = childLog()
    host.handlers['subagents/events'] = () => ({ events: child.all.slice(0, 3) })
    host.handlers['subagents/stop'] = () => ({ stopped: true })
    open(parentLog().all, true)
    expect(card().getAttribute('data-status')).toBe('running')
    expect(within(card()).getByText('Explore')).toBeTruthy()
    expect(within(card()).getByText('Find the config')).toBeTruthy()

    fireEvent.click(within(card()).getByRole('button', { name: 'Show the subagent’s transcript' }))
    await waitFor(() => expect(within(card()).getByLabelText('Task given to the subagent').textContent).toContain('Where is the config read?'))
    expect(host.callsOf('subagents/events')).toEqual([{ sessionId: 's1', agentId: AGENT }])

    // The rest arrives live, under the parent session.
    act(() => {
      for (const event of child.all.slice(3)) host.emit('subagent/appended', { sessionId: 's1', agentId: AGENT, event })
      host.emit('agent/delta', { sessionId: AGENT, turnId: `${AGENT}/turn-1`, step: 2, kind: 'text', text: 'It is read in src/con' })
    })
    const nested = within(card()).getByRole('group', { name: 'Transcript of subagent Explore' })
    expect(within(nested).getByRole('article', { name: 'Tool call Grep' }).getAttribute('data-status')).toBe('done')
    expect(within(nested).getByText(/It is read in src\/con/)).toBeTruthy()
    expect(within(card()).getByLabelText('Subagent usage').textContent).toBe('1 tool call · 1.5k in / 40 out · $0.01')
    // A push for another session's subagent changes nothing here.
    act(() => host.emit('subagent/appended', { sessionId: 'other', agentId: AGENT, event: { ...child.all[6], seq: 99 } }))
    expect(within(card()).getByLabelText('Subagent usage').textContent).toBe('1 tool call · 1.5k in / 40 out · $0.01')

    fireEvent.click(within(card()).getByRole('button', { name: 'Stop subagent Explore' }))
    await waitFor(() => expect(host.callsOf('subagents/stop')).toEqual([{ sessionId: 's1', agentId: AGENT }]))
  })

  it('a finished subagent shows done with its totals from subagent/end and what the parent was told; a stopped one shows stopped', () => {
    const log = parentLog()
    log.add({ type: 'subagent/end', turnId: 't1', token: 'k1', agentId: AGENT, reason: 'completed', steps: 2, toolUseCount: 3, durationMs: 2500, usage: { inputTokens: 12_000, outputTokens: 900, cachedInputTokens: 0 }, costUsd: 0.42, model: 'm-1' })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Agent', content: 'It is read in src/config.ts', isError: false, durationMs: 2600, verdict: verdictAllowed })
    open(log.all, false)
    expect(card().getAttribute('data-status')).toBe('done')
    expect(within(card()).queryByRole('button', { name: /Stop subagent/ })).toBeNull()
    expect(within(card()).getByLabelText('Subagent usage').textContent).toBe('3 tool calls · 12k in / 900 out · $0.42 · 2.5 s · m-1')
    expect(within(card()).getByText('What the parent agent was told')).toBeTruthy()
    cleanup()

    const stopped = parentLog()
    stopped.add({ type: 'subagent/end', turnId: 't1', token: 'k1', agentId: AGENT, reason: 'cancelled', steps: 1, toolUseCount: 0, durationMs: 100, usage: { inputTokens: 10, outputTokens: 0, cachedInputTokens: 0 }, model: 'm-1' })
    stopped.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Agent', content: '[Request interrupted by user for tool use]', isError: true, durationMs: 120, verdict: verdictAllowed })
    open(stopped.all, true)
    expect(card().getAttribute('data-status')).toBe('stopped')
    expect(within(card()).getByLabelText('Status: stopped')).toBeTruthy()
  })

  it('a subagent that failed says why; reading its log failing says so in the card', async () => {
    const log = parentLog()
    log.add({ type: 'subagent/end', turnId: 't1', token: 'k1', agentId: AGENT, reason: 'error', error: 'the model refused', steps: 1, toolUseCount: 0, durationMs: 10, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }, model: 'm' })
    host.handlers['subagents/events'] = () => {
      throw new Error('the subagent log could not be read')
    }
    open(log.all, false)
    expect(card().getAttribute('data-status')).toBe('failed')
    expect(within(card()).getByText('Failed: the model refused')).toBeTruthy()
    fireEvent.click(within(card()).getByRole('button', { name: 'Show the subagent’s transcript' }))
    await waitFor(() => expect(within(card()).getByRole('alert').textContent).toContain('the subagent log could not be read'))
  })

  it("a plugin's subagentStatusLine row replaces the default rows: read when the view opens, then pushed; colours as spans, escapes and markup never as HTML; gone when the rows are cleared", async () => {
    host.handlers['subagents/status-lines'] = () => ({ lines: [{ agentId: AGENT, content: '\u001b[1;32m● working\u001b[0m \u001b[2K<b>bold?</b>\u001b]0;title\u0007 \u001b[31mhot\u001b[0m', plugin: 'rows' }] })
    open(parentLog().all, true)
    const row = await within(card()).findByLabelText('Subagent status line')
    expect(host.callsOf('subagents/status-lines')).toEqual([{ sessionId: 's1' }])
    expect(row.textContent).toBe('● working <b>bold?</b> hot')
    expect(row.querySelector('b')).toBeNull()
    expect(row.getAttribute('title')).toBe("Drawn by the rows plugin's subagentStatusLine: ● working <b>bold?</b> hot")
    expect(within(row).getByText('● working').className).toBe('ansi-success ansi-bold')
    expect(within(row).getByText('hot').className).toBe('ansi-danger')
    expect((within(card()).getByLabelText('Subagent usage') as HTMLElement).hidden).toBe(true)

    // A push replaces it; another session's push changes nothing here; an empty list brings the default rows back.
    act(() => host.emit('subagent/status-lines', { sessionId: 's1', lines: [{ agentId: AGENT, content: 'step 2', plugin: 'rows' }] }))
    expect(within(card()).getByLabelText('Subagent status line').textContent).toBe('step 2')
    act(() => host.emit('subagent/status-lines', { sessionId: 'other', lines: [] }))
    expect(within(card()).getByLabelText('Subagent status line').textContent).toBe('step 2')
    act(() => host.emit('subagent/status-lines', { sessionId: 's1', lines: [] }))
    expect(within(card()).queryByLabelText('Subagent status line')).toBeNull()
    expect((within(card()).getByLabelText('Subagent usage') as HTMLElement).hidden).toBe(false)
  })
})
