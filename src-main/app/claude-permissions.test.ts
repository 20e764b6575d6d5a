// A copied `.claude/` folder's permissions, env and hooks, end to end: the real Host runtime with
// the built-in profile, the real agent loop, a real hook process and the fake OpenAI server on
// loopback. A deny rule, an ask rule, an allow rule and a hook allow meet on the same tool
// (claude-code-hooks.md §5.1, §7, §9.8): rules beat the hook, the hook answers the mode's ask.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '../../src-shared/host/tools'
import { definePlugin } from '../../src-shared/kernel'
import type { SessionEventOf } from '../../src-shared/session/events'
import { startFakeOpenAI, type FakeProviderServer, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { HostRuntime } from './runtime'

let dir: string
let home: string
let ws: string
let runtime: HostRuntime | undefined
let server: FakeProviderServer<OpenAIRequestBody> | undefined
const asked: ApprovalRequest[] = []

/** The approval answerer of this host: records every request and denies it (nobody is there to click). */
const recordingAnswerer = definePlugin({
  name: 'test-answerer',
  apply(ctx) {
    ctx.on('approval/request', async (request) => (asked.push(request), { outcome: 'denied', by: 'test-answerer' }))
  }
})

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-claude-permissions-'))
  home = join(dir, 'home')
  ws = join(dir, 'ws')
  await mkdir(join(home, '.claude'), { recursive: true })
  await mkdir(join(ws, '.claude'), { recursive: true })
  asked.length = 0
})
afterEach(async () => {
  await runtime?.close()
  await server?.close()
  runtime = undefined
  server = undefined
  await rm(dir, { recursive: true, force: true })
})

const bash = (command: string) => ({ toolCalls: [{ name: 'Bash', args: { command, description: 'step' } }] })
const read = (file_path: string) => ({ toolCalls: [{ name: 'Read', args: { file_path } }] })

async function run(script: OpenAIScript, options: { approvalMode?: 'never-ask' } = {}) {
  server = await startFakeOpenAI(script)
  runtime = await HostRuntime.start({
    mode: 'headless',
    env: { ...process.env, SEAM_HOME: join(dir, 'seam'), HOME: home },
    workspace: ws,
    trustWorkspace: true,
    provider: { provider: 'openai-compatible', baseUrl: server.url, model: 'm' },
    answerer: { key: 'test:answerer', plugin: recordingAnswerer as never },
    ...options
  })
  const session = await runtime.sessions.create(ws)
  session.agent.send('go')
  await session.agent.whenIdle()
  const events = session.log.events
  return {
    results: events.filter((e): e is SessionEventOf<'tool/result'> => e.type === 'tool/result'),
    /** What the model read back for each call, from the requests on the wire. */
    modelSaw: (server.requests.at(-1)?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content),
    notices: events.flatMap((e) => (e.type === 'notice' ? [e.text] : []))
  }
}

describe('Claude Code permissions with hooks, through the real loop (§5.1, §7, §9.8)', () => {
  it('deny rule > hook allow; ask rule > hook allow; allow rule runs; the mode ask is answered by the hook allow, which is recorded; env reaches tools and hooks', async () => {
    const hookCommand = `printf '%s\\n' "$FROM_SETTINGS" >> "$CLAUDE_PROJECT_DIR/hook-env.txt"; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`
    await writeFile(
      join(ws, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: { deny: ['Bash(rm *)'], ask: ['Bash(git push:*)'], allow: ['Bash(echo *)'] },
        env: { FROM_SETTINGS: 'from-project-settings' },
        // The hook allows every call except the echo (so the allow rule alone decides that one).
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: ['Bash(rm *)', 'Bash(git push *)', 'Bash(touch *)'].map((rule) => ({ type: 'command', command: hookCommand, if: rule })) }] }
      })
    )
    const { results, modelSaw } = await run([bash('rm -rf build'), bash('git push origin main'), bash('echo "$FROM_SETTINGS"'), bash('touch made-by-hook-allow'), { text: 'done' }])

    // deny rule: the hook's allow does not lift it.
    expect(modelSaw[0]).toBe(`Permission denied: the permission policy denies calls matching "Bash(rm *)" (permissions.deny[0] in ${join(ws, '.claude', 'settings.json')})`)
    // ask rule: still asked (and denied by the answerer), the hook's allow notwithstanding.
    expect(asked.map((request) => [request.tool, request.args.command, request.reason])).toEqual([
      ['Bash', 'git push origin main', `calls matching "Bash(git push:*)" ask first (permissions.ask[0] in ${join(ws, '.claude', 'settings.json')})`]
    ])
    expect(results[1].verdict).toMatchObject({ outcome: 'denied', stage: 'approval', by: 'test-answerer' })
    // allow rule: runs, with the settings env.
    expect(modelSaw[2]).toBe('from-project-settings')
    expect(results[2].verdict).toMatchObject({ outcome: 'allowed', by: 'permission-policy', reason: expect.stringContaining('allowed by the rule "Bash(echo *)"') })
    // no rule: the mode (ask before side effects) would ask; the hook's allow answers it, no dialog.
    expect(asked).toHaveLength(1)
    expect(existsSync(join(ws, 'made-by-hook-allow'))).toBe(true)
    expect(results[3].verdict).toMatchObject({
      outcome: 'allowed',
      stage: 'pre-execute',
      by: 'hook:PreToolUse',
      reason: `allowed by the PreToolUse hook [${hookCommand}]; this answered the permission policy's ask (Bash can change files or run programs)`
    })
    // The hook ran for its three calls, also those a rule then refused (PreToolUse runs before the permission check), and saw the env.
    expect((await readFile(join(ws, 'hook-env.txt'), 'utf8')).split('\n').filter(Boolean)).toEqual(Array(3).fill('from-project-settings'))
  })

  it('defaultMode from the local file applies, additionalDirectories widen the workspace guard, --approve wins over defaultMode', async () => {
    const lib = join(dir, 'lib')
    await mkdir(lib)
    await writeFile(join(lib, 'shared.txt'), 'shared text\n')
    await writeFile(join(dir, 'elsewhere.txt'), 'secret\n')
    await writeFile(join(ws, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { defaultMode: 'dontAsk', additionalDirectories: ['../lib'] } }))
    const first = await run([read(join(lib, 'shared.txt')), read(join(dir, 'elsewhere.txt')), bash('touch x'), { text: 'done' }])
    expect(first.modelSaw[0]).toContain('shared text')
    expect(first.modelSaw[1]).toMatch(/^Permission denied: workspace-guard: Read refused: .*permissions\.additionalDirectories in Claude Code settings\.$/)
    expect(first.modelSaw[2]).toBe('Permission denied: Bash is not pre-approved by an allow rule, and mode "dont-ask" denies instead of asking')
    expect(asked).toEqual([])

    await runtime?.close()
    await server?.close()
    runtime = undefined
    const cli = await run([bash('touch y'), { text: 'done' }], { approvalMode: 'never-ask' })
    expect(cli.results[0].verdict).toMatchObject({ outcome: 'allowed' })
    expect(existsSync(join(ws, 'y'))).toBe(true)
  })

  it('a malformed rule is reported to the session with its file and index and ignored; the others apply', async () => {
    await writeFile(join(ws, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm *', 'Bash(touch *)', 'Write'] } }))
    const { modelSaw, notices } = await run([bash('touch z'), { text: 'done' }], { approvalMode: 'never-ask' })
    // §6 PreToolUse: the bare `Write` deny takes Write off the tool list the model is sent.
    const offered = (server?.requests[0].body.tools ?? []).map((tool) => tool.function.name)
    expect(offered).toContain('Bash')
    expect(offered).not.toContain('Write')
    expect(notices).toContain(`Claude Code settings: ${join(ws, '.claude', 'settings.json')}: permissions.deny[0] invalid permission rule "Bash(rm *": expected Tool or Tool(specifier); this rule is ignored`)
    expect(modelSaw[0]).toMatch(/^Permission denied: the permission policy denies calls matching "Bash\(touch \*\)"/)
  })
})
