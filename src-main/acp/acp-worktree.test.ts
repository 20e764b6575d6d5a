// ACP's worktree session option: `session/new` with `_meta.seam.worktree` runs the session in a
// new git worktree of the editor's folder (a real repository made here), and bad input is refused
// naming the field. The built CLI over stdio, the loopback server speaking OpenAI's protocol.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { agent, connect, providerArgs, rpcError, sessionEvents, setup, useAcpFixture } from './acp-fixture'
import { git, makeRepo } from '../../plugins/worktrees/test-repo'

useAcpFixture()

describe('session/new with _meta.seam.worktree', () => {
  it('makes the worktree on seam/<name> and binds the session to it; session/load finds it from the repository', async () => {
    const s = await setup([{ text: 'hello from the worktree' }])
    makeRepo(s.workspace)
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [], _meta: { seam: { worktree: { name: 'editor' } } } })
    const folder = join(s.workspace, '..', 'ws.worktrees', 'editor')
    expect(existsSync(join(folder, 'README.md'))).toBe(true)
    expect(git(folder, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('seam/editor')
    const reply = await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })
    expect(reply.stopReason).toBe('end_turn')
    const [header] = await sessionEvents(s.home, sessionId)
    expect(header).toMatchObject({ workspace: folder, worktree: { name: 'editor', repo: s.workspace, branch: 'seam/editor' } })
    await proc.agent.request('session/close' as never, { sessionId } as never).catch(() => undefined)
    const other = agent(s, providerArgs(s))
    await connect(other)
    await other.agent.request('session/load', { sessionId, cwd: s.workspace, mcpServers: [] })
  })

  it('bad input: a malformed option names the field; a folder that is not a repository says so', async () => {
    const s = await setup([])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const malformed = await rpcError(proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [], _meta: { seam: { worktree: { name: 7 } } } }))
    expect(malformed.code).toBe(-32602)
    expect(malformed.message).toContain('_meta.seam.worktree: name: Invalid input: expected string')
    const notRepo = await rpcError(proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [], _meta: { seam: { worktree: true } } }))
    expect(notRepo.code).toBe(-32602)
    expect(notRepo.message).toContain('is not in a git repository')
  })
})
