// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resetStores } from '../test/reset-stores'
import { eventLog, verdictAllowed, type EventInput } from '../test/events'
import { sessionActions, useSessionStore } from '../transcript/session-store'
import { TodoChecklist } from './TodoChecklist'
import { todosInForce, type TodoItem } from './todo-list'

const idle = { sessionId: 's1', running: false, queued: 0, steering: 0 }
const plan: TodoItem[] = [
  { content: 'Read the failing test', status: 'completed', activeForm: 'Reading the failing test' },
  { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser' },
  { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' }
]

function todoResult(callId: string, newTodos: unknown, isError = false): EventInput {
  return { type: 'tool/result', turnId: 't1', callId, token: callId, name: 'TodoWrite', content: 'ok', isError, structured: { oldTodos: [], newTodos }, verdict: verdictAllowed, durationMs: 1 }
}

beforeEach(() => resetStores())
afterEach(() => cleanup())

describe('todosInForce', () => {
  it('is the last successful TodoWrite list; failed writes and malformed results do not count; an all-completed list is cleared', () => {
    const log = eventLog()
    expect(todosInForce(log.all)).toEqual([])
    log.add(todoResult('a', plan))
    log.add(todoResult('b', [{ content: 'x', status: 'pending', activeForm: 'Doing x' }], true))
    log.add(todoResult('c', [{ content: 'x', status: 'weird' }]))
    log.add({ type: 'tool/result', turnId: 't1', callId: 'd', token: 'd', name: 'Read', content: '', isError: false, structured: { newTodos: [] }, verdict: verdictAllowed, durationMs: 1 })
    expect(todosInForce(log.all)).toEqual(plan)
    log.add(todoResult('e', plan.map((t) => ({ ...t, status: 'completed' }))))
    expect(todosInForce(log.all)).toEqual([])
  })
})

describe('TodoChecklist', () => {
  it("shows the item in progress by its activeForm, the count done and each item's status; it follows new writes and can be collapsed", () => {
    const log = eventLog()
    log.add(todoResult('a', plan))
    sessionActions.begin('s1')
    sessionActions.loaded({ id: 's1', events: log.all, state: idle, warnings: [] })
    render(<TodoChecklist />)
    const region = screen.getByRole('region', { name: 'Todo list' })
    expect(within(region).getByRole('status', { name: 'Current task' }).textContent).toBe('Fixing the parser')
    expect(region.textContent).toContain('1 of 3 done')
    const items = within(region).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual(['Read the failing test (done)', 'Fixing the parser (in progress)', 'Run the tests (to do)'])

    fireEvent.click(within(region).getByRole('button', { name: 'Hide plan' }))
    expect(within(region).queryAllByRole('listitem')).toHaveLength(0)
    expect(within(region).getByRole('button', { name: 'Show plan' }).getAttribute('aria-expanded')).toBe('false')

    const next = plan.map((t, i) => ({ ...t, status: i < 2 ? 'completed' : i === 2 ? 'in_progress' : t.status }))
    act(() => useSessionStore.setState({ events: [...log.all, { ...todoResult('b', next), seq: 2, ts: 1 } as never] }))
    expect(screen.getByRole('status', { name: 'Current task' }).textContent).toBe('Running the tests')
    expect(screen.getByRole('region', { name: 'Todo list' }).textContent).toContain('2 of 3 done')
  })

  it('shows nothing without a list, and nothing once every item is completed', () => {
    sessionActions.begin('s1')
    sessionActions.loaded({ id: 's1', events: [], state: idle, warnings: [] })
    const { container } = render(<TodoChecklist />)
    expect(container.innerHTML).toBe('')
    const log = eventLog()
    log.add(todoResult('a', plan.map((t) => ({ ...t, status: 'completed' }))))
    act(() => useSessionStore.setState({ events: log.all }))
    expect(screen.queryByRole('region', { name: 'Todo list' })).toBeNull()
  })
})
