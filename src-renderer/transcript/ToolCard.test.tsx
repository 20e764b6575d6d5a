// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAppStore } from '../app/app-store'
import { HostProvider } from '../app/host-context'
import { wireHost, type HostWiring } from '../app/wire-host'
import { slotsActions } from '../plugins/slots-store'
import { eventLog, verdictAllowed } from '../test/events'
import { FakeHost } from '../test/fake-host'
import { fakeTranscriptLayout } from '../test/fake-layout'
import { resetStores } from '../test/reset-stores'
import { sessionActions } from './session-store'
import { Transcript } from './Transcript'

let host: FakeHost
let wiring: HostWiring
let restoreLayout: () => void

function open(events: ReturnType<typeof eventLog>['all'], running = true) {
  sessionActions.begin('s1')
  sessionActions.loaded({ id: 's1', events, state: { sessionId: 's1', running, queued: 0, steering: 0 }, warnings: [] })
  render(<HostProvider host={host}><Transcript /></HostProvider>)
}

const card = (name: string) => screen.getByRole('article', { name: `Tool call ${name}` })
/** The card's one line: the button that opens and closes it. */
const head = (name: string) => card(name).querySelector<HTMLButtonElement>('button.tool-head')!
const expand = (name: string) => {
  if (head(name).getAttribute('aria-expanded') === 'false') fireEvent.click(head(name))
}

beforeEach(() => {
  resetStores()
  restoreLayout = fakeTranscriptLayout()
  host = new FakeHost()
  wiring = wireHost(host)
})
afterEach(() => {
  wiring.dispose()
  cleanup()
  restoreLayout()
  vi.restoreAllMocks()
})

describe('tool cards', () => {
  it('streams Bash output from tool/progress while running, then shows the result and duration', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'make' } })
    open(log.all)
    expect(card('Bash').getAttribute('data-status')).toBe('running')
    act(() => {
      host.emit('tool/progress', { sessionId: 's1', turnId: 't1', callId: 'c1', stream: 'stdout', text: 'compiling\n' })
      host.emit('tool/progress', { sessionId: 's1', turnId: 't1', callId: 'c1', stream: 'stderr', text: 'warning: x\n' })
    })
    // Progress is applied once per frame; the next session event flushes it first.
    act(() => host.emit('session/appended', { sessionId: 's1', event: { type: 'notice', seq: 10, ts: 10, level: 'info', text: 'tick', source: 't' } }))
    expect(within(card('Bash')).getByLabelText('Live output').textContent).toBe('compiling\nwarning: x\n')
    act(() => host.emit('session/appended', { sessionId: 's1', event: { type: 'tool/result', seq: 11, ts: 11, turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', content: 'built', isError: false, verdict: verdictAllowed, durationMs: 1500 } }))
    expect(card('Bash').getAttribute('data-status')).toBe('done')
    expect(within(card('Bash')).getByText('1.5 s')).toBeTruthy()
    expand('Bash')
    expect(within(card('Bash')).getByLabelText('Tool result').textContent).toBe('built')
  })

  it('keeps only the tail of a flood of live output (about what the final result holds), so each frame stays cheap to lay out', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'seq 1 1000000' } })
    open(log.all)
    const lines = Array.from({ length: 60_000 }, (_, i) => `${i}\n`)
    act(() => {
      for (let i = 0; i < lines.length; i += 1000) {
        host.emit('tool/progress', { sessionId: 's1', turnId: 't1', callId: 'c1', stream: 'stdout', text: lines.slice(i, i + 1000).join('') })
      }
    })
    act(() => host.emit('session/appended', { sessionId: 's1', event: { type: 'notice', seq: 10, ts: 10, level: 'info', text: 'tick', source: 't' } }))
    const shown = within(card('Bash')).getByLabelText('Live output').textContent ?? ''
    expect(shown.length).toBeLessThanOrEqual(20_000)
    expect(shown.endsWith('59998\n59999\n')).toBe(true)
  })

  it('shows original and rewritten arguments side by side, and a diff for Edit', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Edit', args: { file_path: '/w/a.ts', old_string: 'b', new_string: 'B' }, originalArgs: { file_path: 'a.ts', old_string: 'b', new_string: 'B' }, rewrittenBy: 'path-policy' })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Edit', content: 'ok', isError: false, verdict: verdictAllowed, durationMs: 3, structured: { filePath: '/w/a.ts', oldString: 'b', newString: 'B', originalFile: 'a\nb\nc\n', replaceAll: false } })
    open(log.all)
    expect(within(head('Edit')).getByText('+1 −1')).toBeTruthy()
    expand('Edit')
    const edit = within(card('Edit'))
    expect(edit.getByLabelText('Original arguments').textContent).toContain('"file_path": "a.ts"')
    expect(edit.getByLabelText('Sealed arguments').textContent).toContain('"file_path": "/w/a.ts"')
    expect(edit.getByText(/rewritten by path-policy/)).toBeTruthy()
    const diff = edit.getByRole('group', { name: 'Changes to /w/a.ts' })
    expect([...diff.querySelectorAll('.diff-line')].map((l) => l.className.replace('diff-line ', '') + ':' + l.querySelector('.diff-text')?.textContent)).toEqual(['same:a', 'del:b', 'add:B', 'same:c'])
  })

  it('a timed-out call shows TIMEOUT; a call left without result in an idle session shows interrupted', () => {
    const log = eventLog()
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'sleep 999' } })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', content: 'killed after 120000 ms', isError: true, code: 'TIMEOUT', verdict: verdictAllowed, durationMs: 120000 })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c2', token: 'k2', name: 'Read', args: { file_path: '/x' } })
    open(log.all, false)
    expect(within(card('Bash')).getByText('Timed out (TIMEOUT): killed after 120000 ms')).toBeTruthy()
    expect(card('Read').getAttribute('data-status')).toBe('interrupted')
  })

  it("a client plugin's result renderer replaces the text result; if it throws, only its card part shows the error", () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const log = eventLog()
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Weather', args: { city: 'Oslo' } })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Weather', content: '{"temp":3}', isError: false, verdict: verdictAllowed, durationMs: 5, structured: { temp: 3 } })
    act(() => {
      slotsActions.add('toolResultRenderers', { plugin: 'weather', toolName: 'Weather', render: ({ result }) => <b>{String((result.structured as { temp: number }).temp)} °C</b> })
    })
    open(log.all, false)
    expand('Weather')
    expect(within(card('Weather')).getByText('3 °C')).toBeTruthy()
    act(() => {
      slotsActions.add('toolResultRenderers', { plugin: 'broken', toolName: 'Weather', render: () => { throw new Error('boom') } })
    })
    expect(within(card('Weather')).getByRole('alert').textContent).toBe('broken failed to render the Weather result: boom')
    expect(within(card('Weather')).getByText('Raw result')).toBeTruthy()
  })

  it('issue 31: a finished call is one line (icon, tool, target, result summary) that opens and closes on its button; the choice survives a remount', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'npm   test\n  -- --run' } })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', content: 'all good', isError: false, verdict: verdictAllowed, durationMs: 20, structured: { stdout: 'all good', stderr: '', interrupted: false } })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c2', token: 'k2', name: 'Grep', args: { pattern: 'TODO', path: '/w/src' } })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c2', token: 'k2', name: 'Grep', content: 'a.ts:1:TODO', isError: false, verdict: verdictAllowed, durationMs: 4, structured: { mode: 'content', numFiles: 3, filenames: [], numMatches: 24 } })
    open(log.all, false)
    const bash = head('Bash')
    expect(bash.tagName).toBe('BUTTON') // Enter and Space open it, natively
    expect(bash.getAttribute('aria-expanded')).toBe('false')
    expect(bash.querySelector('svg.tool-icon')?.getAttribute('aria-hidden')).toBe('true')
    expect(within(bash).getByText('npm test -- --run')).toBeTruthy()
    expect(within(bash).getByText('exit 0')).toBeTruthy()
    expect(within(card('Bash')).queryByLabelText('Tool result')).toBeNull()
    expect(within(head('Grep')).getByText('TODO in /w/src')).toBeTruthy()
    expect(within(head('Grep')).getByText('24 matches')).toBeTruthy()
    fireEvent.click(bash)
    expect(head('Bash').getAttribute('aria-expanded')).toBe('true')
    const body = document.getElementById(head('Bash').getAttribute('aria-controls')!)
    expect(body && within(body).getByLabelText('Tool result').textContent).toBe('all good')
    cleanup()
    render(<HostProvider host={host}><Transcript /></HostProvider>)
    expect(head('Bash').getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(head('Bash'))
    expect(within(card('Bash')).queryByLabelText('Tool result')).toBeNull()
  })

  it('issue 31: failed, denied and approval-pending calls open by themselves; a failure\'s summary is its exit code or first line', () => {
    const log = eventLog()
    log.add({ type: 'turn/start', turnId: 't1' })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', args: { command: 'false' } })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c1', token: 'k1', name: 'Bash', content: 'Exit code 2\nboom', isError: true, verdict: verdictAllowed, durationMs: 3 })
    log.add({ type: 'tool/call', turnId: 't1', callId: 'c2', token: 'k2', name: 'Read', args: { file_path: '/w/missing.txt' } })
    log.add({ type: 'tool/result', turnId: 't1', callId: 'c2', token: 'k2', name: 'Read', content: 'File does not exist.', isError: true, verdict: verdictAllowed, durationMs: 1 })
    open(log.all, false)
    expect(head('Bash').getAttribute('aria-expanded')).toBe('true')
    expect(within(head('Bash')).getByText('exit 2').className).toContain('tone-danger')
    expect(within(head('Read')).getByText('File does not exist.').className).toContain('tone-danger')
    expect(head('Read').getAttribute('aria-expanded')).toBe('true')
    expect(within(card('Read')).getByLabelText('Tool result')).toBeTruthy()
  })

  it('a hook line opens the inspector at its invocation', () => {
    const log = eventLog()
    log.add({ type: 'hook/invoked', invocationId: 'h1', source: 'claude', event: 'PreToolUse', command: 'guard.sh', sourceFile: '/w/.claude/settings.json', input: '{}', inputTruncated: false })
    log.add({ type: 'hook/result', invocationId: 'h1', source: 'claude', event: 'PreToolUse', exitCode: 2, signal: null, durationMs: 8, outcomeKind: 'block', decision: 'deny', stdout: '', stdoutTruncated: false, stderr: 'no rm', stderrTruncated: false })
    open(log.all, false)
    fireEvent.click(screen.getByRole('button', { name: /^Hook claude:PreToolUse .*blocked/ }))
    expect(useAppStore.getState().inspector).toEqual({ open: true, focus: 'h1' })
  })
})
