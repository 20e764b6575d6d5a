// @vitest-environment happy-dom
// Settings, "Subagents": the agents found (name, description, where each came from, its file and
// tools) and the files skipped with the field at fault.
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HostProvider } from '../app/host-context'
import { FakeHost } from '../test/fake-host'
import { resetStores } from '../test/reset-stores'
import { AgentsList } from './AgentsList'

beforeEach(() => resetStores())
afterEach(() => cleanup())

describe('AgentsList', () => {
  it('lists every agent with its source, file and tools, then the skipped files with file, field and reason', async () => {
    const host = new FakeHost({
      'subagents/list': () => ({
        running: true,
        agents: [
          { name: 'scout', description: 'Looks around', source: 'project', file: '/w/.claude/agents/scout.md', tools: ['Read', 'Grep'] },
          { name: 'tidy', description: 'Tidies', source: 'plugin:cleaners', file: '/p/agents/tidy.md', disallowedTools: ['Bash'] },
          { name: 'general-purpose', description: 'Does anything', source: 'builtin' }
        ],
        skipped: [{ file: '/w/.claude/agents/broken.md', field: 'description', reason: 'front matter field "description" is required' }]
      })
    })
    render(<HostProvider host={host}><AgentsList /></HostProvider>)
    const found = await screen.findByRole('list', { name: 'Agents found' })
    const scout = within(found).getByRole('listitem', { name: 'Agent scout' })
    expect(scout.textContent).toContain('project (.claude/agents)')
    expect(scout.textContent).toContain('/w/.claude/agents/scout.md')
    expect(scout.textContent).toContain('Tools: Read, Grep')
    expect(within(found).getByRole('listitem', { name: 'Agent tidy' }).textContent).toContain('plugin cleaners')
    expect(within(found).getByRole('listitem', { name: 'Agent tidy' }).textContent).toContain('Tools: all; not: Bash')
    expect(within(found).getByRole('listitem', { name: 'Agent general-purpose' }).textContent).toContain('built-in')
    const skipped = screen.getByRole('list', { name: 'Skipped agent files' })
    expect(skipped.textContent).toBe('/w/.claude/agents/broken.md: description: front matter field "description" is required')
  })

  it('says so when the subagents plugin is not running', async () => {
    const host = new FakeHost({ 'subagents/list': () => ({ running: false, agents: [], skipped: [] }) })
    render(<HostProvider host={host}><AgentsList /></HostProvider>)
    expect(await screen.findByText(/The subagents plugin is not running/)).toBeTruthy()
  })
})
