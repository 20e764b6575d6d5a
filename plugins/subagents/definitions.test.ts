// Where agent definitions come from and how files become agents (claude-code-extensions.md 1(a)).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { InstalledPlugin, TrustItem } from '@seam/sdk'
import { DefinitionCache, discoverAgents, projectFolders, projectTrustItems } from './definitions'
import { splitToolList } from './definition-schema'
import { toolAccess } from './tool-access'

let root: string
let repo: string
let workspace: string
let home: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'seam-agent-defs-'))
  repo = join(root, 'repo')
  workspace = join(repo, 'packages', 'app')
  home = join(root, 'home')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(workspace, { recursive: true })
  mkdirSync(home, { recursive: true })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function write(file: string, text: string): string {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, text)
  return file
}

const md = (front: string, body = 'Body.') => `---\n${front}\n---\n${body}\n`
const all = () => true

describe('agent definitions', () => {
  it('reads project agents from the workspace up to the repository root (closest wins), the user folder recursively, plugin agents namespaced, Codex TOML agents, and the built-ins last', () => {
    write(join(repo, '.claude/agents/shared.md'), md('name: shared\ndescription: from the repo root'))
    write(join(workspace, '.claude/agents/shared.md'), md('name: shared\ndescription: from the workspace'))
    write(join(home, '.claude/agents/deep/nested/mine.md'), md('name: mine\ndescription: mine\ntools: Read, Agent(worker, researcher)\nmodel: haiku\nmaxTurns: 3\nextraField: kept and ignored'))
    write(join(home, '.claude/agents/general.md'), md('name: general-purpose\ndescription: my own general agent'))
    write(join(workspace, '.codex/agents/helper.toml'), 'name = "helper"\ndescription = "Codex helper"\ndeveloper_instructions = "Help."\nmodel = "gpt-5"\n')
    write(join(root, 'plug/agents/review/security.md'), md('name: security\ndescription: checks security\npermissionMode: plan'))
    const plugin: InstalledPlugin = { name: 'my-plugin', format: 'claude', root: join(root, 'plug'), dataDir: join(root, 'data'), commands: [], agents: [join(root, 'plug/agents')], skills: [] }
    const { agents, skipped } = discoverAgents({ workspace, home, plugins: [plugin], approved: all })
    expect(skipped).toEqual([])
    const byName = new Map(agents.map((agent) => [agent.name, agent]))
    expect(byName.get('shared')).toMatchObject({ description: 'from the workspace', source: 'project' })
    expect(byName.get('mine')).toMatchObject({ source: 'user', tools: ['Read', 'Agent(worker, researcher)'], model: 'haiku', maxTurns: 3, prompt: 'Body.' })
    expect(byName.get('helper')).toMatchObject({ source: 'codex-project', prompt: 'Help.', model: 'gpt-5' })
    // `agents/review/security.md` in `my-plugin` is `my-plugin:review:security`; permissionMode is ignored for plugin agents.
    expect(byName.get('my-plugin:review:security')).toMatchObject({ source: 'plugin:my-plugin' })
    expect(byName.get('my-plugin:review:security')?.permissionMode).toBeUndefined()
    // A user agent named like a built-in overrides it.
    expect(byName.get('general-purpose')).toMatchObject({ source: 'user', description: 'my own general agent' })
    expect(byName.get('Explore')?.source).toBe('builtin')
    expect(agents.map((a) => a.name).slice(-2)).toEqual(['Explore', 'Plan'])
  })

  it('skips a file with a name but no description, broken YAML, a bad field or a TOML without instructions, naming the file and the field; a file without a name is documentation', () => {
    const noDescription = write(join(workspace, '.claude/agents/a.md'), md('name: a'))
    const broken = write(join(workspace, '.claude/agents/b.md'), md('name: b\ndescription: [unclosed'))
    const badField = write(join(workspace, '.claude/agents/c.md'), md('name: c\ndescription: c\nmaxTurns: many'))
    write(join(workspace, '.claude/agents/README.md'), '# Our agents\nNotes only.\n')
    write(join(workspace, '.claude/agents/doc.md'), md('description: no name here'))
    const toml = write(join(workspace, '.codex/agents/x.toml'), 'name = "x"\ndescription = "x"\n')
    const badToml = write(join(workspace, '.codex/agents/y.toml'), 'name = "y\n')
    const { agents, skipped } = discoverAgents({ workspace, home, plugins: [], approved: all })
    expect(agents.map((a) => a.name)).toEqual(['general-purpose', 'Explore', 'Plan'])
    expect(skipped.map((s) => [s.file, s.field])).toEqual([
      [noDescription, 'description'],
      [broken, 'yaml'],
      [badField, 'maxTurns'],
      [toml, 'developer_instructions'],
      [badToml, 'toml']
    ])
    expect(skipped[0].reason).toBe('front matter field "description" is required (when Claude should delegate to this agent)')
  })

  it('project agents are workspace code: offered only when approved (trusted, this exact content); user agents need no approval', () => {
    const file = write(join(workspace, '.claude/agents/p.md'), md('name: p\ndescription: project agent'))
    write(join(home, '.claude/agents/u.md'), md('name: u\ndescription: user agent'))
    const approvedContent = new Set<string>()
    const approved = (item: TrustItem) => approvedContent.has(item.content ?? '')
    let found = discoverAgents({ workspace, home, plugins: [], approved })
    expect(found.agents.map((a) => a.name)).toEqual(['u', 'general-purpose', 'Explore', 'Plan'])
    expect(found.skipped).toEqual([{ file, field: '(file)', reason: expect.stringContaining('not trusted') }])
    approvedContent.add(md('name: p\ndescription: project agent'))
    found = discoverAgents({ workspace, home, plugins: [], approved })
    expect(found.agents.map((a) => a.name)).toContain('p')
    // Edited after approval: off again until approved.
    write(file, md('name: p\ndescription: project agent, edited'))
    expect(discoverAgents({ workspace, home, plugins: [], approved }).agents.map((a) => a.name)).not.toContain('p')
  })

  it('re-reads a file when it changes (size or mtime), and serves it from the cache otherwise', () => {
    const file = write(join(home, '.claude/agents/u.md'), md('name: u\ndescription: first'))
    const cache = new DefinitionCache()
    const options = { workspace, home, plugins: [], approved: all }
    expect(discoverAgents(options, cache).agents[0].description).toBe('first')
    write(file, md('name: u\ndescription: second one'))
    utimesSync(file, new Date(), new Date(Date.now() + 5_000))
    expect(discoverAgents(options, cache).agents[0].description).toBe('second one')
  })

  it('walks from the workspace to the repository root; without a repository only the workspace', () => {
    expect(projectFolders(workspace, '.claude')).toEqual([join(workspace, '.claude'), join(repo, 'packages', '.claude'), join(repo, '.claude')])
    const lone = join(root, 'lone')
    mkdirSync(lone)
    expect(projectFolders(lone, '.claude')).toEqual([join(lone, '.claude')])
  })
})

describe('tool access', () => {
  it('tools is an allowlist, disallowedTools wins, Task is Agent, Agent(type) limits what it may start, mcp__server covers its tools', () => {
    expect(splitToolList('Read, Grep, Agent(worker, researcher)')).toEqual(['Read', 'Grep', 'Agent(worker, researcher)'])
    const access = toolAccess({ tools: ['Read', 'Bash', 'Agent(worker)', 'mcp__db'], disallowedTools: ['Bash'] }, { canSpawn: true })
    expect(['Read', 'Bash', 'Write', 'Agent', 'Task', 'mcp__db__query', 'mcp__other__x'].filter((t) => access.allows(t))).toEqual(['Read', 'Agent', 'Task', 'mcp__db__query'])
    expect(access.spawnable).toEqual(['worker'])
    const everything = toolAccess({}, { canSpawn: false })
    expect(['Read', 'Write', 'Agent', 'Task'].filter((t) => everything.allows(t))).toEqual(['Read', 'Write'])
    const narrowed = toolAccess({}, { canSpawn: true, narrowedTo: ['Read', 'Bash(git status)'] })
    expect(['Read', 'Bash', 'Write'].filter((t) => narrowed.allows(t))).toEqual(['Read', 'Bash'])
  })
})

describe('skills, mcpServers and hooks of an agent file', () => {
  const front = [
    'name: worker',
    'description: works',
    'skills: [deploy, lint]',
    'mcpServers:',
    '  - github',
    '  - local:',
    '      command: node',
    '      args: [server.mjs, --quiet]',
    'hooks:',
    '  PreToolUse:',
    '    - matcher: Bash',
    '      hooks:',
    '        - type: command',
    '          command: ./check.sh',
    'permissionMode: plan'
  ].join('\n')

  it('are read from a project or user agent (configured servers by name, inline ones with their entry); the trust dialog shows the hook commands and server command lines', () => {
    const file = write(join(workspace, '.claude/agents/worker.md'), md(front))
    write(join(home, '.claude/agents/mapped.md'), md('name: mapped\ndescription: servers as a mapping\nskills: one\nmcpServers:\n  solo:\n    type: http\n    url: https://example.test/mcp'))
    const { agents, skipped } = discoverAgents({ workspace, home, plugins: [], approved: all })
    expect(skipped).toEqual([])
    const byName = new Map(agents.map((agent) => [agent.name, agent]))
    expect(byName.get('worker')).toMatchObject({
      skills: ['deploy', 'lint'],
      mcpServers: [{ name: 'github' }, { name: 'local', entry: { command: 'node', args: ['server.mjs', '--quiet'] } }],
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }] }] },
      permissionMode: 'plan'
    })
    expect(byName.get('mapped')).toMatchObject({ skills: ['one'], mcpServers: [{ name: 'solo', entry: { type: 'http', url: 'https://example.test/mcp' } }] })
    const [item] = projectTrustItems(workspace)
    expect(item).toMatchObject({ file, command: ['worker: works', 'hook PreToolUse: ./check.sh', 'MCP server "local": node server.mjs --quiet'].join('\n') })
  })

  it('a plugin agent keeps its skills but its hooks, mcpServers and permissionMode are ignored, as Claude Code ignores them', () => {
    write(join(root, 'plug/agents/worker.md'), md(front))
    const plugin: InstalledPlugin = { name: 'p', format: 'claude', root: join(root, 'plug'), dataDir: join(root, 'data'), commands: [], agents: [join(root, 'plug/agents')], skills: [] }
    const { agents } = discoverAgents({ workspace, home, plugins: [plugin], approved: all })
    const agent = agents.find((a) => a.name === 'p:worker')
    expect(agent).toMatchObject({ source: 'plugin:p', skills: ['deploy', 'lint'] })
    expect(agent?.hooks).toBeUndefined()
    expect(agent?.mcpServers).toBeUndefined()
    expect(agent?.permissionMode).toBeUndefined()
  })

  it('a malformed field skips the file naming the field', () => {
    const badServer = write(join(workspace, '.claude/agents/a.md'), md('name: a\ndescription: a\nmcpServers:\n  - local: just a string'))
    const badHooks = write(join(workspace, '.claude/agents/b.md'), md('name: b\ndescription: b\nhooks: [PreToolUse]'))
    const { skipped } = discoverAgents({ workspace, home, plugins: [], approved: all })
    expect(skipped).toEqual([
      { file: badServer, field: 'mcpServers', reason: expect.stringContaining('front matter field "mcpServers"') },
      { file: badHooks, field: 'hooks', reason: 'front matter field "hooks" must be a mapping of hook events, as in settings.json "hooks"' }
    ])
  })

  it('the tools of the servers an agent names are its own even outside its tools list; a bare deny still wins', () => {
    const access = toolAccess({ tools: ['Read'], disallowedTools: ['mcp__local__drop'] }, { canSpawn: false, servers: ['github', 'my.local'] })
    expect(['Read', 'Bash', 'mcp__github__search', 'mcp__my_local__get', 'mcp__other__x'].filter((t) => access.allows(t))).toEqual(['Read', 'mcp__github__search', 'mcp__my_local__get'])
    const denied = toolAccess({ disallowedTools: ['mcp__github'] }, { canSpawn: false, servers: ['github'] })
    expect(denied.allows('mcp__github__search')).toBe(false)
  })
})
