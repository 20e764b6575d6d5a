// @vitest-environment happy-dom
// A row's time: the time of day for a session active today, the day for an older one, formatted
// as the browser's locale writes them (the formatters are made once, not per row and render).
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, it } from 'vitest'
import { SessionRow } from './SessionRow'

afterEach(cleanup)

const row = (id: string, lastActivity: number) => (
  <SessionRow session={{ id, title: id, workspace: '/w', createdAt: 1, lastActivity, eventCount: 1 }} active={false} onOpen={() => {}} onRename={async () => {}} onDelete={() => {}} />
)

it('shows the time of day for today and the day for an older session', () => {
  const today = new Date()
  today.setHours(9, 5, 0, 0)
  const older = new Date(2020, 0, 2, 9, 5)
  render(
    <ul>
      {row('today', today.getTime())}
      {row('older', older.getTime())}
    </ul>
  )
  const meta = screen.getAllByText(/· 1 event$/).map((el) => el.textContent)
  expect(meta).toEqual([
    `${today.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })} · 1 event`,
    `${older.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} · 1 event`
  ])
})
