// Skills on the real host (base profile, session store on disk) against the loopback
// OpenAI-protocol model server: what the model is told (the listing as a system reminder, the Skill
// tool), the model calling Skill and the body arriving with its substitutions, allowed-tools,
// trust-gated shell lines, and re-attachment after a compaction (issue 29).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import type { SessionEvent } from '@seam/sdk'
import { LISTING_HEADER } from './listing'
import { messageTexts, skillFile, startSkillsHost, type SkillsHost } from './test-host'

let host: SkillsHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

const DEPLOY = skillFile(
  'description: Deploy the app to an environment\nwhen_to_use: when the user asks to ship\nargument-hint: <env> [region]\nallowed-tools: Bash(echo:*)',
  '# Deploy\n\nDeploy to $0 in region $1 (all: $ARGUMENTS).\nScripts: ${CLAUDE_SKILL_DIR}/scripts, session ${CLAUDE_SESSION_ID}, project ${CLAUDE_PROJECT_DIR}.\n'
)

type Reply = { text: string } | { toolCalls: Array<{ name: string; args: Record<string, unknown> }> }

/** Calls `calls` in order, one per request that does not summarise; then answers `done`. */
function script(calls: Array<{ name: string; args: Record<string, unknown> }>, summary = 'SUMMARY: the user deployed') {
  let next = 0
  return Array.from({ length: 20 }, () => (body: OpenAIRequestBody): Reply => {
    if (JSON.stringify(body.messages.at(-1)).includes('summar')) return { text: summary }
    const call = calls[next++]
    return call ? { toolCalls: [call] } : { text: 'done' }
  })
}

async function run(h: SkillsHost, prompt: string): Promise<{ id: string; events: SessionEvent[]; agent: Awaited<ReturnType<SkillsHost['runtime']['sessions']['create']>>['agent'] }> {
  const session = await h.runtime.sessions.create(h.workspace)
  session.agent.send(prompt)
  await session.agent.whenIdle()
  return { id: session.log.id, events: [...session.log.events], agent: session.agent }
}

describe('skills on the agent loop (issue 29)', () => {
  it('lists names and descriptions only, as a system reminder; the model calls Skill {skill, args}; the result is "Launching skill: deploy" and the substituted body follows as one message', async () => {
    host = await startSkillsHost({
      files: {
        'ws/.claude/skills/deploy/SKILL.md': DEPLOY,
        'ws/.claude/skills/deploy/reference.md': 'SUPPORTING FILE TEXT',
        '~/.claude/skills/notes/SKILL.md': skillFile('description: Take meeting notes', 'Write notes.'),
        'ws/.agents/skills/lint/SKILL.md': skillFile('name: lint\ndescription: Lint the code', 'Run the linter.'),
        'ws/.claude/skills/secret/SKILL.md': skillFile('description: Only for people\ndisable-model-invocation: true', 'SECRET BODY')
      },
      script: script([{ name: 'Skill', args: { skill: 'deploy', args: 'staging "eu west"' } }])
    })
    const { id, events } = await run(host, 'ship it')
    const [first, second] = host.model.requests.map((r) => r.body)
    expect(first.tools?.map((t) => t.function.name)).toContain('Skill')
    const skillSpec = first.tools!.find((t) => t.function.name === 'Skill')!.function
    expect(Object.keys((skillSpec.parameters as { properties: object }).properties)).toEqual(['skill', 'args'])
    expect((skillSpec.parameters as { required: string[] }).required).toEqual(['skill'])
    const told = messageTexts(first, 'user').join('\n')
    expect(told).toContain(`<system-reminder>\n${LISTING_HEADER}\n\n- deploy: Deploy the app to an environment - when the user asks to ship\n- lint: Lint the code\n- notes: Take meeting notes\n</system-reminder>`)
    expect(told).not.toContain('secret')
    expect(JSON.stringify(first)).not.toContain('Deploy to $0')
    const dir = join(host.workspace, '.claude', 'skills', 'deploy')
    const toolMessage = second.messages.find((m) => m.role === 'tool')
    expect(toolMessage?.content).toBe('Launching skill: deploy')
    const after = messageTexts(second, 'user').at(-1)!
    expect(after).toBe(
      `<command-name>/deploy</command-name>\n<command-args>staging "eu west"</command-args>\nBase directory for this skill: ${dir}\n\n# Deploy\n\nDeploy to staging in region eu west (all: staging "eu west").\nScripts: ${dir}/scripts, session ${id}, project ${host.workspace}.\n`
    )
    expect(JSON.stringify(second)).not.toContain('SUPPORTING FILE TEXT')
    const loaded = events.filter((e) => e.type === 'skill/loaded')
    expect(loaded).toMatchObject([{ skill: 'deploy', trigger: 'model', args: 'staging "eu west"', file: join(dir, 'SKILL.md') }])
    // The body stays: the next turn's request still has it.
    expect(events.findIndex((e) => e.type === 'skill/loaded')).toBeGreaterThan(events.findIndex((e) => e.type === 'tool/result'))
  })

  it('an unknown skill and a disable-model-invocation skill are refused with a clear result; an identical re-invocation only gets a note', async () => {
    host = await startSkillsHost({
      files: {
        'ws/.claude/skills/deploy/SKILL.md': DEPLOY,
        'ws/.claude/skills/secret/SKILL.md': skillFile('disable-model-invocation: true', 'SECRET BODY')
      },
      script: script([
        { name: 'Skill', args: { skill: 'nope' } },
        { name: 'Skill', args: { skill: 'secret' } },
        { name: 'Skill', args: { skill: 'deploy', args: 'prod' } },
        { name: 'Skill', args: { skill: 'deploy', args: 'prod' } }
      ])
    })
    const { events } = await run(host, 'go')
    const results = events.flatMap((e) => (e.type === 'tool/result' ? [[e.isError, e.content]] : []))
    expect(results[0]).toEqual([true, 'Unknown skill: nope'])
    expect(results[1][0]).toBe(true)
    expect(results[1][1]).toContain('disable-model-invocation')
    expect(results[2]).toEqual([false, 'Launching skill: deploy'])
    expect(results[3][1]).toContain('already loaded')
    expect(events.filter((e) => e.type === 'skill/loaded')).toHaveLength(1)
    expect(JSON.stringify(host.model.requests.map((r) => r.body))).not.toContain('SECRET BODY')
  })

  it('allowed-tools pre-approves the skill\'s tools for the rest of the turn (the policy names the skill)', async () => {
    host = await startSkillsHost({
      files: { 'ws/.claude/skills/deploy/SKILL.md': DEPLOY },
      script: script([
        { name: 'Skill', args: { skill: 'deploy', args: 'prod' } },
        { name: 'Bash', args: { command: 'echo shipped' } }
      ])
    })
    const { events } = await run(host, 'go')
    const bash = events.find((e) => e.type === 'tool/result' && e.name === 'Bash')
    expect(bash).toMatchObject({ isError: false, verdict: { outcome: 'allowed', reason: 'allowed by skill deploy\'s allowed-tools "Bash(echo:*)"' } })
    expect(events.some((e) => e.type === 'approval/asked')).toBe(false)
  })

  it('!`cmd` lines run in a trusted workspace and their output replaces them; in an untrusted one nothing runs and the call fails saying why', async () => {
    const files = { 'ws/.claude/skills/state/SKILL.md': skillFile('description: Branch state', 'State: !`echo ran > marker.txt && echo on-$0`\n') }
    host = await startSkillsHost({ files, script: script([{ name: 'Skill', args: { skill: 'state', args: 'main' } }]) })
    let { events } = await run(host, 'state?')
    expect(events.find((e) => e.type === 'skill/loaded')).toMatchObject({ text: expect.stringContaining('State: on-main') })
    expect(existsSync(join(host.workspace, 'marker.txt'))).toBe(true)
    await host.close()
    host = await startSkillsHost({ files, trusted: false, script: script([{ name: 'Skill', args: { skill: 'state', args: 'main' } }]) })
    ;({ events } = await run(host, 'state?'))
    const result = events.find((e) => e.type === 'tool/result')
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('needs a trusted workspace') })
    expect(existsSync(join(host.workspace, 'marker.txt'))).toBe(false)
    expect(events.some((e) => e.type === 'skill/loaded')).toBe(false)
  })

  it('after a compaction the most recent invocation of each skill is re-attached (first 5,000 tokens), after the summary, and the listing is told again', async () => {
    const big = `BIG START ${'x'.repeat(30_000)} BIG END`
    host = await startSkillsHost({
      files: { 'ws/.claude/skills/deploy/SKILL.md': DEPLOY, '~/.claude/skills/big/SKILL.md': skillFile('description: A long one', big) },
      script: script([
        { name: 'Skill', args: { skill: 'deploy', args: 'prod' } },
        { name: 'Skill', args: { skill: 'big' } }
      ])
    })
    const { agent } = await run(host, 'go')
    const outcome = await agent.compact()
    expect(outcome.compacted).toBe(true)
    agent.send('and now?')
    await agent.whenIdle()
    const last = host.model.requests.at(-1)!.body
    const users = messageTexts(last, 'user').join('\n')
    expect(users.indexOf('SUMMARY: the user deployed')).toBeGreaterThanOrEqual(0)
    expect(users.indexOf('<command-name>/deploy</command-name>')).toBeGreaterThan(users.indexOf('SUMMARY'))
    expect(users).toContain('Deploy to prod in region')
    expect(users).toContain('BIG START')
    expect(users).not.toContain('BIG END')
    expect(users).toContain('The rest of this skill was cut when the conversation was compacted')
    expect(users).toContain(LISTING_HEADER)
    const reattached = agent.handle.events.filter((e) => e.type === 'skill/loaded' && e.trigger === 'compact')
    expect(reattached.map((e) => (e.type === 'skill/loaded' ? e.skill : ''))).toEqual(['deploy', 'big'])
    expect(reattached.every((e) => e.type === 'skill/loaded' && e.text.length <= 5_000 * 4 + 200)).toBe(true)
  })
})
