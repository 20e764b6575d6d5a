// Skills through the built CLI as a real process (issue 29): `seam skills` lists them with their
// source, skipped files (file and field) and clashes; `seam run "/name args"` sends the skill's
// message (substituted, the skill winning over a command file of the same name) to a loopback
// server speaking the Anthropic protocol; the model calling Skill gets the body in the next request.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliScratch } from '../../test-support/built-cli'
import { put, skillFile } from '../../plugins/skills/test-host'

let dirs: CliScratch
useCliScratch('skills', (ready) => {
  dirs = ready
})

const seam = (args: string[]) => runSeamHeadless(args, { cwd: dirs.workspace, home: dirs.home, env: { CODEX_HOME: join(dirs.home, '.codex') } })

type Body = { model: string; messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: unknown }> | string }> }
const texts = (body: unknown, role: string): string[] =>
  (body as Body).messages.filter((m) => m.role === role).map((m) => (typeof m.content === 'string' ? m.content : m.content.map((c) => c.text ?? (typeof c.content === 'string' ? c.content : JSON.stringify(c.content ?? ''))).join('')))

async function writeSkills(): Promise<void> {
  await put(join(dirs.workspace, '.claude', 'skills', 'review', 'SKILL.md'), skillFile('description: Review a change\nargument-hint: <pr> [focus]', 'Review PR #$0 focusing on $1 in ${CLAUDE_PROJECT_DIR}.\n'))
  await put(join(dirs.workspace, '.claude', 'commands', 'review.md'), '---\ndescription: the command file\n---\nCOMMAND FILE BODY\n')
  await put(join(dirs.home, '.claude', 'skills', 'notes', 'SKILL.md'), skillFile('description: Take notes\nuser-invocable: false', 'Notes body.'))
  await put(join(dirs.home, '.agents', 'skills', 'manual', 'SKILL.md'), skillFile('description: Only by hand\ndisable-model-invocation: true', 'Manual body.'))
  await put(join(dirs.workspace, '.claude', 'skills', 'broken', 'SKILL.md'), skillFile('allowed-tools: 42', 'x'))
}

describe('seam skills and skills in seam run (issue 29)', () => {
  it('seam skills lists each skill with its source and who may invoke it, the skipped file with its field, and the command file the skill shadows', async () => {
    await writeSkills()
    const result = await seam(['skills', '--workspace', dirs.workspace])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`/manual  user ~/.agents/skills  (user only)\n  Only by hand\n  ${join(dirs.home, '.agents', 'skills', 'manual', 'SKILL.md')}`)
    expect(result.stdout).toContain('/notes  personal ~/.claude/skills  (model only)')
    expect(result.stdout).toContain(`/review <pr> [focus]  project .claude/skills\n  Review a change`)
    expect(result.stdout).toContain(`skipped: broken: ${join(dirs.workspace, '.claude', 'skills', 'broken', 'SKILL.md')}: front matter field "allowed-tools"`)
    expect(result.stdout).toContain(`note: /review: the skill ${join(dirs.workspace, '.claude', 'skills', 'review', 'SKILL.md')} is used; the project command ${join(dirs.workspace, '.claude', 'commands', 'review.md')} is ignored`)
    const json = await seam(['skills', '--workspace', dirs.workspace, '--json'])
    const lines = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.filter((l) => l.type === 'skill').map((l) => [l.name, l.origin])).toEqual([
      ['review', 'project .claude/skills'],
      ['manual', 'user ~/.agents/skills'],
      ['notes', 'personal ~/.claude/skills']
    ].sort((a, b) => a[0].localeCompare(b[0])))
  })

  it('seam run "/review 42 tests" sends the skill (not the command file) as the user message, substituted; a model-only skill typed is refused', async () => {
    await writeSkills()
    const server = await startFakeAnthropic([{ text: 'reviewed' }])
    try {
      const flags = ['--workspace', dirs.workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main']
      const result = await seam(['run', ...flags, '/review 42 tests'])
      expect(result.stderr).not.toContain('error')
      expect(result.code).toBe(0)
      const dir = join(dirs.workspace, '.claude', 'skills', 'review')
      // The listing (a system reminder) and the skill's message are consecutive user-side text, sent as one user message.
      expect(texts(server.requests[0].body, 'user').at(-1)!.split('</system-reminder>\n\n').at(-1)).toBe(
        `<command-name>/review</command-name>\n<command-args>42 tests</command-args>\nBase directory for this skill: ${dir}\n\nReview PR #42 focusing on tests in ${dirs.workspace}.\n`
      )
      const refused = await seam(['run', ...flags, '/notes'])
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('/notes can only be used by the model (user-invocable: false')
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('the model calls Skill: the next request has "Launching skill: review" as the tool result and the skill\'s message after it', async () => {
    await writeSkills()
    const server = await startFakeAnthropic([{ toolCalls: [{ name: 'Skill', args: { skill: 'review', args: '7 speed' } }] }, { text: 'done' }])
    try {
      const result = await seam(['run', '--workspace', dirs.workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', 'review PR 7'])
      expect(result.code).toBe(0)
      const first = server.requests[0].body as { tools: Array<{ name: string }> }
      expect(first.tools.map((t) => t.name)).toContain('Skill')
      expect(texts(first, 'user').join('\n')).toContain('- review: Review a change')
      const second = texts(server.requests[1].body, 'user').join('\n')
      expect(second).toContain('Launching skill: review')
      expect(second).toContain('<command-name>/review</command-name>\n<command-args>7 speed</command-args>')
      expect(second).toContain('Review PR #7 focusing on speed')
    } finally {
      await server.close()
    }
  })

  it('seam run "/careful": the turn runs on the skill\'s model and effort, without its disallowed tools, with its hooks registered (a real hook process); the next run is back on the defaults', async () => {
    const hooks = 'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo "$CLAUDE_PROJECT_DIR" >> "$HOME/hook-ran.log"'
    await put(
      join(dirs.home, '.claude', 'skills', 'careful', 'SKILL.md'),
      skillFile(`description: Careful\nmodel: claude-deep\neffort: high\ndisallowed-tools: Write\nallowed-tools: Bash(echo *)\n${hooks}`, 'Be careful.')
    )
    const server = await startFakeAnthropic([{ toolCalls: [{ name: 'Bash', args: { command: 'echo hi' } }] }, { text: 'done' }, { text: 'plain' }])
    try {
      const flags = ['--workspace', dirs.workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main']
      const result = await seam(['run', ...flags, '/careful'])
      expect(result.code).toBe(0)
      const bodies = server.requests.map((r) => r.body as { model: string; output_config?: { effort: string }; tools: Array<{ name: string }> })
      expect(bodies.map((b) => [b.model, b.output_config?.effort])).toEqual([
        ['claude-deep', 'high'],
        ['claude-deep', 'high']
      ])
      expect(bodies[0].tools.map((t) => t.name)).toContain('Bash')
      expect(bodies[0].tools.map((t) => t.name)).not.toContain('Write')
      const log = join(dirs.home, 'hook-ran.log')
      expect(existsSync(log) ? readFileSync(log, 'utf8').trim() : '').toBe(dirs.workspace)
      const plain = await seam(['run', ...flags, 'hello'])
      expect(plain.code).toBe(0)
      const last = server.requests.at(-1)!.body as { model: string; output_config?: unknown; tools: Array<{ name: string }> }
      expect(last.model).toBe('claude-main')
      expect(last).not.toHaveProperty('output_config')
      expect(last.tools.map((t) => t.name)).toContain('Write')
    } finally {
      await server.close()
    }
  })
})
