// `context: fork` with a real subagent (issue 29): on the real host (base profile, the subagents
// plugin's service) against the loopback OpenAI-protocol server, a skill the model invokes with the
// Skill tool runs as a subagent of its `agent` type (a custom agent of the workspace): the child's
// request carries that agent's system prompt, the skill's rendered body as its task and the skill's
// `model`; the child's answer returns as the Skill call's result; the parent's history never gets
// the body.
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
})
