// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { slotsActions } from './slots-store'
import { SidebarPanels } from './SidebarPanels'
import { StatusItems } from './StatusItems'

beforeEach(() => slotsActions.reset())
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe('slot error boundaries', () => {
  it('a panel that throws while rendering shows its error in its own slot; the others render', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}) // React reports the caught error
    act(() => {
      slotsActions.add('sidebarPanels', { plugin: 'good', id: 'a', title: 'Good panel', render: () => <p>all fine</p> })
      slotsActions.add('sidebarPanels', {
        plugin: 'broken',
        id: 'b',
        title: 'Broken panel',
        render: () => {
          throw new Error('cannot read properties of undefined')
        }
      })
      slotsActions.add('statusItems', { plugin: 'good', id: 's', render: () => <span>status ok</span> })
    })
    render(
      <>
        <SidebarPanels />
        <StatusItems />
      </>
    )
    const broken = screen.getByRole('region', { name: 'Broken panel' })
    expect(broken.querySelector('[role="alert"]')?.textContent).toBe('broken failed to render sidebar panel "Broken panel": cannot read properties of undefined')
    expect(screen.getByRole('region', { name: 'Good panel' }).textContent).toContain('all fine')
    expect(screen.getByText('status ok')).toBeTruthy()
  })

  it('removing a contribution removes its UI', () => {
    let uid = 0
    act(() => {
      uid = slotsActions.add('sidebarPanels', { plugin: 'p', id: 'a', title: 'Panel A', render: () => <p>A</p> })
    })
    render(<SidebarPanels />)
    expect(screen.getByRole('region', { name: 'Panel A' })).toBeTruthy()
    act(() => slotsActions.remove(uid))
    expect(screen.queryByRole('region', { name: 'Panel A' })).toBeNull()
  })
})
