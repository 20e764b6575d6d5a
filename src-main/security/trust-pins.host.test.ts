// Trust pinned to what the trust dialog showed (issue 13: "Trust that stays what the user saw"),
// through the real host: real hook files, a real Bash tool call from the loopback fake provider.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeProviderServer, type OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { createHost, type Host } from '../app/host'
import { HostRuntime } from '../app/runtime'
import { terminalApprovalPlugin } from '../cli/terminal-approval'

const caller = { transport: 'web' as const }
let home: string
let workspace: string
let host: Host | undefined
let server: FakeProviderServer<OpenAIRequestBody> | undefined

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-pins-home-'))
  workspace = await mkdtemp(join(tmpdir(), 'seam-pins-ws-'))
  await mkdir(join(workspace, '.claude'))
})

afterEach(async () => {
  await host?.close()
  host = undefined
  await server?.close()
  server = undefined
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

/** A PreToolUse hook on Bash that appends `word` to a marker file in the workspace. */
async function writeHook(word: string): Promise<void> {
  const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo ${word} >> ran.txt` }] }] }
  await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks }))
}

async function ran(): Promise<string> {
  return existsSync(join(workspace, 'ran.txt')) ? (await readFile(join(workspace, 'ran.txt'), 'utf8')).trim() : ''
}

async function turn(h: Host): Promise<Array<{ type: string; text?: string }>> {
  const session = await h.runtime.sessions.create(workspace)
  session.agent.send('run it', 'user')
  await session.agent.whenIdle()
  return [...session.log.events] as Array<{ type: string; text?: string }>
}

async function startHost(): Promise<Host> {
  const script = Array.from({ length: 4 }, () => [{ toolCalls: [{ name: 'Bash', args: { command: 'true' } }] }, { text: 'ok' }]).flat()
  server = await startFakeOpenAI(script)
  await writeFile(join(home, 'settings.json'), JSON.stringify({ workspace, approvalMode: 'never-ask' }))
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
  await host.router.invoke('provider/set', { provider: 'openai', baseUrl: server.url, model: 'm', apiKey: 'sk-pins-test-key' }, caller)
  return host
}

async function preview(h: Host) {
  const reply = await h.router.invoke('workspace/trust-preview', {}, caller)
  if (!reply.ok) throw new Error(reply.error.message)
  return reply.output as { trusted: boolean; items: Array<{ command: string; hash: string; status: string; previous?: string }> }
}

describe('trust pinned to what the dialog showed', () => {
  it('a hook changed after trust is skipped with a notice and a badge until its change is approved; removed items need nothing', async () => {
    await writeHook('first')
    const h = await startHost()
    const shown = await preview(h)
    expect(shown.items).toEqual([expect.objectContaining({ command: 'echo first >> ran.txt', status: 'new' })])
    await h.router.invoke('workspace/trust', { trusted: true, approve: shown.items.map((i) => i.hash) }, caller)
    await turn(h)
    expect(await ran()).toBe('first')

    // A `git pull` changes the command: it does not run, the session is told, the status counts it.
    await writeHook('second')
    h.runtime.kernel.getService('claudeHooks')!.reload()
    const events = await turn(h)
    expect(await ran()).toBe('first')
    expect(events.some((e) => e.type === 'notice' && /\[echo second >> ran\.txt\].*new or changed since you trusted this workspace/.test(e.text ?? ''))).toBe(true)
    const status = await h.router.invoke('app/status', {}, caller)
    expect(status).toMatchObject({ ok: true, output: { workspaceTrusted: true, trustChanges: 1 } })
    const changed = await preview(h)
    expect(changed.items).toEqual([expect.objectContaining({ command: 'echo second >> ran.txt', status: 'changed', previous: 'echo first >> ran.txt' })])

    // Approving exactly what the dialog showed makes it run.
    await h.router.invoke('workspace/trust', { trusted: true, approve: changed.items.map((i) => i.hash) }, caller)
    await turn(h)
    expect(await ran()).toBe('first\nsecond')
    expect(await h.router.invoke('app/status', {}, caller)).toMatchObject({ output: { trustChanges: 0 } })

    // Removed: nothing to approve.
    await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: {} }))
    expect((await preview(h)).items).toEqual([])
    expect(await h.router.invoke('app/status', {}, caller)).toMatchObject({ output: { trustChanges: 0 } })
  })

  it('trusting pins only the items the dialog showed: one added between showing and trusting does not run', async () => {
    await writeHook('shown')
    const h = await startHost()
    const shown = await preview(h)
    await writeHook('slipped-in')
    await h.router.invoke('workspace/trust', { trusted: true, approve: shown.items.map((i) => i.hash) }, caller)
    await turn(h)
    expect(await ran()).toBe('')
    // The shown item is gone, so nothing was pinned: the one that slipped in is new.
    expect((await preview(h)).items).toEqual([expect.objectContaining({ command: 'echo slipped-in >> ran.txt', status: 'new' })])
  })

  it('--trust-workspace approves what is there at start, for that run only (nothing written)', async () => {
    await writeHook('headless')
    const runtime = await HostRuntime.start({
      mode: 'headless',
      env: { ...process.env, SEAM_HOME: home, HOME: home },
      workspace,
      trustWorkspace: true,
      answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin('deny') as never }
    })
    try {
      expect(runtime.plugins.trustPreview(workspace)).toEqual([expect.objectContaining({ status: 'approved' })])
      expect(runtime.plugins.pendingTrustChanges()).toBe(0)
      expect(existsSync(join(home, 'trust-pins.json'))).toBe(false)
    } finally {
      await runtime.close()
    }
  })

  it('a workspace trusted before pinning existed keeps running the hooks it has now (pinned once at start)', async () => {
    await writeHook('legacy')
    await writeFile(join(home, 'settings.json'), JSON.stringify({ workspace, trustedWorkspaces: [workspace] }))
    host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
    expect((await preview(host)).items).toEqual([expect.objectContaining({ status: 'approved' })])
    const pins = JSON.parse(await readFile(join(home, 'trust-pins.json'), 'utf8')) as { workspaces: Record<string, Array<{ command: string; file: string }>> }
    expect(pins.workspaces[workspace]).toEqual([expect.objectContaining({ command: 'echo legacy >> ran.txt', file: '.claude/settings.json' })])
  })
})
