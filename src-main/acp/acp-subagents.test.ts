// `seam acp` end to end, subagents (issue 27): the Agent call is a `think` tool call that goes
// in_progress with the subagent named in `_meta.seam.subagent`, carries the subagent's latest
// steps as progress content while it works, and completes with its final text. A call the
// subagent asks about reaches the editor as its own card, titled with the subagent that asks,
// `_meta.seam.agent` on the permission request. Driven with the SDK's client side over stdio
// against the built CLI (acp-fixture.ts).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import type { OpenAIRequestBody, OpenAIScript } from '../../test-support/fake-openai.mjs'
import { waitFor } from '../process/liveness'
import { agent, connect, providerArgs, setup, textOf, updatesOf, useAcpFixture } from './acp-fixture'

useAcpFixture()

type ToolCallUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }>

describe('subagents over ACP', () => {
  it('an Agent call is a think tool call with progress updates from the subagent, its ask names it, and it completes with the final text', async () => {
    const script: OpenAIScript = [
      { toolCalls: [{ id: 'c1', name: 'Agent', args: { description: 'Write a note', prompt: 'Write note.txt', subagent_type: 'general-purpose' } }] },
      { text: 'Writing the note now.', toolCalls: [{ id: 'w1', name: 'Write', args: { file_path: 'note.txt', content: 'from the subagent\n' } }] },
      { text: 'Wrote note.txt.' },
      { text: 'The subagent wrote the note.' }
    ]
    const s = await setup(script)
    const asked: acp.RequestPermissionRequest[] = []
    const proc = agent(s, providerArgs(s), {
      permission: (params) => {
        asked.push(params)
        return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } }
      }
    })
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const response = await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'delegate the note' }] })
    expect(response.stopReason).toBe('end_turn')
    expect(await readFile(join(s.workspace, 'note.txt'), 'utf8')).toBe('from the subagent\n')

    const updates = updatesOf(proc, sessionId)
    const forAgent = updates.filter((u) => (u as { toolCallId?: string }).toolCallId === 'turn-1/c1')
    expect(forAgent[0]).toMatchObject({ sessionUpdate: 'tool_call', kind: 'think', title: 'general-purpose: Write a note', status: 'pending' })
    const started = forAgent.find((u) => u.sessionUpdate === 'tool_call_update' && u._meta) as ToolCallUpdate
    expect(started).toMatchObject({ status: 'in_progress', kind: 'think', _meta: { seam: { subagent: { agentType: 'general-purpose', description: 'Write a note' } } } })
    const agentId = (started._meta as { seam: { subagent: { agentId: string } } }).seam.subagent.agentId

    // Progress: the subagent's text and its Write, then the Write marked done, then its last words.
    const progress = forAgent
      .filter((u): u is ToolCallUpdate => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress' && u.content !== undefined && u.content !== null)
      .map((u) => ((u.content![0] as { content: { text: string } }).content.text))
    expect(progress).toContain('Writing the note now.\n… Write note.txt')
    expect(progress).toContain('Writing the note now.\n✓ Write note.txt')
    expect(progress.at(-1)).toBe('Writing the note now.\n✓ Write note.txt\nWrote note.txt.')
    const done = forAgent.at(-1) as ToolCallUpdate
    expect(done).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Wrote note.txt.' } }] })

    // The ask: its own card (announced first), titled with the subagent, and `_meta.seam.agent`.
    expect(asked).toHaveLength(1)
    const ask = asked[0]!
    const childCallId = `${agentId}/turn-1/w1`
    expect(ask.toolCall).toMatchObject({ toolCallId: childCallId, title: 'The general-purpose subagent ("Write a note"): Write note.txt', kind: 'edit' })
    expect(ask._meta).toMatchObject({ seam: { agent: { agentId, agentType: 'general-purpose', description: 'Write a note' } } })
    const childCard = updates.filter((u) => (u as { toolCallId?: string }).toolCallId === childCallId)
    expect(childCard[0]).toMatchObject({ sessionUpdate: 'tool_call', status: 'pending', title: ask.toolCall.title })
    expect(childCard.at(-1)).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'completed' })
    expect(updates.indexOf(childCard[0]!)).toBeLessThan(updates.indexOf(done))
  })

  it('a background agent that ends while the session is idle opens a turn by itself: the editor gets its updates without a prompt', async () => {
    // The child's Write waits for the editor's answer, which the test gives only after the prompt's turn ended.
    const isChild = (body: OpenAIRequestBody) => JSON.stringify(body.messages[0]).includes('You are an agent working for a coding assistant')
    const answered = (body: OpenAIRequestBody) => body.messages.at(-1)?.role === 'tool'
    const respond = (body: OpenAIRequestBody) => {
      if (isChild(body)) return answered(body) ? { text: 'Wrote note.txt.' } : { toolCalls: [{ name: 'Write', args: { file_path: 'note.txt', content: 'later\n' } }] }
      if (JSON.stringify(body.messages).includes('<task-notification>')) return { text: 'The background note is written.' }
      return answered(body) ? { text: 'Launched it.' } : { toolCalls: [{ name: 'Agent', args: { description: 'Write a note', prompt: 'Write note.txt', subagent_type: 'general-purpose', run_in_background: true } }] }
    }
    const s = await setup(Array.from({ length: 10 }, () => respond))
    let allow: () => void = () => {}
    const allowed = new Promise<void>((resolve) => (allow = resolve))
    const proc = agent(s, providerArgs(s), {
      permission: async (params) => {
        await allowed
        return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } }
      }
    })
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const response = await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write a note in the background' }] })
    expect(response.stopReason).toBe('end_turn')
    expect(textOf(updatesOf(proc, sessionId), 'agent_message_chunk')).toBe('Launched it.')

    allow()
    await waitFor(() => textOf(updatesOf(proc, sessionId), 'agent_message_chunk').includes('The background note is written.'), 30_000, 'the turn the agent opened, over ACP')
    expect(await readFile(join(s.workspace, 'note.txt'), 'utf8')).toBe('later\n')
    // The editor is told the task ended (src-main/acp README), then gets the turn that end opened.
    const said = textOf(updatesOf(proc, sessionId), 'agent_message_chunk')
    expect(said.startsWith('Launched it.')).toBe(true)
    expect(said).toContain('<summary>Agent "Write a note" completed</summary>')
    expect(said).toContain('The background note is written.')
  })
})
