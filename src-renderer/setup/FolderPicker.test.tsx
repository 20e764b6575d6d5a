// @vitest-environment happy-dom
// The web folder browser: listing from folders/list, type-ahead, arrows, Enter opens, Tab
// completes, Backspace after "/" goes up, hidden folders on request, disabled entries, and
// "Use this folder"; the host's refusal shows in the dialog.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { FolderListing } from '../../src-shared/contract/ipc'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { scaledTestMs } from '../../src-main/process/liveness'
import { FolderPicker, splitTyped } from './FolderPicker'

// The listing arrives from the (fake) host after a short pause: waits scale with the machine's load.
const WAIT = { timeout: scaledTestMs(3000) }

const HOME = '/home/me'
const tree: Record<string, string[]> = {
  [HOME]: ['.cache', 'code', 'docs', 'locked'],
  [`${HOME}/code`]: ['alpha', 'alps', 'beta'],
  [`${HOME}/code/alpha`]: [],
  [`${HOME}/code/alps`]: []
}

function listing(path: string, hidden: boolean): FolderListing {
  const names = tree[path]
  if (!names) throw Object.assign(new Error(`path: there is no folder "${path}"`), { code: 'NOT_FOUND', field: 'path' })
  return {
    path,
    display: path === HOME ? '~' : `~${path.slice(HOME.length)}`,
    parent: path === HOME ? null : path.slice(0, path.lastIndexOf('/')),
    home: HOME,
    entries: names
      .filter((name) => hidden || !name.startsWith('.'))
      .map((name) => ({ name, path: `${path}/${name}`, hidden: name.startsWith('.'), ...(name === 'locked' ? { disabled: 'unreadable' } : {}) })),
    truncated: false
  }
}

let host: FakeHost
const expand = (path: string) => (path === '~' ? HOME : path.startsWith('~/') ? `${HOME}/${path.slice(2)}` : path)

beforeEach(() => {
  resetStores()
  host = new FakeHost({ 'folders/list': ({ path, hidden }) => listing(expand(path ?? '~'), hidden ?? false) })
})
afterEach(cleanup)

async function renderPicker() {
  const onChoose = vi.fn()
  const onCancel = vi.fn()
  await act(async () => {
    render(
      <HostProvider host={host}>
        <FolderPicker onChoose={onChoose} onCancel={onCancel} />
      </HostProvider>
    )
  })
  const field = screen.getByRole('combobox', { name: 'Folder path' }) as HTMLInputElement
  await waitFor(() => expect(screen.getByRole('listbox', { name: 'Folders in ~' })).toBeTruthy(), WAIT)
  return { field, onChoose, onCancel }
}

const options = () => screen.queryAllByRole('option').map((o) => o.textContent)
const key = (field: HTMLElement, name: string) => act(async () => void fireEvent.keyDown(field, { key: name }))

describe('FolderPicker', () => {
  it('splits what is typed into the folder listed and the filter', () => {
    expect(splitTyped('~/')).toEqual({ folder: '~', filter: '' })
    expect(splitTyped('~/code/al')).toEqual({ folder: '~/code', filter: 'al' })
    expect(splitTyped('~')).toEqual({ folder: '~', filter: '' })
    expect(splitTyped('/home/me/c')).toEqual({ folder: '/home/me', filter: 'c' })
  })

  it('is driven from the keyboard: arrows, Enter opens, type-ahead with Tab completion, Backspace goes up, Use this folder', async () => {
    const { field, onChoose } = await renderPicker()
    expect(document.activeElement).toBe(field)
    expect(host.callsOf('folders/list')[0]).toEqual({ path: '~', hidden: false })
    // Hidden folders are left out; an unreadable one is listed, disabled.
    // The listbox is there before the host's answer fills it.
    await waitFor(() => expect(options()).toEqual(['code/', 'docs/', 'locked/ (unreadable)']), WAIT)
    expect(screen.getByRole('option', { name: /locked/ }).getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByRole('option', { name: 'code/' }).getAttribute('aria-selected')).toBe('true')
    await key(field, 'ArrowDown')
    expect(field.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'docs/' }).id)
    await key(field, 'ArrowDown')
    await key(field, 'Enter')
    // A disabled folder does not open.
    expect(field.value).toBe('~/')
    await key(field, 'ArrowUp')
    await key(field, 'ArrowUp')
    await key(field, 'Enter')
    expect(field.value).toBe('~/code/')
    await waitFor(() => expect(options()).toEqual(['alpha/', 'alps/', 'beta/']), WAIT)
    expect(screen.getByRole('listbox', { name: 'Folders in ~/code' })).toBeTruthy()

    // Type-ahead filters without asking the host again; Tab completes to the active match.
    const calls = host.callsOf('folders/list').length
    fireEvent.change(field, { target: { value: '~/code/al' } })
    expect(options()).toEqual(['alpha/', 'alps/'])
    await act(async () => new Promise((resolve) => setTimeout(resolve, 300)))
    expect(host.callsOf('folders/list').length).toBe(calls)
    await key(field, 'ArrowDown')
    await key(field, 'Tab')
    expect(field.value).toBe('~/code/alps/')
    await waitFor(() => expect(screen.getByRole('listbox', { name: 'Folders in ~/code/alps' })).toBeTruthy(), WAIT)
    fireEvent.change(field, { target: { value: '~/code/z' } })
    // The listing of ~/code is read again (after the typing pause); until then no stale folder is offered.
    expect(options()).toEqual([])
    await waitFor(() => expect(options()).toEqual(['No folder here starts with “z”']), WAIT)

    // Backspace right after a "/" goes up one folder.
    fireEvent.change(field, { target: { value: '~/code/alpha/' } })
    await waitFor(() => expect(screen.getByRole('listbox', { name: 'Folders in ~/code/alpha' })).toBeTruthy(), WAIT)
    field.setSelectionRange(field.value.length, field.value.length)
    await key(field, 'Backspace')
    expect(field.value).toBe('~/code/')
    await waitFor(() => expect(screen.getByRole('listbox', { name: 'Folders in ~/code' })).toBeTruthy(), WAIT)
    expect(screen.getByLabelText('Folder to use').textContent).toBe('~/code')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Use this folder' }))
    })
    expect(onChoose).toHaveBeenCalledWith(`${HOME}/code`)
  })

  it('shows hidden folders on request, the host\'s refusal in place, and Esc cancels', async () => {
    const { field, onCancel } = await renderPicker()
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Show hidden folders' }))
    })
    await waitFor(() => expect(options()).toContain('.cache/'), WAIT)
    expect(host.callsOf('folders/list').at(-1)).toEqual({ path: '~', hidden: true })
    fireEvent.change(field, { target: { value: '~/nowhere/' } })
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(`path: there is no folder "${HOME}/nowhere"`), WAIT)
    expect(field.getAttribute('aria-invalid')).toBe('true')
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Choose a folder' }), { key: 'Escape' })
    expect(onCancel).toHaveBeenCalled()
  })
})
