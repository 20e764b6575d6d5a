// UserPromptExpansion (claude-code-hooks.md §6 UserPromptExpansion): fired for a custom slash
// command after UserPromptSubmit, with expansion_type, command_name, command_args,
// command_source and prompt (the unexpanded text); its context follows the expansion and a
// block keeps the command from the model.
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, hookCommand, hooksOf, userTexts, type Harness } from './test-harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

const review = { content: 'Review change 12 carefully.', command: { name: 'review', args: '12', source: 'project' as const } }

async function sendCommand(harness: Harness): Promise<void> {
  harness.agent.send('/review 12', 'user', review)
  await harness.agent.whenIdle()
}

describe('UserPromptExpansion (§6)', () => {
  it('fires after UserPromptSubmit with the command fields and the unexpanded prompt; the model gets the expansion', async () => {
    h = await createHarness({
      user: {
        hooks: hooksOf(
          ['UserPromptSubmit', undefined, hookCommand('bash', { record: 'events.jsonl' })],
          ['UserPromptExpansion', undefined, hookCommand('node', { record: 'events.jsonl', stdout: { hookSpecificOutput: { hookEventName: 'UserPromptExpansion', additionalContext: 'expansion note' } } })]
        )
      },
      script: [{ text: 'ok' }]
    })
    await sendCommand(h)
    const records = h.records('events.jsonl')
    expect(records.map((r) => r.hook_event_name)).toEqual(['UserPromptSubmit', 'UserPromptExpansion'])
    expect(records[0].prompt).toBe('/review 12')
    expect(records[1]).toMatchObject({
      session_id: h.log.id,
      cwd: h.workspace,
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'review',
      command_args: '12',
      command_source: 'projectSettings',
      prompt: '/review 12'
    })
    const texts = userTexts(h.model, 0)
    expect(texts).toContain('Review change 12 carefully.')
    expect(texts).toContain('UserPromptExpansion hook additional context: expansion note')
    expect(texts).not.toContain('/review 12')
    expect(h.events('user/message')[0]).toMatchObject({ content: 'Review change 12 carefully.', originalContent: '/review 12', command: review.command })
  })

  it('exit 2 blocks the command: prompt/blocked with the hook stderr, no model request', async () => {
    h = await createHarness({
      user: { hooks: hooksOf(['UserPromptExpansion', undefined, hookCommand('bash', { exit: 2, stderr: 'not this command' })]) },
      script: [{ text: 'never' }]
    })
    await sendCommand(h)
    expect(h.model.requests).toHaveLength(0)
    const blocked = h.events('prompt/blocked')
    expect(blocked).toHaveLength(1)
    expect(blocked[0]).toMatchObject({ prompt: '/review 12', by: 'hook:UserPromptExpansion' })
    expect(blocked[0].reason).toContain('UserPromptExpansion operation blocked by hook:')
    expect(blocked[0].reason).toContain('not this command')
  })
})
