// The front-matter fields a loaded skill acts on beyond its message (issue 29), on the real host
// (base profile, the Claude Code hooks bridge, real hook processes) against the loopback
// OpenAI-protocol model server: `model` and `effort` for the rest of the turn, `disallowed-tools`
// while the skill is active, `hooks` registered for the session with `once` honoured, and
// workspace skills' hooks held back until the workspace is trusted.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import type { SessionEvent } from '@seam/sdk'
import { skillFile, startSkillsHost, type SkillsHost } from './test-host'

let host: SkillsHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

type Call = { name: string; args: Record<string, unknown> }

/** Calls `calls` in order, one per request (`null`: answer `done`, ending the turn); then answers `done` to every later request. */
function script(calls: Array<Call | null>) {
  let next = 0
  return Array.from({ length: 20 }, () => (_body: OpenAIRequestBody) => {
    const call = calls[next++]
    return call ? { toolCalls: [call] } : { text: 'done' }
  })
}

async function session(h: SkillsHost) {
  const created = await h.runtime.sessions.create(h.workspace)
  return {
    agent: created.agent,
    async turn(prompt: string): Promise<void> {
      created.agent.send(prompt)
      await created.agent.whenIdle()
    },
    events: (): SessionEvent[] => [...created.log.events]
  }
}

const toolNames = (body: OpenAIRequestBody): string[] => (body.tools ?? []).map((t) => t.function.name)

describe('skill front-matter fields on the agent loop (issue 29)', () => {
  it('model and effort: the requests after the Skill call use the skill\'s model and effort, hooks and ${CLAUDE_EFFORT} see that effort; the next turn is back on the session\'s', async () => {
    const hooks = 'hooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: echo "$CLAUDE_EFFORT $(cat)" >> "$CLAUDE_PROJECT_DIR/effort.log"'
    host = await startSkillsHost({
      files: { '~/.claude/skills/think/SKILL.md': skillFile(`description: Think hard\nmodel: deep-model\neffort: max\n${hooks}`, 'Think it through at ${CLAUDE_EFFORT} effort.') },
      script: script([{ name: 'Skill', args: { skill: 'think' } }, { name: 'Read', args: { file_path: 'none.txt' } }])
    })
    const s = await session(host)
    await s.turn('think')
    await s.turn('again')
    const bodies = host.model.requests.map((r) => r.body)
    expect(bodies.map((b) => [b.model, b.reasoning_effort])).toEqual([
      ['m', undefined],
      // OpenAI's reasoning_effort has no "max": its highest level stands for it.
      ['deep-model', 'xhigh'],
      ['deep-model', 'xhigh'],
      ['m', undefined]
    ])
    expect(s.events().filter((e) => e.type === 'usage/step').map((e) => (e.type === 'usage/step' ? e.model : ''))).toEqual(['m', 'deep-model', 'deep-model', 'm'])
    expect(s.events().find((e) => e.type === 'skill/loaded')).toMatchObject({ text: expect.stringContaining('Think it through at max effort.') })
    const [line] = readFileSync(join(host.workspace, 'effort.log'), 'utf8').trim().split('\n')
    const [env, ...input] = line.split(' ')
    expect(env).toBe('max')
    expect(JSON.parse(input.join(' '))).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Read', effort: { level: 'max' } })
  })

  it('disallowed-tools: a bare rule takes the tool off the list and refuses a call to it, a Tool(specifier) rule refuses the calls it matches, until the turn ends', async () => {
    host = await startSkillsHost({
      files: { '~/.claude/skills/careful/SKILL.md': skillFile('description: Careful mode\ndisallowed-tools: Write, Bash(rm *)', 'Be careful.') },
      script: script([
        { name: 'Skill', args: { skill: 'careful' } },
        { name: 'Write', args: { file_path: 'w.txt', content: 'x' } },
        { name: 'Bash', args: { command: 'rm -f keep.txt' } },
        { name: 'Bash', args: { command: 'echo fine' } }
      ])
    })
    const s = await session(host)
    await s.turn('be careful')
    const bodies = host.model.requests.map((r) => r.body)
    expect(toolNames(bodies[0])).toContain('Write')
    expect(toolNames(bodies[1])).not.toContain('Write')
    expect(toolNames(bodies[1])).toContain('Bash')
    const results = s.events().flatMap((e) => (e.type === 'tool/result' ? [e] : []))
    expect(results.map((r) => [r.name, r.isError])).toEqual([
      ['Skill', false],
      ['Write', true],
      ['Bash', true],
      ['Bash', false]
    ])
    // Claude Code's answer to a call of a tool it does not offer.
    expect(results[1].content).toBe('No such tool available: Write')
    expect(results[2].content).toContain('Bash is not allowed while skill careful is active (its disallowed-tools: Bash(rm *))')
    expect(existsSync(join(host.workspace, 'w.txt'))).toBe(false)
    await s.turn('next')
    expect(toolNames(host.model.requests.at(-1)!.body)).toContain('Write')
  })

  it('hooks: registered for the session once the skill is invoked (real hook processes), a once: true handler runs a single time, and the later turns of the session keep the others', async () => {
    const hooks = [
      'hooks:',
      '  PreToolUse:',
      '    - matcher: Bash',
      '      hooks:',
      '        - type: command',
      '          command: echo each >> "$CLAUDE_PROJECT_DIR/each.log"',
      '        - type: command',
      '          command: echo once >> "$CLAUDE_PROJECT_DIR/once.log"',
      '          once: true'
    ].join('\n')
    host = await startSkillsHost({
      files: { '~/.claude/skills/audited/SKILL.md': skillFile(`description: Audited shell\n${hooks}`, 'Audit every command.') },
      script: script([
        { name: 'Bash', args: { command: 'echo before' } },
        { name: 'Skill', args: { skill: 'audited' } },
        { name: 'Bash', args: { command: 'echo one' } },
        { name: 'Bash', args: { command: 'echo two' } },
        null,
        { name: 'Bash', args: { command: 'echo three' } }
      ])
    })
    const s = await session(host)
    await s.turn('go')
    await s.turn('once more')
    const lines = (file: string) => (existsSync(join(host!.workspace, file)) ? readFileSync(join(host!.workspace, file), 'utf8').trim().split('\n') : [])
    // The Bash call before the skill ran no skill hook; the three after it (two turns) each ran the plain one, the once one ran once.
    expect(lines('each.log')).toEqual(['each', 'each', 'each'])
    expect(lines('once.log')).toEqual(['once'])
    const invoked = s.events().filter((e) => e.type === 'hook/invoked')
    expect(invoked.every((e) => e.type === 'hook/invoked' && e.sourceFile.endsWith(join('audited', 'SKILL.md')))).toBe(true)
    expect(invoked).toHaveLength(4)
  })

  it('hooks of a workspace skill do not register in an untrusted workspace, and a notice says why', async () => {
    const hooks = 'hooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: echo ran >> "$CLAUDE_PROJECT_DIR/ran.log"'
    host = await startSkillsHost({
      trusted: false,
      files: { 'ws/.claude/skills/audited/SKILL.md': skillFile(`description: Audited\n${hooks}`, 'Audit.') },
      script: script([
        { name: 'Skill', args: { skill: 'audited' } },
        { name: 'Read', args: { file_path: 'nothing.txt' } }
      ])
    })
    const s = await session(host)
    await s.turn('go')
    expect(existsSync(join(host.workspace, 'ran.log'))).toBe(false)
    expect(s.events().some((e) => e.type === 'hook/invoked')).toBe(false)
    expect(s.events()).toContainEqual(expect.objectContaining({ type: 'notice', text: expect.stringContaining('skill audited: its hooks are not registered') }))
  })

  it('a hooks field with a bad handler is reported naming the field, and nothing of it runs', async () => {
    const hooks = 'hooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: echo x >> "$CLAUDE_PROJECT_DIR/x.log"\n          timeout: soon'
    host = await startSkillsHost({
      files: { '~/.claude/skills/broken/SKILL.md': skillFile(`description: Broken hooks\n${hooks}`, 'Body.') },
      script: script([
        { name: 'Skill', args: { skill: 'broken' } },
        { name: 'Read', args: { file_path: 'nothing.txt' } }
      ])
    })
    const s = await session(host)
    await s.turn('go')
    expect(existsSync(join(host.workspace, 'x.log'))).toBe(false)
    const notice = s.events().find((e) => e.type === 'notice' && e.text.startsWith('skill broken:'))
    expect(notice).toMatchObject({ text: expect.stringContaining('hooks.PreToolUse[0].hooks[0].timeout') })
  })
})
