// `context: fork` with a real subagent (issue 29): on the real host (base profile, the subagents
// plugin's service) against the loopback OpenAI-protocol server, a skill the model invokes with the
// Skill tool runs as a subagent of its `agent` type (a custom agent of the workspace): the child's
// request carries that agent's system prompt, the skill's rendered body as its task and the skill's
// `model`; the child's answer returns as the Skill call's result; the parent's history never gets
// the body.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { messageTexts, skillFile, startSkillsHost, type SkillsHost } from './test-host'

let host: SkillsHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

const AUDIT = skillFile(
  'description: Audit a module for security problems\ncontext: fork\nagent: auditor\nmodel: child-model',
  'AUDIT TASK: audit the module $0 and report findings.\n'
)
const AUDITOR = '---\nname: auditor\ndescription: Audits code for security problems\ntools: Read, Grep\n---\nYOU ARE THE AUDITOR AGENT. Report findings tersely.\n'

const isChild = (body: OpenAIRequestBody) => JSON.stringify(body.messages).includes('AUDIT TASK')

describe('skills: context: fork runs as a real subagent (issue 29)', () => {
  it('the Skill tool runs the skill as its agent type, with the skill model; the child answer is the tool result', async () => {
    let parentCalls = 0
    host = await startSkillsHost({
      files: { 'ws/.claude/skills/audit/SKILL.md': AUDIT, 'ws/.claude/agents/auditor.md': AUDITOR },
      script: Array.from({ length: 10 }, () => (body: OpenAIRequestBody) => {
        if (isChild(body) && messageTexts(body, 'system').join('\n').includes('YOU ARE THE AUDITOR AGENT')) return { text: 'CHILD FINDINGS: no problems in auth.ts' }
        parentCalls++
        return parentCalls === 1 ? { toolCalls: [{ name: 'Skill', args: { skill: 'audit', args: 'auth.ts' } }] } : { text: 'parent done' }
      })
    })
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('audit auth.ts')
    await session.agent.whenIdle()
    const bodies = host.model.requests.map((r) => r.body)
    const child = bodies.find(isChild)
    expect(child, 'a request for the subagent').toBeDefined()
    expect(messageTexts(child!, 'system').join('\n')).toContain('YOU ARE THE AUDITOR AGENT')
    expect(messageTexts(child!, 'user').join('\n')).toContain('AUDIT TASK: audit the module auth.ts and report findings.')
    expect(child!.model).toBe('child-model')
    // The agent type's tools, not the parent's.
    expect(child!.tools?.map((t) => t.function.name).sort()).toEqual(['Grep', 'Read'])

    const last = bodies.at(-1)!
    expect(last.model).toBe('m')
    const toolMessage = last.messages.find((m) => m.role === 'tool')
    expect(JSON.stringify(toolMessage)).toContain('CHILD FINDINGS: no problems in auth.ts')
    // The parent's conversation has the child's answer, not the skill's body.
    expect(JSON.stringify(last.messages)).not.toContain('AUDIT TASK')
    const events = session.log.events
    expect(events.some((e) => e.type === 'skill/loaded')).toBe(false)
    expect(session.agent.state.running).toBe(false)
  })

  it("the skill's effort, disallowed-tools and hooks act on the subagent that runs it (and only while it runs), as they act on a turn that loads it", async () => {
    const guarded = skillFile(
      [
        'description: Tidy the module',
        'context: fork',
        'agent: tidier',
        'effort: high',
        'disallowed-tools: Grep, Bash(rm:*)',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        '          command: \'cat >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/pre.jsonl"\''
      ].join('\n'),
      'TIDY TASK: tidy $0.\n'
    )
    const tidier = '---\nname: tidier\ndescription: Tidies code\ntools: Read, Grep, Bash\n---\nYOU ARE THE TIDIER AGENT.\n'
    const isTidier = (body: OpenAIRequestBody) => messageTexts(body, 'system').join('\n').includes('YOU ARE THE TIDIER AGENT')
    host = await startSkillsHost({
      files: { 'ws/.claude/skills/tidy/SKILL.md': guarded, 'ws/.claude/agents/tidier.md': tidier },
      script: Array.from({ length: 10 }, () => (body: OpenAIRequestBody) => {
        const step = body.messages.filter((m) => m.role === 'assistant').length
        if (isTidier(body)) {
          return step === 0 ? { toolCalls: [{ name: 'Bash', args: { command: 'echo CHILD-ECHO' } }, { name: 'Bash', args: { command: 'rm -f CHILD-RM.txt' } }] } : { text: 'TIDY DONE' }
        }
        if (step === 0) return { toolCalls: [{ name: 'Skill', args: { skill: 'tidy', args: 'auth.ts' } }] }
        // The session's own Bash after the skill's subagent ended: the skill's hook no longer runs, nor do its rules hold.
        if (step === 1) return { toolCalls: [{ name: 'Bash', args: { command: 'rm -f PARENT-RM.txt' } }] }
        return { text: 'parent done' }
      })
    })
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('tidy auth.ts')
    await session.agent.whenIdle()
    const bodies = host.model.requests.map((r) => r.body)
    const childBodies = bodies.filter(isTidier)
    expect(childBodies).toHaveLength(2)

    // effort: the subagent's requests carry it; the session's do not.
    expect(childBodies.map((body) => body.reasoning_effort)).toEqual(['high', 'high'])
    expect(bodies.filter((body) => !isTidier(body)).map((body) => body.reasoning_effort)).toEqual([undefined, undefined, undefined])

    // disallowed-tools: a bare Grep is not offered; Bash(rm:*) refuses the matching call only.
    expect(childBodies[0]!.tools?.map((t) => t.function.name).sort()).toEqual(['Bash', 'Read'])
    const childResults = childBodies[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content))
    expect(childResults[0]).toContain('CHILD-ECHO')
    expect(childResults[1]).toContain('Bash is not allowed for this subagent')
    expect(childResults[1]).toContain('Bash(rm:*)')
    const parentRm = bodies.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)).at(-1)
    expect(parentRm).not.toContain('not allowed')

    // hooks: the skill's PreToolUse ran for the subagent's Bash calls (with its agent_id), not for the session's.
    const preFile = join(host.workspace, 'pre.jsonl')
    expect(existsSync(preFile)).toBe(true)
    const inputs = readFileSync(preFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { tool_input: { command: string }; agent_id?: string; agent_type?: string })
    expect(inputs.length).toBeGreaterThan(0)
    expect(inputs.every((input) => input.agent_type === 'tidier' && typeof input.agent_id === 'string')).toBe(true)
    expect(inputs.map((input) => input.tool_input.command)).toContain('echo CHILD-ECHO')
    expect(inputs.map((input) => input.tool_input.command)).not.toContain('rm -f PARENT-RM.txt')
  })
})
