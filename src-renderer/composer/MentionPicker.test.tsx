// @vitest-environment happy-dom
// The composer's `@` picker (issue 16, mentions): listbox and option roles, aria-activedescendant
// on the message box, Up/Down/Enter/Tab/Escape and the mouse, and the inserted `@path`.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MethodInput } from '../../src-shared/contract/ipc'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { sessionActions } from '../transcript/session-store'
import { Composer } from './Composer'

const FILES = ['src/app.ts', 'src/apple.ts', 'docs/my notes.md']

function setup() {
  const host = new FakeHost({
    'chat/send': () => ({ queued: 'turn' as const }),
    'files/search': ({ query }: MethodInput<'files/search'>) => ({
      workspace: '/w',
      files: FILES.filter((path) => [...query].every((ch) => path.includes(ch))).map((path) => ({ path, indexes: [] })),
      truncated: false
    })
  })
  sessionActions.begin('s1')
  sessionActions.loaded({ id: 's1', events: [], state: { sessionId: 's1', running: false, queued: 0, steering: 0 }, warnings: [] })
  render(<HostProvider host={host}><Composer /></HostProvider>)
  const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
  return { host, box }
}

/** Types `value` with the caret at its end, then lets the search answer. */
async function type(box: HTMLTextAreaElement, value: string): Promise<void> {
  await act(async () => {
    fireEvent.change(box, { target: { value, selectionStart: value.length, selectionEnd: value.length } })
    box.setSelectionRange(value.length, value.length)
    fireEvent.select(box)
  })
  await act(async () => {})
}

async function key(box: HTMLTextAreaElement, name: string): Promise<boolean> {
  let notPrevented = true
  await act(async () => {
    notPrevented = fireEvent.keyDown(box, { key: name })
  })
  await act(async () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))))
  return notPrevented
}

beforeEach(() => resetStores())
afterEach(() => cleanup())

describe('the @ file picker', () => {
  it('opens on @, filters as you type, and points the box at the active option', async () => {
    const { host, box } = setup()
    await type(box, 'look at @')
    expect(screen.getByRole('listbox', { name: 'Files to mention' })).toBeTruthy()
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(FILES)
    await type(box, 'look at @app')
    expect(host.callsOf('files/search').at(-1)).toEqual({ sessionId: 's1', query: 'app', limit: 20 })
    const options = screen.getAllByRole('option')
    expect(options.map((o) => o.textContent)).toEqual(['src/app.ts', 'src/apple.ts'])
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id)
    expect(options[0]!.getAttribute('aria-selected')).toBe('true')
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id)
  })

  it('Down then Enter inserts the second file as @path and closes; Enter does not send while choosing', async () => {
    const { host, box } = setup()
    await type(box, 'see @app')
    expect(await key(box, 'ArrowDown')).toBe(false)
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1]!.id)
    await key(box, 'Enter')
    expect(box.value).toBe('see @src/apple.ts ')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(host.callsOf('chat/send')).toEqual([])
  })

  it('Tab chooses too, and a path with a space is inserted quoted; Up wraps to the last file', async () => {
    const { box } = setup()
    await type(box, '@')
    await key(box, 'ArrowUp')
    await key(box, 'Tab')
    expect(box.value).toBe('@"docs/my notes.md" ')
  })

  it('Escape closes the list and it stays closed for that @; Enter then sends', async () => {
    const { host, box } = setup()
    await type(box, 'hi @sr')
    expect(await key(box, 'Escape')).toBe(false)
    expect(screen.queryByRole('listbox')).toBeNull()
    await type(box, 'hi @src')
    expect(screen.queryByRole('listbox')).toBeNull()
    await key(box, 'Enter')
    expect(host.callsOf('chat/send')).toEqual([{ sessionId: 's1', content: 'hi @src' }])
  })

  it('a click on an option inserts it; no @ (an e-mail address) opens nothing', async () => {
    const { box } = setup()
    await type(box, 'write to me@ex')
    expect(screen.queryByRole('listbox')).toBeNull()
    await type(box, 'read @docs')
    await act(async () => {
      fireEvent.mouseDown(screen.getByRole('option', { name: 'docs/my notes.md' }))
    })
    expect(box.value).toBe('read @"docs/my notes.md" ')
  })

  it('says so when nothing matches', async () => {
    const { box } = setup()
    await type(box, '@zzz')
    expect(screen.getByRole('status').textContent).toBe('No file matches "zzz"')
  })
})
