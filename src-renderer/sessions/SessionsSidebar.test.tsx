// @vitest-environment happy-dom
// The sidebar's search (issue 17, "Working fast": sessions): titles filter at once, the content
// search runs once typing pauses, an answer to an older query is dropped, a match shows its snippet
// with the words marked, and opening it asks the transcript to scroll to the matched event.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { appActions } from '../app/app-store'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { useSessionStore } from '../transcript/session-store'
import { SessionsSidebar } from './SessionsSidebar'
import { sessionsActions } from './sessions-store'
import { SEARCH_DEBOUNCE_MS } from './use-session-search'

type Summary = MethodOutput<'sessions/list'>[number]
const summary = (id: string, title: string, lastActivity: number): Summary => ({ id, title, workspace: '/w', createdAt: 1, lastActivity, eventCount: 5 })
const sessions = [summary('s1', 'where should we go', 20), summary('s2', 'release plan', 10)]

let host: FakeHost
let answers: Array<() => void>

beforeEach(async () => {
  resetStores()
  answers = []
  appActions.setStatus({ version: '0.1.0', mode: 'web', seamHome: '/h', workspace: '/w', workspaceTrusted: true, provider: null, approvalMode: 'ask-side-effects' })
  host = new FakeHost({
    'sessions/list': () => sessions,
    'sessions/open': ({ id }) => ({ id, events: [], total: 0, nextSeq: null, state: { sessionId: id, running: false, queued: 0, steering: 0 }, warnings: [] }),
    // Answers wait until the test releases them, so their order can be chosen.
    'sessions/search': ({ query }) =>
      new Promise((resolve) => {
        answers.push(() =>
          resolve(
            query === 'zanzibar'
              ? [{ ...sessions[0], titleMatch: false, match: { seq: 4, kind: 'assistant' as const, snippet: 'We should visit Zanzibar in June.', highlights: [{ start: 16, end: 24 }] } }]
              : []
          )
        )
      })
  })
  await sessionsActions.refresh(host)
})
afterEach(cleanup)

const rows = () => within(screen.getByRole('list', { name: 'Session list' })).getAllByRole('button', { name: /^(where|release)/ })

describe('sessions sidebar search', () => {
  it('filters titles at once, then shows the content matches with the word marked; an older answer is dropped', async () => {
    render(<HostProvider host={host}><SessionsSidebar /></HostProvider>)
    const box = screen.getByRole('searchbox', { name: 'Search sessions' })
    fireEvent.change(box, { target: { value: 'release' } })
    expect(rows().map((r) => r.getAttribute('title'))).toEqual(['release plan'])
    expect(host.callsOf('sessions/search')).toEqual([])

    fireEvent.change(box, { target: { value: 'zanzibar' } })
    // No title holds it: nothing yet, and no "no match" verdict before the content search answers.
    expect(screen.queryByText(/No session matches/)).toBeNull()
    await waitFor(() => expect(host.callsOf('sessions/search')).toEqual([{ query: 'zanzibar' }]), { timeout: SEARCH_DEBOUNCE_MS * 10 })
    fireEvent.change(box, { target: { value: 'nothing' } })
    await waitFor(() => expect(host.callsOf('sessions/search')).toHaveLength(2), { timeout: SEARCH_DEBOUNCE_MS * 10 })
    // The answer to "zanzibar" arrives after "nothing" was asked: dropped.
    await act(async () => answers[0]())
    expect(screen.queryByText('Zanzibar')).toBeNull()
    await act(async () => answers[1]())
    expect(screen.getByText(/No session matches “nothing”/)).toBeTruthy()

    fireEvent.change(box, { target: { value: 'zanzibar' } })
    await waitFor(() => expect(answers).toHaveLength(3), { timeout: SEARCH_DEBOUNCE_MS * 10 })
    await act(async () => answers[2]())
    const [row] = rows()
    expect(row.querySelector('mark')?.textContent).toBe('Zanzibar')
    expect(row.textContent).toContain('in a reply')
    expect(screen.getByRole('status').textContent).toBe('1 session matches')

    // Opening it passes the matched event and the words to the transcript.
    await act(async () => fireEvent.click(row))
    expect(host.callsOf('sessions/open')).toEqual([{ id: 's1' }])
    expect(useSessionStore.getState().focus).toEqual({ seq: 4, words: ['zanzibar'] })
  })
})
