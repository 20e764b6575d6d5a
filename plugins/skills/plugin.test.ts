// The skills plugin's contributions go with it (S3, S24): the Skill tool, the slash command
// provider and the trust items; and what a project skill that runs shell lines or pre-approves
// tools puts in the workspace's trust dialog.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import claudePlugins from '../claude-plugins/index'
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

describe('skills from installed Claude Code plugins and forked skills', () => {
  it('a plugin folder\'s skills/ (through the real claude-plugins plugin) are plugin:skill, listed, and load with ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} substituted', async () => {
    host = await createTestHost({
      plugins: [skills],
      script: [{ toolCalls: [{ name: 'Skill', args: { skill: 'helper-kit:lint', args: 'src' } }] }, { text: 'done' }]
    })
    const pluginDir = join(host.workspace, '..', 'helper-kit')
    await put(join(pluginDir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'helper-kit', version: '1.0.0' }))
    await put(join(pluginDir, 'skills', 'lint', 'SKILL.md'), skillFile('description: Lint with the kit', 'Run ${CLAUDE_PLUGIN_ROOT}/bin/lint $0 (cache ${CLAUDE_PLUGIN_DATA}).'))
    host.kernel.plugin(claudePlugins, { pluginDirs: [pluginDir], seamHome: join(host.workspace, '..', 'seam-home') })
    await host.run('lint it')
    const told = host.events('context/message').find((e) => e.source === 'skills')
    expect(told?.text).toContain('- helper-kit:lint: Lint with the kit')
    const loaded = host.events('skill/loaded')
    expect(loaded).toHaveLength(1)
    const data = host.kernel.getService('claudePlugins')!.list(host.workspace)[0].dataDir
    expect(loaded[0].text).toContain(`<command-name>/helper-kit:lint</command-name>`)
    expect(loaded[0].text).toContain(`Run ${pluginDir}/bin/lint src (cache ${data}).`)
  })

  it('context: fork without a subagents service fails the call saying so, and nothing is loaded', async () => {
    host = await createTestHost({ plugins: [skills], script: [{ toolCalls: [{ name: 'Skill', args: { skill: 'research' } }] }, { text: 'ok' }] })
    await put(join(host.workspace, '.claude', 'skills', 'research', 'SKILL.md'), skillFile('description: Research in a subagent\ncontext: fork\nagent: Explore', 'Research $ARGUMENTS.'))
    await host.run('research')
    const [result] = host.events('tool/result')
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('sets context: fork (run as a subagent), and no subagents service is loaded') })
    expect(host.events('skill/loaded')).toHaveLength(0)
  })
})

describe('paths', () => {
  it('a skill with paths is listed to the model only once the session has touched a matching file', async () => {
    host = await createTestHost({ plugins: [skills], script: [{ toolCalls: [{ name: 'Read', args: { file_path: 'docs/guide.md' } }] }, { text: 'read' }, { text: 'ok' }] })
    await put(join(host.workspace, 'docs', 'guide.md'), '# Guide\n')
    await put(join(host.workspace, '.claude', 'skills', 'docs-style', 'SKILL.md'), skillFile('description: House style for docs\npaths: docs/**/*.md', 'Write plainly.'))
    await put(join(host.workspace, '.claude', 'skills', 'always', 'SKILL.md'), skillFile('description: Always listed', 'x'))
    await host.run('read the guide')
    const firstListing = host.events('context/message').filter((e) => e.source === 'skills')
    expect(firstListing).toHaveLength(1)
    expect(firstListing[0].text).toContain('- always: Always listed')
    expect(firstListing[0].text).not.toContain('docs-style')
    await host.run('and now?')
    const listings = host.events('context/message').filter((e) => e.source === 'skills')
    expect(listings).toHaveLength(2)
    expect(listings[1].text).toContain('- docs-style: House style for docs')
  })
})

describe('trust items of skills with hooks', () => {
  it('a workspace skill with hooks is a trust item that lists them and pins them with its shell', async () => {
    host = await createTestHost({ plugins: [skills] })
    const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh', once: true }] }] }
    await put(
      join(host.workspace, '.claude', 'skills', 'audited', 'SKILL.md'),
      skillFile(`description: Audited\nshell: powershell\nhooks: ${JSON.stringify(hooks)}`, 'State: !`Get-Location`')
    )
    expect(host.trustItems()).toEqual([
      {
        source: TRUST_SOURCE,
        file: join(host.workspace, '.claude', 'skills', 'audited', 'SKILL.md'),
        event: '/audited',
        command: `Get-Location\nhooks: ${JSON.stringify(hooks)}`,
        content: JSON.stringify({ body: 'State: !`Get-Location`', allowedTools: [], shell: 'powershell', hooks })
      }
    ])
  })
})
