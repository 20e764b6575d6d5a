// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { HostProvider } from '../app/host-context'
import { wireHost, type HostWiring } from '../app/wire-host'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { ApprovalDialog, ENTER_GUARD_MS } from './ApprovalDialog'

function request(id: string, command: string): ApprovalRequestPublic {
  return {
    id,
    sessionId: 's1',
    tool: 'Bash',
    args: { command },
    token: `tok-${id}`,
    reason: 'Bash runs commands (ask before side effects)',
    scope: { tool: 'Bash', pattern: { command }, description: `Bash commands exactly "${command}"` }
  }
}

let host: FakeHost
let wiring: HostWiring

beforeEach(() => {
  resetStores()
  host = new FakeHost({ 'approval/answer': () => ({ ok: true }), 'plugins/client-entries': () => [], 'plugins/list': () => [], 'sessions/list': () => [] })
  wiring = wireHost(host)
  render(<HostProvider host={host}><ApprovalDialog /></HostProvider>)
})
afterEach(() => {
  wiring.dispose()
  cleanup()
})

const dialog = () => screen.getByRole('dialog', { name: 'Approve tool call' })

describe('ApprovalDialog', () => {
  it('shows the tool, the exact args, the reason and the session scope in words', () => {
    act(() => host.emit('approval/requested', request('r1', 'git push --force')))
    const d = within(dialog())
    expect(d.getByText('Bash')).toBeTruthy()
    expect(d.getByRole('group', { name: 'Command that will run' }).querySelector('pre')?.textContent).toBe('git push --force')
    expect(d.getByText('Bash runs commands (ask before side effects)')).toBeTruthy()
    const session = d.getByRole('button', { name: 'Allow for this session' })
    expect(session.getAttribute('aria-describedby')).toBeTruthy()
    expect(document.getElementById(session.getAttribute('aria-describedby')!)?.textContent).toContain('Bash commands exactly "git push --force"')
    expect(dialog().getAttribute('aria-modal')).toBe('true')
  })

  it('shows the rules "Always allow" will save before anything is saved, and saves them where the user chose', async () => {
    const ask: ApprovalRequestPublic = {
      ...request('r1', 'git status && npm test'),
      scope: { tool: 'Bash', pattern: {}, description: 'Bash(git status:*), Bash(npm test:*)', rules: ['Bash(git status:*)', 'Bash(npm test:*)'] }
    }
    act(() => host.emit('approval/requested', ask))
    const d = within(dialog())
    const always = d.getByRole('button', { name: 'Always allow' })
    const described = document.getElementById(always.getAttribute('aria-describedby')!)!
    expect(within(described).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Bash(git status:*)', 'Bash(npm test:*)'])
    expect(described.textContent).toContain('in this workspace (.claude/settings.local.json)')
    // Nothing is saved by showing it.
    expect(host.callsOf('approval/answer')).toEqual([])
    fireEvent.change(d.getByRole('combobox', { name: 'Where Always allow saves' }), { target: { value: 'user' } })
    await act(async () => {
      fireEvent.click(always)
    })
    expect(host.callsOf('approval/answer')).toEqual([{ requestId: 'r1', outcome: 'allowed-always', saveTo: 'user' }])
  })

  it('a scope without rules offers no "Always allow" and says what the session grant covers', () => {
    act(() => host.emit('approval/requested', request('r1', 'ls')))
    expect(within(dialog()).queryByRole('button', { name: 'Always allow' })).toBeNull()
  })

  it('an Enter pressed as the dialog appears (meant for the message box) approves nothing', async () => {
    act(() => host.emit('approval/requested', request('r0', 'rm -rf /tmp/x')))
    await act(async () => {
      fireEvent.keyDown(dialog(), { key: 'Enter' })
    })
    expect(host.callsOf('approval/answer')).toEqual([])
    expect(within(dialog()).getByText(/"command": "rm -rf \/tmp\/x"/)).toBeTruthy()
  })

  it('queues asks: Enter allows the first once, then the second shows; Esc denies it with the note', async () => {
    const now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now)
    act(() => {
      host.emit('approval/requested', request('r1', 'ls'))
      host.emit('approval/requested', request('r2', 'rm -rf build'))
    })
    expect(within(dialog()).getByText(/"command": "ls"/)).toBeTruthy()
    expect(within(dialog()).getByText(/1 more waiting/)).toBeTruthy()

    clock.mockReturnValue(now + ENTER_GUARD_MS)
    await act(async () => {
      fireEvent.keyDown(dialog(), { key: 'Enter' })
    })
    clock.mockRestore()
    expect(host.callsOf('approval/answer')).toEqual([{ requestId: 'r1', outcome: 'allowed-once' }])
    expect(within(dialog()).getByText(/"command": "rm -rf build"/)).toBeTruthy()

    const note = within(dialog()).getByRole('textbox', { name: 'Note for the model' })
    fireEvent.change(note, { target: { value: 'use make clean instead' } })
    // Enter inside the note is a new line, not an answer.
    await act(async () => {
      fireEvent.keyDown(note, { key: 'Enter' })
    })
    expect(host.callsOf('approval/answer')).toHaveLength(1)
    await act(async () => {
      fireEvent.keyDown(note, { key: 'Escape' })
    })
    expect(host.callsOf('approval/answer')[1]).toEqual({ requestId: 'r2', outcome: 'denied', note: 'use make clean instead' })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('Esc or Enter that an input method is using (composing a note) answers nothing', async () => {
    act(() => host.emit('approval/requested', request('r1', 'ls')))
    const note = within(dialog()).getByRole('textbox', { name: 'Note for the model' })
    await act(async () => {
      // Esc cancels the IME's candidate list; the dialog must not take it as "deny".
      fireEvent.keyDown(note, { key: 'Escape', isComposing: true })
      fireEvent.keyDown(dialog(), { key: 'Enter', isComposing: true })
    })
    expect(host.callsOf('approval/answer')).toEqual([])
    expect(screen.getByRole('dialog', { name: 'Approve tool call' })).toBeTruthy()
  })

  it('Allow for this session answers allowed-session', async () => {
    act(() => host.emit('approval/requested', request('r1', 'npm test')))
    await act(async () => {
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Allow for this session' }))
    })
    expect(host.callsOf('approval/answer')).toEqual([{ requestId: 'r1', outcome: 'allowed-session' }])
  })

  it('marks a dangerous call (S11): its risks are listed, Deny has the focus and Enter denies it', async () => {
    const now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now)
    act(() => host.emit('approval/requested', { ...request('r1', 'rm -rf build'), risks: [{ kind: 'recursive-delete', text: 'recursive delete: rm -rf build' }] }))
    const risks = within(dialog()).getByRole('group', { name: 'Dangerous call' })
    expect(within(risks).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['recursive delete: rm -rf build'])
    expect(document.activeElement).toBe(within(dialog()).getByRole('button', { name: 'Deny' }))
    expect(within(dialog()).getByText('Enter: deny (dangerous call) · Esc: deny')).toBeTruthy()
    clock.mockReturnValue(now + ENTER_GUARD_MS * 10)
    await act(async () => {
      fireEvent.keyDown(dialog(), { key: 'Enter' })
    })
    clock.mockRestore()
    expect(host.callsOf('approval/answer')).toEqual([{ requestId: 'r1', outcome: 'denied' }])
  })

  it('closes when the host settles the shown ask elsewhere, and shows the next', () => {
    act(() => {
      host.emit('approval/requested', request('r1', 'ls'))
      host.emit('approval/requested', request('r2', 'pwd'))
    })
    act(() => host.emit('approval/settled', { requestId: 'r1', outcome: 'cancelled' }))
    expect(within(dialog()).getByText(/"command": "pwd"/)).toBeTruthy()
    act(() => host.emit('approval/settled', { requestId: 'r2', outcome: 'unavailable' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(host.callsOf('approval/answer')).toEqual([])
  })

  it('picks up asks pending at start (approval/pending) without showing settled ones again', async () => {
    host.handlers['approval/pending'] = () => [request('r1', 'ls'), request('r2', 'pwd')]
    act(() => host.emit('approval/settled', { requestId: 'r1', outcome: 'cancelled' }))
    await act(async () => {
      await wiring.resync()
    })
    expect(within(dialog()).getByText(/"command": "pwd"/)).toBeTruthy()
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
  })

  it('keeps Tab focus inside the dialog', () => {
    act(() => host.emit('approval/requested', request('r1', 'ls')))
    const buttons = within(dialog()).getAllByRole('button')
    const last = buttons[buttons.length - 1]
    last.focus()
    fireEvent.keyDown(last, { key: 'Tab' })
    // The first focusable element: the command block's Copy button.
    expect(document.activeElement).toBe(dialog().querySelector('.approval-command button'))
  })

  it('wraps long argument lines, so the end of a long command is on screen (not scrolled off to the right)', () => {
    act(() => host.emit('approval/requested', request('r1', `echo ${'harmless '.repeat(60)}; rm -rf ~/precious`)))
    const args = dialog().querySelector('pre')!
    expect(args.textContent).toContain('rm -rf ~/precious')
    // happy-dom does no layout: read what the app's stylesheets declare for this element.
    const declared = declaredStyle(args, ['base.css', 'dialogs.css'])
    expect(declared['white-space']).toBe('pre-wrap')
    expect(declared.overflow).toBe('auto')
  })
})

/** The properties the rules matching `el` declare, later rules winning (enough for one-class selectors). */
function declaredStyle(el: Element, files: string[]): Record<string, string> {
  const style = document.createElement('style')
  const styles = join(dirname(fileURLToPath(import.meta.url)), '..', 'styles')
  style.textContent = files.map((f) => readFileSync(join(styles, f), 'utf8')).join('\n')
  document.head.appendChild(style)
  try {
    const out: Record<string, string> = {}
    for (const rule of [...style.sheet!.cssRules]) {
      const styleRule = rule as CSSStyleRule
      if (!styleRule.selectorText || !el.matches(styleRule.selectorText)) continue
      for (const name of ['white-space', 'overflow']) {
        const value = styleRule.style.getPropertyValue(name)
        if (value) out[name] = value
      }
    }
    return out
  } finally {
    style.remove()
  }
}
