// The skills plugin's contributions go with it (S3, S24): the Skill tool, the slash command
// provider and the trust items; and what a project skill that runs shell lines or pre-approves
// tools puts in the workspace's trust dialog.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import skills, { TRUST_SOURCE } from './index'
import { put, skillFile } from './test-host'

let host: TestHost | undefined
afterEach(async () => {
  await host?.cleanup()
  host = undefined
})

describe('skills plugin registrations', () => {
  it('S3/S24: disposing the plugin removes the Skill tool, its slash command provider and its trust items', async () => {
    host = await createTestHost({ plugins: [skills] })
    await put(join(host.workspace, '.claude', 'skills', 'state', 'SKILL.md'), skillFile('description: Branch state\nallowed-tools: Bash(git status:*)', 'State: !`git status`'))
    await put(join(host.workspace, '.claude', 'skills', 'plain', 'SKILL.md'), skillFile('description: Nothing to trust', 'Just text.'))
    const registry = host.kernel.getService('slashCommands')!
    expect(host.kernel.getService('tools')!.get('Skill')).toBeDefined()
    expect(registry.providers()).toHaveLength(1)
    expect(registry.providers()[0].list(host.workspace).commands.map((c) => [c.name, c.kind, c.origin])).toEqual([
      ['plain', 'skill', 'project .claude/skills'],
      ['state', 'skill', 'project .claude/skills']
    ])
    expect(host.trustItems()).toEqual([
      {
        source: TRUST_SOURCE,
        file: join(host.workspace, '.claude', 'skills', 'state', 'SKILL.md'),
        event: '/state',
        command: 'git status\nallowed-tools: Bash(git status:*)',
        content: JSON.stringify({ body: 'State: !`git status`', allowedTools: ['Bash(git status:*)'] })
      }
    ])
    host.plugins[0].dispose()
    expect(host.kernel.getService('tools')!.get('Skill')).toBeUndefined()
    expect(registry.providers()).toHaveLength(0)
    expect(host.trustItems()).toEqual([])
  })
})
