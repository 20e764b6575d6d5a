// The instructions plugin on the real agent loop: which files reach the model, how (a durable
// instructions/loaded event the request is rebuilt from), imports, and re-reading at the next turn.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createLoopFixture, type LoopFixture } from '@seam/sdk/testing'
import { buildModelRequest } from '@seam/sdk/testing'
import { discoverInstructions } from './discover'
import { InstructionsConfigSchema } from './config'
import instructions, { findImports } from './index'

let fixture: LoopFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

async function withFiles(files: Record<string, string>, config: Record<string, unknown> = {}): Promise<LoopFixture> {
  const f = await createLoopFixture({ script: () => ({ text: 'ok' }) })
  // The workspace is the fixture's temp dir; the user's home is a folder inside it.
  const home = join(f.dir, 'home')
  for (const [path, text] of Object.entries(files)) {
    const full = join(f.dir, path.replace(/^~\//, 'home/'))
    await mkdir(join(full, '..'), { recursive: true })
    await writeFile(full, text)
  }
  f.kernel.plugin(instructions, { home, codex: { home: join(home, '.codex') }, ...config })
  fixture = f
  return f
}

describe('instructions plugin (issue 16: project instructions)', () => {
  it('delivers the user, project, .claude and local CLAUDE.md files before the first prompt, in that order, and the request is rebuilt from the log alone', async () => {
    const f = await withFiles({
      '~/.claude/CLAUDE.md': 'user rule',
      '.git/HEAD': 'ref: x',
      'CLAUDE.md': 'project rule',
      '.claude/CLAUDE.md': 'dot-claude rule',
      'CLAUDE.local.md': 'local rule'
    })
    f.agent.send('hello')
    await f.agent.whenIdle()
    const [loaded] = f.ofType('instructions/loaded')
    expect(loaded.files.map((file) => [file.path.slice(f.dir.length), file.memoryType, file.loadReason])).toEqual([
      ['/home/.claude/CLAUDE.md', 'User', 'session_start'],
      ['/CLAUDE.md', 'Project', 'session_start'],
      ['/.claude/CLAUDE.md', 'Project', 'session_start'],
      ['/CLAUDE.local.md', 'Local', 'session_start']
    ])
    const first = f.model.requests[0].messages[0]
    expect(first.role).toBe('user')
    const text = first.role === 'user' ? first.content : ''
    expect(text.indexOf('user rule')).toBeLessThan(text.indexOf('project rule'))
    expect(text.indexOf('local rule')).toBeLessThan(text.indexOf('hello'))
    expect(text).toContain(`<system-reminder>\n${loaded.text}\n</system-reminder>`)
    expect(buildModelRequest(f.log.events).messages[0]).toEqual(first)
  })

  it('reads parent folders from the repository root down to the workspace, and AGENTS.md from $CODEX_HOME then root to workspace', async () => {
    const f = await withFiles({ '~/.codex/AGENTS.md': 'codex home', 'AGENTS.md': 'agents root', 'CLAUDE.md': 'root claude', '.git/HEAD': 'x' })
    const sub = join(f.dir, 'pkg')
    await mkdir(sub)
    await writeFile(join(sub, 'CLAUDE.md'), 'pkg claude')
    await writeFile(join(sub, 'AGENTS.md'), 'pkg agents')
    const config = InstructionsConfigSchema.parse({ home: join(f.dir, 'home'), codex: { home: join(f.dir, 'home', '.codex') } })
    const found = discoverInstructions({ workspace: sub, config })
    expect(found.files.map((file) => [file.path.slice(f.dir.length), file.memoryType])).toEqual([
      ['/CLAUDE.md', 'Project'],
      ['/pkg/CLAUDE.md', 'Project'],
      ['/home/.codex/AGENTS.md', 'CodexHome'],
      ['/AGENTS.md', 'Agents'],
      ['/pkg/AGENTS.md', 'Agents']
    ])
    const onlyClaude = discoverInstructions({ workspace: sub, config: InstructionsConfigSchema.parse({ home: join(f.dir, 'home'), codex: { enabled: false }, claude: { parents: false } }) })
    expect(onlyClaude.files.map((file) => file.path.slice(f.dir.length))).toEqual(['/pkg/CLAUDE.md'])
  })

  it('follows @path imports (relative and ~), depth-limited, and refuses a cycle with a warning', async () => {
    const f = await withFiles({
      'CLAUDE.md': 'see @docs/a.md and @~/shared.md, not `@ignored.md`, mail me@example.com',
      'docs/a.md': 'A imports @b.md',
      'docs/b.md': 'B imports @a.md again',
      '~/shared.md': 'shared'
    })
    const config = InstructionsConfigSchema.parse({ home: join(f.dir, 'home'), codex: { enabled: false } })
    const found = discoverInstructions({ workspace: f.dir, config })
    expect(found.files.map((file) => [file.path.slice(f.dir.length), file.loadReason, file.parent?.slice(f.dir.length)])).toEqual([
      ['/CLAUDE.md', 'session_start', undefined],
      ['/docs/a.md', 'include', '/CLAUDE.md'],
      ['/docs/b.md', 'include', '/docs/a.md'],
      ['/home/shared.md', 'include', '/CLAUDE.md']
    ])
    expect(found.warnings.join('\n')).toMatch(/b\.md: import @a\.md refused: .*cycle/)
    const shallow = discoverInstructions({ workspace: f.dir, config: InstructionsConfigSchema.parse({ home: join(f.dir, 'home'), codex: { enabled: false }, claude: { importDepth: 1 } }) })
    expect(shallow.files.map((file) => file.path.slice(f.dir.length))).toEqual(['/CLAUDE.md', '/docs/a.md', '/home/shared.md'])
    expect(shallow.warnings.join('\n')).toMatch(/import @b\.md not read: imports may nest at most 1 deep/)
    expect(findImports('```\n@in-fence.md\n```\n@./x.md')).toEqual(['./x.md'])
  })

  it('reads a changed, added or removed file again at the next turn and delivers only the difference', async () => {
    const f = await withFiles({ 'CLAUDE.md': 'v1', 'CLAUDE.local.md': 'local' })
    f.agent.send('one')
    await f.agent.whenIdle()
    f.agent.send('two')
    await f.agent.whenIdle()
    expect(f.ofType('instructions/loaded')).toHaveLength(1)
    await writeFile(join(f.dir, 'CLAUDE.md'), 'v2')
    await rm(join(f.dir, 'CLAUDE.local.md'))
    f.agent.send('three')
    await f.agent.whenIdle()
    const updates = f.ofType('instructions/loaded')
    expect(updates).toHaveLength(2)
    expect(updates[1].files.map((file) => [file.content, file.loadReason])).toEqual([['v2', 'changed']])
    expect(updates[1].removed).toEqual([join(f.dir, 'CLAUDE.local.md')])
    const last = f.model.requests[2].messages.at(-1)
    expect(last?.role === 'user' && last.content).toMatch(/changed since[\s\S]*v2[\s\S]*CLAUDE\.local\.md was removed[\s\S]*three$/)
  })

  it('a resumed session delivers nothing again when the files are unchanged', async () => {
    const f = await withFiles({ 'CLAUDE.md': 'rule' })
    f.agent.send('one')
    await f.agent.whenIdle()
    await f.agent.close('closed')
    const { Agent } = await import('@seam/sdk/testing')
    const resumed = new Agent({ kernel: f.kernel, log: f.log, model: f.model, workspace: f.dir, source: 'resume' })
    resumed.send('two')
    await resumed.whenIdle()
    await resumed.close('closed')
    expect(f.ofType('instructions/loaded')).toHaveLength(1)
  })
})
