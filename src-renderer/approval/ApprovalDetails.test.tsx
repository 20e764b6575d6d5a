// @vitest-environment happy-dom
// Issue 17, "Reviewing changes": what the approval dialog shows of the call itself.
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { ApprovalDetails, proposedContent } from './ApprovalDetails'

afterEach(cleanup)

const base: Omit<ApprovalRequestPublic, 'tool' | 'args'> = {
  id: 'r1', sessionId: 's1', token: 't', reason: 'why', scope: { tool: 'Edit', pattern: {}, description: 'd' }, cwd: '/w'
}

describe('proposedContent', () => {
  it('applies Write, Edit (once or all) and MultiEdit to the current text', () => {
    expect(proposedContent('Write', { content: 'new' }, 'old')).toBe('new')
    expect(proposedContent('Edit', { old_string: 'a', new_string: 'b' }, 'a a')).toBe('b a')
    expect(proposedContent('Edit', { old_string: 'a', new_string: 'b', replace_all: true }, 'a a')).toBe('b b')
    expect(proposedContent('MultiEdit', { edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] }, 'a c')).toBe('b d')
    expect(proposedContent('Edit', { old_string: 1 }, 'x')).toBeNull()
  })
})

describe('ApprovalDetails', () => {
  it('shows the diff, the absolute path and the working folder for an Edit, and folds the JSON', () => {
    render(<ApprovalDetails request={{ ...base, tool: 'Edit', args: { file_path: 'a.txt', old_string: 'two', new_string: '2' }, file: { path: '/w/a.txt', before: 'one\ntwo\n', truncated: false } }} />)
    expect(screen.getByLabelText('File path').textContent).toBe('/w/a.txt')
    expect(screen.getByLabelText('Working folder').textContent).toBe('/w')
    const diff = screen.getByRole('group', { name: 'Change that will be applied' })
    expect([...diff.querySelectorAll('.diff-line.del .diff-text')].map((e) => e.textContent)).toEqual(['two'])
    expect([...diff.querySelectorAll('.diff-line.add .diff-text')].map((e) => e.textContent)).toEqual(['2'])
    expect(screen.getByText('Arguments (JSON)').closest('details')?.open).toBe(false)
  })

  it('marks a Write to a missing file as a new file', () => {
    render(<ApprovalDetails request={{ ...base, tool: 'Write', args: { file_path: '/w/n.txt', content: 'hi\n' }, file: { path: '/w/n.txt', before: null, truncated: false } }} />)
    expect(screen.getByText(/\(new file\)/)).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Change that will be applied' }).textContent).toContain('new file')
  })

  it('names the folder a Bash call runs in and shows its arguments', () => {
    render(<ApprovalDetails request={{ ...base, tool: 'Bash', args: { command: 'ls' } }} />)
    expect(screen.getByLabelText('Runs in').textContent).toBe('/w')
    expect(screen.getByText('Arguments that will run')).toBeTruthy()
    expect(document.querySelector('pre')?.textContent).toContain('"command": "ls"')
  })
})
