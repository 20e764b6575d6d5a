// A Claude Code plugin's output style and its settings.json `agent`, with the built `seam` as a
// real process against a loopback server speaking the Anthropic wire protocol (issue 29). The
// plugin is installed from a marketplace in a git repository on disk; the user's
// ~/.claude/settings.json selects the plugin's output style by `outputStyle`; the request then
// carries the style's body, the agent's prompt (with ${CLAUDE_PLUGIN_ROOT} written in), only the
// agent's tools, and the agent's model. Disabling the plugin takes all of it away again.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'
import { anthropicRunFlags, git, put } from '../../test-support/claude-plugin-cli'

let home: string
let workspace: string
useCliScratch('claude-plugin-style-agent', (dirs) => ({ home, workspace } = dirs))

const seam = (...args: string[]): Promise<CliResult> => runSeamHeadless(args, { cwd: workspace, home })
const flags = (url: string) => anthropicRunFlags(workspace, url)

interface Request {
  system: string
  tools: string[]
  model: string
}

async function oneRequest(): Promise<Request> {
  const server = await startFakeAnthropic([{ text: 'ok' }])
  let run: CliResult
  try {
    run = await seam('run', ...flags(server.url), 'hello')
  } finally {
    await server.close()
  }
  expect(run.stderr).not.toMatch(/error/i)
  expect(run.code).toBe(0)
  const body = server.requests[0].body as { model: string; system?: string | Array<{ text: string }>; tools?: Array<{ name: string }> }
  const system = typeof body.system === 'string' ? body.system : (body.system ?? []).map((block) => block.text).join('\n')
  return { system, tools: (body.tools ?? []).map((tool) => tool.name), model: body.model }
}

describe('a plugin output style and settings.json agent, with the built seam (issue 29)', () => {
  it('outputStyle selects the plugin style; the main thread runs with the agent prompt, tools and model; disabling the plugin takes them away', async () => {
    const source = join(home, 'market-src')
    await mkdir(source, { recursive: true })
    git(source, 'init', '--quiet', '--initial-branch=main')
    await put(join(source, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'team-tools', owner: { name: 'Team' }, plugins: [{ name: 'kit', source: './plugins/kit' }] }))
    const plugin = join(source, 'plugins', 'kit')
    await put(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'kit', version: '1.0.0' }))
    await put(join(plugin, 'output-styles', 'terse.md'), '---\nname: Terse\ndescription: Short answers\n---\nAnswer in at most one sentence, no lists.\n')
    await put(join(plugin, 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: claude-reviewer\n---\nYou review code and never edit it. Notes go to ${CLAUDE_PLUGIN_ROOT}/notes.\n')
    await put(join(plugin, 'settings.json'), JSON.stringify({ agent: 'reviewer' }))
    git(source, 'add', '-A')
    git(source, 'commit', '--quiet', '-m', 'kit')
    expect((await seam('plugin', 'marketplace', 'add', source)).code).toBe(0)

    const before = await oneRequest()
    expect(before.tools).toEqual(expect.arrayContaining(['Bash', 'Read', 'Grep', 'Write']))
    expect(before.model).toBe('claude-main')

    expect((await seam('plugin', 'install', 'kit@team-tools')).code).toBe(0)
    await put(join(home, '.claude', 'settings.json'), JSON.stringify({ outputStyle: 'kit:Terse' }))
    const root = join(home, 'seam', 'claude-plugins', 'cache', 'team-tools', 'kit', '1.0.0')
    const running = await oneRequest()
    expect(running.system).toContain('# Output style: kit:Terse\n\nAnswer in at most one sentence, no lists.')
    expect(running.system).toContain(`You review code and never edit it. Notes go to ${root}/notes.`)
    expect([...running.tools].sort()).toEqual(['Grep', 'Read'])
    expect(running.model).toBe('claude-reviewer')

    // A bare style name selects it too; an unknown one is said and the default is used.
    await put(join(home, '.claude', 'settings.json'), JSON.stringify({ outputStyle: 'nope' }))
    const server = await startFakeAnthropic([{ text: 'ok' }])
    let unknown: CliResult
    try {
      unknown = await seam('run', ...flags(server.url), 'hello')
    } finally {
      await server.close()
    }
    expect(unknown.stderr + unknown.stdout).toContain('outputStyle: no output style "nope" (found: kit:Terse, Default, Explanatory, Learning)')
    expect(JSON.stringify(server.requests[0].body)).not.toContain('Output style')

    await put(join(home, '.claude', 'settings.json'), JSON.stringify({ outputStyle: 'terse' }))
    expect((await seam('plugin', 'disable', 'kit@team-tools')).code).toBe(0)
    const after = await oneRequest()
    expect(after.system).not.toContain('Output style')
    expect(after.system).not.toContain('You review code')
    expect(after.tools).toEqual(expect.arrayContaining(['Bash', 'Read', 'Grep', 'Write']))
    expect(after.model).toBe('claude-main')
  }, 120_000)
})
