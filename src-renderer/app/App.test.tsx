// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppStatus, ApprovalRequestPublic, MethodOutput, PushPayload } from '../../src-shared/contract/ipc'
import { OPEN_SESSION_KEY, useSessionsStore } from '../sessions/sessions-store'
import { FakeHost } from '../test/fake-host'
import { fakeTranscriptLayout } from '../test/fake-layout'
import { resetStores } from '../test/reset-stores'
import { createConnectionStore } from '../transport/connection'
import { App } from './App'
import { useAppStore } from './app-store'

type Summary = MethodOutput<'sessions/list'>[number]

const baseStatus: AppStatus = {
  version: '0.1.0', mode: 'web', seamHome: '/home/me/.seam', workspace: '/w', workspaceTrusted: true,
  provider: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-x', hasKey: true }, approvalMode: 'ask-side-effects'
}

function makeHost(status: AppStatus) {
  const sessions: Summary[] = [
    { id: 's1', title: 'First', workspace: '/w', createdAt: 1, lastActivity: 10, eventCount: 3 },
    { id: 's2', title: 'Second', workspace: '/w', createdAt: 2, lastActivity: 20, eventCount: 0 }
  ]
  const host = new FakeHost({
    'app/status': () => status,
    'approval/pending': () => [],
    'logs/recent': () => [],
    'plugins/list': () => [],
    'plugins/client-entries': () => [],
    'workspace/trust-preview': () => ({ workspace: status.workspace, trusted: true, items: [] }),
    'sessions/list': () => sessions.map((s) => ({ ...s })),
    'sessions/open': ({ id }) => ({
      id,
      total: 3,
      nextSeq: null,
      warnings: [],
      state: { sessionId: id, running: false, queued: 0, steering: 0 },
      events: [
        { type: 'session/header', seq: 1, ts: 1, sessionId: id, version: 1, workspace: '/w', createdAt: 1 },
        { type: 'user/message', seq: 2, ts: 2, turnId: 't1', content: `question in ${id}`, source: 'user' },
        { type: 'assistant/message', seq: 3, ts: 3, turnId: 't1', step: 0, text: `**answer** in ${id}`, toolCalls: [] }
      ]
    }),
    'sessions/rename': ({ id, title }) => {
      sessions.find((s) => s.id === id)!.title = title
      return { ok: true as const }
    },
    'sessions/delete': ({ id }) => {
      sessions.splice(sessions.findIndex((s) => s.id === id), 1)
      return { ok: true as const }
    },
    'provider/presets': () => [
      { id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-x', needsKey: true },
      { id: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama', needsKey: false }
    ],
    'provider/get': () => status.provider,
    'provider/test': () => ({ ok: false, message: '401 Unauthorized: invalid api key', kind: 'auth' })
  })
  return host
}

async function renderApp(host: FakeHost, connection?: ReturnType<typeof createConnectionStore>) {
  await act(async () => {
    render(<App host={host} connection={connection} />)
  })
}

/** Lets the 50 ms debounce of `sessions/changed` and the refresh it starts run. */
async function settle(ms = 120) {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms))
  })
}

let restoreLayout: () => void = () => {}
beforeEach(() => {
  resetStores()
  restoreLayout = fakeTranscriptLayout()
})
afterEach(() => {
  cleanup()
  restoreLayout()
})

describe('App', () => {
  it('status line shows the host version and the transport, and follows app/status pushes', async () => {
    const host = makeHost(baseStatus)
    await renderApp(host)
    const line = screen.getByTestId('status-line')
    expect(line.textContent).toContain('v0.1.0')
    expect(line.textContent).toContain('transport: web')
    act(() => host.emit('app/status', { ...baseStatus, version: '0.2.0' }))
    expect(line.textContent).toContain('v0.2.0')
    expect(screen.getByLabelText('Workspace').textContent).toBe('/w')
  })

  it('first run in web mode: no native picker, so "Choose folder…" opens the host\'s folder browser; a typed path works too and shows the host error', async () => {
    const host = makeHost({ ...baseStatus, workspace: null })
    host.handlers['workspace/choose'] = () => {
      throw Object.assign(new Error('No native folder picker in web mode: type the folder path.'), { code: 'UNSUPPORTED' })
    }
    host.handlers['folders/list'] = () => ({ path: '/home/me', display: '~', parent: null, home: '/home/me', entries: [{ name: 'project', path: '/home/me/project', hidden: false }], truncated: false })
    host.handlers['workspace/set'] = ({ path }) => {
      if (path === '/nope') throw new Error('path: /nope is not a directory')
      return { path }
    }
    await renderApp(host)
    expect(screen.getByRole('heading', { name: 'Set up Seam' })).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Choose folder…' }))
    })
    const dialog = await screen.findByRole('dialog', { name: 'Choose a folder' })
    await screen.findByRole('option', { name: 'project/' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Type a path instead' }))
    const field = screen.getByLabelText('Workspace folder')
    fireEvent.change(field, { target: { value: '/nope' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Use this folder' }))
    })
    expect(screen.getByRole('alert').textContent).toBe('path: /nope is not a directory')
    fireEvent.change(field, { target: { value: '/home/me/project' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Use this folder' }))
    })
    expect(host.callsOf('workspace/set').map((c) => c.path)).toEqual(['/nope', '/home/me/project'])
    act(() => host.emit('app/status', { ...baseStatus, workspace: '/home/me/project' }))
    expect(screen.queryByRole('heading', { name: 'Set up Seam' })).toBeNull()
  })

  it('provider form: the key field is never pre-filled, says a key is stored, and shows the test message exactly', async () => {
    const host = makeHost({ ...baseStatus, provider: null })
    host.handlers['provider/get'] = () => ({ ...baseStatus.provider!, hasKey: true })
    await renderApp(host)
    const key = (await screen.findByLabelText('API key')) as HTMLInputElement
    expect(key.type).toBe('password')
    expect(key.value).toBe('')
    expect(screen.getByText(/A key is stored/)).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Test connection' }))
    })
    expect(screen.getByRole('status', { name: 'Connection test result' }).textContent).toBe('401 Unauthorized: invalid api key')
    // An empty key field keeps the stored key: the input carries no apiKey.
    expect(host.callsOf('provider/test')).toEqual([{ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-x' }])
  })

  it('sessions are grouped by the workspace they belong to, the window\'s first, each heading naming whose they are', async () => {
    const host = makeHost(baseStatus)
    const others: Summary[] = [
      { id: 'o1', title: 'Elsewhere', workspace: '/home/me/other', createdAt: 3, lastActivity: 30, eventCount: 1 },
      { id: 'o2', title: 'Older elsewhere', workspace: '/srv/api', createdAt: 4, lastActivity: 5, eventCount: 1 }
    ]
    const local = host.handlers['sessions/list']!
    host.handlers['sessions/list'] = (input) => [...others, ...(local(input) as Summary[])]
    await renderApp(host)
    const list = screen.getByRole('list', { name: 'Session list' })
    const headings = within(list).getAllByRole('heading')
    expect(headings.map((h) => [h.textContent, h.getAttribute('title')])).toEqual([
      ['w · this window', '/w'],
      ['other', '/home/me/other'],
      ['api', '/srv/api']
    ])
    expect(headings[0].getAttribute('aria-label')).toBe('Workspace /w (open in this window)')
    // Rows stay list items; the heading rows (plain items, no open button: axe allows only li in a ul) are not sessions.
    expect(within(list).getAllByRole('listitem').filter((li) => li.querySelector('button'))).toHaveLength(4)
    const order = [...list.querySelectorAll('.session-group-title, .session-open')].map((el) => el.getAttribute('title'))
    expect(order).toEqual(['/w', 'Second', 'First', '/home/me/other', 'Elsewhere', '/srv/api', 'Older elsewhere'])
  })

  it('provider form: a stored key the host cannot read is shown as unusable, with the reason', async () => {
    const host = makeHost({ ...baseStatus, provider: null })
    host.handlers['provider/get'] = () => ({ ...baseStatus.provider!, hasKey: false, keyProblem: 'the OS keychain could not decrypt this key' })
    await renderApp(host)
    await screen.findByLabelText('API key')
    expect(screen.getByText(/The stored key cannot be used: the OS keychain could not decrypt this key\./)).toBeTruthy()
    expect(screen.queryByText(/A key is stored/)).toBeNull()
  })

  it('sessions: opening replays the log, is remembered, and a reload reopens it', async () => {
    const host = makeHost(baseStatus)
    await renderApp(host)
    const list = screen.getByRole('list', { name: 'Session list' })
    expect([...list.querySelectorAll('.session-open')].map((b) => b.getAttribute('title'))).toEqual(['Second', 'First'])
    await act(async () => {
      fireEvent.click(within(list).getByTitle('First'))
    })
    // Opening replays over three tasks (reply, transcript build, render): wait for it.
    expect(await screen.findByText('question in s1')).toBeTruthy()
    expect(screen.getByText('answer').tagName).toBe('STRONG')
    expect(localStorage.getItem(OPEN_SESSION_KEY)).toBe('s1')

    cleanup()
    resetStores()
    localStorage.setItem(OPEN_SESSION_KEY, 's2')
    await renderApp(host)
    expect(await screen.findByText('question in s2')).toBeTruthy()
  })

  it('sessions: rename inline and delete after confirmation', async () => {
    const host = makeHost(baseStatus)
    await renderApp(host)
    fireEvent.click(screen.getByRole('button', { name: 'Rename First' }))
    const input = screen.getByRole('textbox', { name: 'Session title' })
    fireEvent.change(input, { target: { value: 'Renamed' } })
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter' })
    })
    expect(host.callsOf('sessions/rename')).toEqual([{ id: 's1', title: 'Renamed' }])
    expect(screen.getByTitle('Renamed')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Delete Second' }))
    const confirm = screen.getByRole('dialog', { name: 'Delete session?' })
    await act(async () => {
      fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    })
    expect(host.callsOf('sessions/delete')).toEqual([{ id: 's2' }])
    expect(screen.queryByTitle('Second')).toBeNull()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('a reconnect fetches logs/recent again without showing a record twice', async () => {
    const host = makeHost(baseStatus)
    const first: PushPayload<'log'> = { level: 'error', plugin: 'p', message: 'first failure', time: 100 }
    const second: PushPayload<'log'> = { level: 'warn', plugin: 'p', message: 'second', time: 200 }
    const recent = [first]
    host.handlers['logs/recent'] = () => recent.map((r) => ({ ...r }))
    const connection = createConnectionStore('connected')
    await renderApp(host, connection)
    expect(useAppStore.getState().logs).toEqual([first])
    // Logged while connected (a push), then the link drops and comes back.
    act(() => host.emit('log', second))
    recent.push(second)
    act(() => connection.set('reconnecting'))
    await act(async () => {
      connection.set('connected')
    })
    expect(host.callsOf('logs/recent')).toHaveLength(2)
    expect(useAppStore.getState().logs).toEqual([first, second])
  })

  it('the open session closes when it is deleted elsewhere (another window)', async () => {
    const host = makeHost(baseStatus)
    await renderApp(host)
    await act(async () => {
      fireEvent.click(within(screen.getByRole('list', { name: 'Session list' })).getByTitle('First'))
    })
    expect(await screen.findByText('question in s1')).toBeTruthy()
    // Another window deletes it: this one only hears sessions/changed.
    await host.handlers['sessions/delete']!({ id: 's1' })
    act(() => host.emit('sessions/changed', {}))
    await settle()
    expect(screen.queryByTitle('First')).toBeNull()
    expect(screen.queryByText('question in s1')).toBeNull()
    expect(useSessionsStore.getState().openId).toBeNull()
    expect(localStorage.getItem(OPEN_SESSION_KEY)).toBeNull()
  })

  it('an approval ask from a session other than the open one names that session', async () => {
    const host = makeHost(baseStatus)
    await renderApp(host)
    await act(async () => {
      fireEvent.click(within(screen.getByRole('list', { name: 'Session list' })).getByTitle('Second'))
    })
    const ask = (id: string, sessionId: string): ApprovalRequestPublic => ({
      id, sessionId, tool: 'Bash', args: { command: 'rm -rf build' }, token: `tok-${id}`, reason: 'Bash runs commands',
      scope: { tool: 'Bash', pattern: {}, description: 'Bash commands exactly "rm -rf build"' }
    })
    act(() => host.emit('approval/requested', ask('r1', 's1')))
    const dialog = screen.getByRole('dialog', { name: 'Approve tool call' })
    expect(within(dialog).getByText(/another session/).textContent).toContain('First')
    act(() => host.emit('approval/settled', { requestId: 'r1', outcome: 'cancelled' }))
    act(() => host.emit('approval/requested', ask('r2', 's2')))
    expect(within(screen.getByRole('dialog', { name: 'Approve tool call' })).queryByText(/another session/)).toBeNull()
  })

  it('after a reconnect the approval dialog shows what is pending on the host: missed asks appear, asks settled meanwhile close', async () => {
    const host = makeHost(baseStatus)
    const ask = (id: string): ApprovalRequestPublic => ({
      id, sessionId: 's1', tool: 'Bash', args: { command: `cmd-${id}` }, token: `tok-${id}`, reason: 'Bash runs commands',
      scope: { tool: 'Bash', pattern: {}, description: 'x' }
    })
    let pending = [ask('r1')]
    host.handlers['approval/pending'] = () => pending
    const connection = createConnectionStore('connected')
    await renderApp(host, connection)
    const command = () => within(screen.getByRole('dialog', { name: 'Approve tool call' })).getByRole('group', { name: 'Command that will run' }).querySelector('pre')?.textContent
    expect(command()).toBe('cmd-r1')
    act(() => connection.set('reconnecting'))
    // While the link was down: r1 was answered in another window, r2 was asked (both pushes missed).
    pending = [ask('r2')]
    await act(async () => {
      connection.set('connected')
    })
    expect(command()).toBe('cmd-r2')
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
  })

  it('switching sessions while one streams: its deltas never show in the other', async () => {
    const host = makeHost(baseStatus)
    await renderApp(host)
    const list = () => screen.getByRole('list', { name: 'Session list' })
    await act(async () => {
      fireEvent.click(within(list()).getByTitle('First'))
    })
    const delta = (text: string) => host.emit('agent/delta', { sessionId: 's1', turnId: 't2', step: 0, kind: 'text', text })
    act(() => delta('streamed in s1 '))
    await settle(80)
    expect(screen.getByText(/streamed in s1/)).toBeTruthy()
    act(() => delta('still s1 '))
    // Switch before that frame is applied, and keep streaming into s1.
    await act(async () => {
      fireEvent.click(within(list()).getByTitle('Second'))
    })
    act(() => delta('more s1 '))
    await settle(80)
    expect(screen.getByText('question in s2')).toBeTruthy()
    expect(screen.queryByText(/streamed in s1|still s1|more s1/)).toBeNull()
  })
})
