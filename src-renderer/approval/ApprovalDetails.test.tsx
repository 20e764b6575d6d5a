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

  it('shows a Bash call as its command line (a bash code block) with the folder it runs in and its description, the JSON folded', () => {
    render(<ApprovalDetails request={{ ...base, tool: 'Bash', args: { command: 'rm -rf build', description: 'Clean the build' } }} />)
    expect(screen.getByLabelText('Runs in').textContent).toBe('/w')
    const command = screen.getByRole('group', { name: 'Command that will run' })
    expect(command.querySelector('pre')?.textContent).toBe('rm -rf build')
    expect(command.querySelector('.code-lang')?.textContent).toBe('bash')
    expect(screen.getByText('Clean the build')).toBeTruthy()
    expect(screen.getByText('Arguments (JSON)').closest('details')?.open).toBe(false)
  })

  it('shows the raw arguments of a call it has no better view for', () => {
    render(<ApprovalDetails request={{ ...base, tool: 'mcp__s__t', args: { q: 1 } }} />)
    expect(screen.getByText('Arguments that will run')).toBeTruthy()
    expect(document.querySelector('pre')?.textContent).toContain('"q": 1')
  })
})
