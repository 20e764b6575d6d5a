// @vitest-environment happy-dom
// The composer's `/` menu: listing, filtering, keyboard and mouse, and the listbox semantics.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CommandList } from '../../src-shared/contract/ipc'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { sessionActions } from '../transcript/session-store'
import { Composer } from './Composer'
import { filterCommands, slashQuery } from './SlashMenu'

const list: CommandList = {
  commands: [
    { name: 'clear', description: 'Start a new session in the same workspace', source: 'builtin', runsWithoutArguments: true },
    { name: 'compact', description: 'Summarise the conversation', argumentHint: '[instructions]', source: 'builtin', runsWithoutArguments: false },
    { name: 'help', description: 'List the slash commands', source: 'builtin', runsWithoutArguments: true },
    { name: 'review', description: 'Review a change', argumentHint: '<number>', source: 'project', runsWithoutArguments: false }
  ],
  problems: [{ name: 'broken', file: '/w/.claude/commands/broken.md', field: 'model', message: 'front matter field "model": expected string' }],
  notices: []
}

function setup() {
  const host = new FakeHost({
    'commands/list': () => list,
    'chat/send': ({ content }) => (content === '/help' ? { queued: 'turn', command: { name: 'help', ok: true, message: 'Slash commands: …' } } : { queued: 'turn' })
  })
  sessionActions.begin('s1')
  sessionActions.loaded({ id: 's1', events: [], state: { sessionId: 's1', running: false, queued: 0, steering: 0 }, warnings: [] })
  render(<HostProvider host={host}><Composer /></HostProvider>)
  return { host, box: screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement }
}

async function type(box: HTMLTextAreaElement, value: string) {
  await act(async () => {
    fireEvent.change(box, { target: { value } })
  })
}

async function key(box: HTMLTextAreaElement, name: string) {
  await act(async () => {
    fireEvent.keyDown(box, { key: name })
  })
}

beforeEach(() => resetStores())
afterEach(() => cleanup())

describe('the / menu', () => {
  it('opens on "/" with every command, its hint, description and source, and reports broken files', async () => {
    const { host, box } = setup()
    await type(box, '/')
    const options = screen.getAllByRole('option')
    expect(options.map((o) => o.textContent)).toEqual([
      '/clear Start a new session in the same workspace',
      '/compact [instructions] Summarise the conversation',
      '/help List the slash commands',
      '/review <number> Review a change (project)'
    ])
    expect(host.callsOf('commands/list')).toEqual([{ sessionId: 's1' }])
    expect(screen.getByText(/\/broken is broken: .*broken\.md: front matter field "model"/)).toBeTruthy()
  })

  it('filters as you type and points the message box at the highlighted option (aria-activedescendant)', async () => {
    const { box } = setup()
    await type(box, '/re')
    const options = screen.getAllByRole('option')
    expect(options.map((o) => o.textContent?.split(' ')[0])).toEqual(['/review'])
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0].id)
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox', { name: 'Slash commands' }).id)
    expect(options[0].getAttribute('aria-selected')).toBe('true')
  })

  it('Down/Up move the highlight; Tab inserts the command with a space for its arguments', async () => {
    const { box, host } = setup()
    await type(box, '/c')
    await key(box, 'ArrowDown')
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1].id)
    await key(box, 'ArrowUp')
    await key(box, 'ArrowUp')
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1].id)
    await key(box, 'Tab')
    expect(box.value).toBe('/compact ')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(host.callsOf('chat/send')).toEqual([])
  })

  it('Enter on a built-in that takes nothing runs it; on a custom command it inserts it', async () => {
    const { box, host } = setup()
    await type(box, '/rev')
    await key(box, 'Enter')
    expect(box.value).toBe('/review ')
    expect(host.callsOf('chat/send')).toEqual([])
    await type(box, '/he')
    await key(box, 'Enter')
    expect(host.callsOf('chat/send')).toEqual([{ sessionId: 's1', content: '/help' }])
    expect(box.value).toBe('')
  })

  it('a click chooses an option; Esc closes the menu and the next Enter sends the text as typed', async () => {
    const { box, host } = setup()
    await type(box, '/')
    await act(async () => {
      fireEvent.click(screen.getAllByRole('option')[3])
    })
    expect(box.value).toBe('/review ')
    await type(box, '/rev')
    await key(box, 'Escape')
    expect(screen.queryByRole('listbox')).toBeNull()
    await key(box, 'Enter')
    expect(host.callsOf('chat/send')).toEqual([{ sessionId: 's1', content: '/rev' }])
  })
})

describe('slash menu helpers', () => {
  it('the menu is for a partial name only: not once arguments start, not for a path', () => {
    expect(slashQuery('/')).toBe('')
    expect(slashQuery('/rev')).toBe('rev')
    expect(slashQuery('/review 12')).toBeUndefined()
    expect(slashQuery('/usr/bin')).toBeUndefined()
    expect(slashQuery('hello')).toBeUndefined()
  })

  it('names starting with the query come before names containing it', () => {
    expect(filterCommands(list.commands, 'e').map((c) => c.name)).toEqual(['clear', 'help', 'review'])
    expect(filterCommands(list.commands, 'r').map((c) => c.name)).toEqual(['review', 'clear'])
  })

  it('skills are offered with their source; a model-only skill (user-invocable: false) is not', () => {
    const skills = [
      { name: 'deploy', description: 'Deploy', source: 'plugin' as const, kind: 'skill', origin: 'project .claude/skills', runsWithoutArguments: false },
      { name: 'notes', description: 'Notes', source: 'plugin' as const, kind: 'skill', origin: 'personal ~/.claude/skills', runsWithoutArguments: false, userInvocable: false }
    ]
    expect(filterCommands([...list.commands, ...skills], '').map((c) => c.name)).toEqual(['clear', 'compact', 'help', 'review', 'deploy'])
  })
})
