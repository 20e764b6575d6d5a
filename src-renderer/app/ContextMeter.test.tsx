// @vitest-environment happy-dom
// The chat header's context meter and the transcript rows for instructions files and compaction (issue 16).
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src-shared/session/events'
import { buildTranscript } from '../transcript/build-transcript'
import { useSessionStore } from '../transcript/session-store'
import { TranscriptRow } from '../transcript/TranscriptRow'
import { ContextMeter, formatCost } from './ContextMeter'

afterEach(cleanup)

const usage = (seq: number, input: number, output: number, cost?: number): SessionEvent => ({
  type: 'usage/step', seq, ts: seq, turnId: 't', step: 0, provider: 'p', model: 'm', contextWindow: 1000,
  usage: { inputTokens: input, cachedInputTokens: 0, outputTokens: output, reasoningTokens: 0 }, ...(cost !== undefined ? { costUsd: cost } : {})
})

describe('ContextMeter', () => {
  it('shows the last request against the context window and the summed cost', () => {
    useSessionStore.setState({ events: [usage(1, 300, 50, 0.01), usage(2, 800, 50, 0.02)] })
    render(<ContextMeter />)
    expect(screen.getByRole('meter', { name: 'Context window used' }).getAttribute('aria-valuenow')).toBe('85')
    expect(screen.getByLabelText('Context and cost').textContent).toContain('85% context · $0.03')
    expect(screen.getByLabelText('Context and cost').getAttribute('title')).toContain('Cost: $0.030000')
  })

  it('formats the cost as dollars and cents, with no "+" for unpriced requests (they are counted in the title)', () => {
    expect([0, 0.0014, 0.01, 0.126, 12.5, 1234.4].map(formatCost)).toEqual(['$0.00', '<$0.01', '$0.01', '$0.13', '$12.50', '$1,234'])
    useSessionStore.setState({ events: [usage(1, 300, 50, 0.0014), usage(2, 400, 50)] })
    render(<ContextMeter />)
    const meter = screen.getByLabelText('Context and cost')
    expect(meter.textContent).toContain('45% context · <$0.01')
    expect(meter.getAttribute('title')).toContain('1 request(s) have no price')
  })

  it('forgets the old window after a model switch: tokens until the new model reports its window', () => {
    const switched: SessionEvent = { type: 'model/switched', seq: 2, ts: 2, provider: 'p', model: 'big', from: { provider: 'p', model: 'm' } }
    useSessionStore.setState({ events: [usage(1, 800, 50, 0.01), switched] })
    render(<ContextMeter />)
    expect(screen.queryByRole('meter')).toBeNull()
    expect(screen.getByLabelText('Context and cost').textContent).toContain('850 tokens · $0.01')
  })

  it('shows nothing before the first counted request', () => {
    useSessionStore.setState({ events: [] })
    const { container } = render(<ContextMeter />)
    expect(container.textContent).toBe('')
  })
})

describe('transcript rows', () => {
  it('lists the delivered instructions files with their text, and marks a compaction with its summary', () => {
    const events: SessionEvent[] = [
      { type: 'instructions/loaded', seq: 1, ts: 1, files: [{ path: '/w/CLAUDE.md', memoryType: 'Project', loadReason: 'session_start', content: 'use tabs' }], text: 'x' },
      { type: 'compaction', seq: 2, ts: 2, trigger: 'manual', summary: 'we did things', fromSeq: 1, toSeq: 1, replacedMessages: 4 },
      usage(3, 10, 1)
    ]
    const { items } = buildTranscript(events)
    expect(items.map((i) => i.kind)).toEqual(['instructions', 'compaction'])
    render(<>{items.map((item) => <TranscriptRow key={item.key} row={item} />)}</>)
    expect(screen.getByLabelText('Instructions files').textContent).toContain('/w/CLAUDE.md')
    expect(screen.getByLabelText('Instructions files').textContent).toContain('use tabs')
    expect(screen.getByRole('separator', { name: 'Conversation compacted' }).textContent).toContain('we did things')
  })
})
