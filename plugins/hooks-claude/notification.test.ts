// Notification (claude-code-hooks.md §6 table: input `message`, `title`, `notification_type`,
// matcher on `notification_type`) at Claude Code's moments: `permission_prompt` while an
// approval waits, `idle_prompt` when a turn ended and the user sent nothing for the idle time.
// Real hook processes (bash, python, node) on the real loop; the approval answerer is the test's.
import { afterEach, describe, expect, it } from 'vitest'
import { bashThenDone, createHarness, eventually, hookCommand, hooksOf, type Harness } from './test-harness'
import { claudeTranscriptPath } from './transcript'
import { IDLE_PROMPT_MESSAGE, permissionPromptMessage } from './notification'

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

const askFirst = (lang: 'bash' | 'python' | 'node') =>
  ['PreToolUse', 'Bash', hookCommand(lang, { stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'check' } } })] as const

describe('Notification (§6)', () => {
  it('permission_prompt fires while the approval waits, with the common fields in Claude Code\'s order, then message, title, notification_type (python)', async () => {
    let seenWhileWaiting = 0
    h = await createHarness({
      user: { hooks: hooksOf([...askFirst('bash')], ['Notification', 'permission_prompt', hookCommand('python', { record: 'notify.jsonl' })]) },
      script: bashThenDone(),
      setup: (kernel) =>
        kernel.context.on('approval/request', async () => {
          // The user has not answered yet: the hook runs now, not after the answer.
          await eventually(() => h!.records('notify.jsonl').length === 1, 10_000, 'the Notification hook')
          seenWhileWaiting = h!.records('notify.jsonl').length
          return { outcome: 'allowed-once' }
        })
    })
    await h.run('go')
    expect(seenWhileWaiting).toBe(1)
    const [input] = h.records('notify.jsonl')
    expect(input).toEqual({
      session_id: h.log.id,
      transcript_path: claudeTranscriptPath({ sessionId: h.log.id, transcriptPath: h.log.path }),
      cwd: h.workspace,
      prompt_id: 'turn-1',
      hook_event_name: 'Notification',
      message: permissionPromptMessage('Bash'),
      title: 'Seam',
      notification_type: 'permission_prompt'
    })
    expect(Object.keys(input!)).toEqual(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'hook_event_name', 'message', 'title', 'notification_type'])
    expect(input!.message).toBe('Seam needs your permission to use Bash')
    // Recorded where it ran, like every hook.
    expect(h.events('hook/invoked').some((e) => e.event === 'Notification' && e.matcher === 'permission_prompt')).toBe(true)
  })

  it('idle_prompt fires once after the idle time following the turn\'s end; the matcher keeps permission_prompt hooks out (node)', async () => {
    h = await createHarness({
      user: {
        hooks: hooksOf(
          ['Notification', 'idle_prompt', hookCommand('node', { record: 'idle.jsonl' })],
          ['Notification', 'permission_prompt', hookCommand('bash', { record: 'perm.jsonl' })]
        )
      },
      config: { idlePromptSeconds: 1 },
      script: [{ text: 'one' }, { text: 'two' }]
    })
    await h.run('first')
    // A prompt before the idle time is up: no idle_prompt for the first turn.
    await h.run('second')
    await eventually(() => h!.records('idle.jsonl').length >= 1, 10_000, 'idle_prompt')
    await new Promise((resolve) => setTimeout(resolve, 1200))
    const records = h.records('idle.jsonl')
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ hook_event_name: 'Notification', prompt_id: 'turn-2', message: IDLE_PROMPT_MESSAGE, title: 'Seam', notification_type: 'idle_prompt' })
    expect(h.records('perm.jsonl')).toEqual([])
  })

  it('is non-blocking and a failing Notification hook is visible like any hook (exit 1 recorded as an error, the turn unaffected) (bash)', async () => {
    h = await createHarness({
      user: { hooks: hooksOf([...askFirst('node')], ['Notification', undefined, hookCommand('bash', { exit: 1, stderr: 'notifier broke', sleep: 0.2 })]) },
      script: bashThenDone(),
      setup: (kernel) => kernel.context.on('approval/request', async () => ({ outcome: 'allowed-once' }))
    })
    await h.run('go')
    await eventually(() => h!.events('hook/result').some((e) => e.event === 'Notification'), 10_000, 'the Notification result')
    expect(h.events('hook/result').find((e) => e.event === 'Notification')).toMatchObject({ exitCode: 1, failureKind: 'nonzero_exit', outcomeKind: 'error' })
    expect(h.events('tool/result')[0]).toMatchObject({ content: 'ran', isError: false })
    expect(h.events('turn/end')[0]).toMatchObject({ reason: 'completed' })
  })
})
