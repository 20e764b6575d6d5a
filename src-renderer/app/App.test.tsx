// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppStatus, MethodOutput } from '../../src-shared/contract/ipc'
import { OPEN_SESSION_KEY } from '../sessions/sessions-store'
import { FakeHost } from '../test/fake-host'
import { fakeTranscriptLayout } from '../test/fake-layout'
import { resetStores } from '../test/reset-stores'
import { App } from './App'

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

async function renderApp(host: FakeHost) {
  await act(async () => {
    render(<App host={host} />)
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

  it('first run in web mode: the folder picker is unsupported, so a path field sets the workspace and shows the host error', async () => {
    const host = makeHost({ ...baseStatus, workspace: null })
    host.handlers['workspace/choose'] = () => {
      throw Object.assign(new Error('No native folder picker in web mode: type the folder path.'), { code: 'UNSUPPORTED' })
    }
    host.handlers['workspace/set'] = ({ path }) => {
      if (path === '/nope') throw new Error('path: /nope is not a directory')
      return { path }
    }
    await renderApp(host)
    expect(screen.getByRole('heading', { name: 'Set up Seam' })).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Choose folder…' }))
    })
    expect(screen.getByText('No native folder picker in web mode: type the folder path.')).toBeTruthy()
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

  it('sessions: opening replays the log, is remembered, and a reload reopens it', async () => {
    const host = makeHost(baseStatus)
    await renderApp(host)
    const list = screen.getByRole('list', { name: 'Session list' })
    expect([...list.querySelectorAll('.session-open')].map((b) => b.getAttribute('title'))).toEqual(['Second', 'First'])
    await act(async () => {
      fireEvent.click(within(list).getByTitle('First'))
    })
    expect(screen.getByText('question in s1')).toBeTruthy()
    expect(screen.getByText('answer').tagName).toBe('STRONG')
    expect(localStorage.getItem(OPEN_SESSION_KEY)).toBe('s1')

    cleanup()
    resetStores()
    localStorage.setItem(OPEN_SESSION_KEY, 's2')
    await renderApp(host)
    expect(screen.getByText('question in s2')).toBeTruthy()
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
})
