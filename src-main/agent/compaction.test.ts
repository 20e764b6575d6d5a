// Compaction end to end (issue 16): a long session against the loopback OpenAI-protocol server
// that refuses prompts over its context window. Automatic compaction keeps the session alive;
// Claude Code's PreCompact and SessionStart(compact) hooks fire with Claude Code's fields and the
// SessionStart context follows the summary; a provider context-length error compacts and retries
// once; a reopened session rebuilds the same request; manual compaction takes instructions.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { afterEach, describe, expect, it } from 'vitest'
import { definePlugin, Kernel } from '../../src-shared/kernel'
import type { WorkspaceService } from '../app/plugin-host'
import { startFakeOpenAI, type OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import hooksClaude from '../../plugins/hooks-claude/index'
import { hookCommand, hooksOf } from '../../plugins/hooks-claude/test-harness'
import { createOpenAICompatibleClient } from '../llm/openai-compatible'
import { SessionStore, type SessionLog } from '../session/store'
import { compactionText } from '../session/history'
import { toolsPlugin } from '../tools'
import { Agent, type AgentSettingsInput } from './index'
import { promptPlugin } from './system-prompt'
import { COMPACTION_PROMPT_SECTIONS } from './compaction'
import { buildModelRequest } from './step'
import { testTool } from './loop-fixture'
import { claudeTranscriptPath } from '../../plugins/hooks-claude/transcript'

const workspacePlugin = definePlugin({
  name: 'test-workspace',
  schema: z.object({ root: z.string() }),
  apply(ctx, config: { root: string }) {
    const service: WorkspaceService = {
      root: config.root,
      trusted: true,
      seamHome: join(config.root, '.seam-home'),
      contributeTrustItems: () => () => {},
      isApproved: () => true,
      itemsChanged: () => {},
      approveItems: () => {}
    }
    ctx.provide('workspace', service)
  }
})

interface Setup {
  dir: string
  kernel: Kernel
  log: SessionLog
  store: SessionStore
  agent: Agent
  server: FakeProviderServer<OpenAIRequestBody>
  records(): Array<Record<string, unknown>>
}

let current: Setup | undefined
afterEach(async () => {
  if (!current) return
  await current.agent.close('closed').catch(() => undefined)
  await current.log.close().catch(() => undefined)
  current.kernel.dispose()
  await current.server.close()
  await rm(current.dir, { recursive: true, force: true })
  current = undefined
})

const isSummaryRequest = (body: OpenAIRequestBody): boolean => JSON.stringify(body.messages.at(-1)).includes(COMPACTION_PROMPT_SECTIONS[2])

/** Every work request asks for the Big tool until the model has seen `rounds` results, then ends; a summary request gets SUMMARY-<n>. */
function workScript(rounds: number) {
  let summaries = 0
  return (body: OpenAIRequestBody) => {
    if (isSummaryRequest(body)) return { text: `SUMMARY-${++summaries}: the user asked for big reads` }
    const results = body.messages.filter((m) => m.role === 'tool').length
    const seenSummary = JSON.stringify(body.messages).includes('SUMMARY-')
    return results >= rounds || (seenSummary && results >= 1) ? { text: 'all done' } : { toolCalls: [{ name: 'Big', args: { tag: String(results) } }] }
  }
}

async function setup(options: { contextWindow: number; settings: AgentSettingsInput; script: (body: OpenAIRequestBody) => object }): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-compaction-'))
  const record = join(dir, 'hooks.jsonl')
  const userSettings = join(dir, 'home', '.claude', 'settings.json')
  mkdirSync(join(dir, 'home', '.claude'), { recursive: true })
  const sessionStartOut = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'context from SessionStart' } }
  writeFileSync(
    userSettings,
    JSON.stringify({
      hooks: hooksOf(
        ['PreCompact', 'auto|manual', hookCommand('bash', { record })],
        ['SessionStart', 'compact', hookCommand('bash', { record, stdout: sessionStartOut })]
      )
    })
  )
  // Each scripted step is the same function of the request body.
  const server = await startFakeOpenAI(Array.from({ length: 60 }, () => options.script as never), { contextWindow: options.contextWindow })
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  kernel.plugin(promptPlugin)
  kernel.plugin(workspacePlugin, { root: dir })
  kernel.getService('tools')?.register(testTool('Big', { body: (args) => `${args.tag ?? ''}:${'x'.repeat(2400)}` }))
  kernel.plugin(hooksClaude, { userSettingsPath: userSettings })
  const store = new SessionStore(join(dir, 'sessions'))
  const log = await store.create({ workspace: dir })
  const model = createOpenAICompatibleClient({ provider: 'deepseek', baseUrl: server.url, model: 'deepseek-chat', apiKey: 'sk-test', maxRetries: 0 })
  const agent = new Agent({ kernel, log, model, workspace: dir, settings: options.settings, source: 'startup' })
  current = {
    dir, kernel, log, store, agent, server,
    records: () => (existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [])
  }
  return current
}

function lastTurnEnd(log: SessionLog) {
  return log.events.filter((e) => e.type === 'turn/end').at(-1)
}

describe('compaction (issue 16)', () => {
  it('automatic compaction at the threshold keeps a session alive that would overflow; PreCompact (auto) and SessionStart (compact) fire with Claude Code fields; the context follows the summary; a reopened log rebuilds the same request', async () => {
    const s = await setup({
      contextWindow: 2500,
      settings: { maxSteps: 20, model: { contextWindow: 2500 }, compaction: { threshold: 0.7 } },
      script: workScript(4)
    })
    s.agent.send('read big things four times')
    await s.agent.whenIdle()
    expect(lastTurnEnd(s.log)).toMatchObject({ reason: 'completed' })
    const compactions = s.log.events.filter((e) => e.type === 'compaction')
    expect(compactions.length).toBeGreaterThanOrEqual(1)
    expect(compactions[0]).toMatchObject({ trigger: 'auto', fromSeq: 1, summary: 'SUMMARY-1: the user asked for big reads' })
    // No request was refused: the compaction came before the window filled up.
    expect(s.server.requests.length).toBe(s.log.events.filter((e) => e.type === 'usage/step').length)

    const records = s.records()
    const pre = records.find((r) => r.hook_event_name === 'PreCompact')
    expect(pre).toMatchObject({ session_id: s.log.id, transcript_path: claudeTranscriptPath({ sessionId: s.log.id, transcriptPath: s.log.path }), cwd: s.dir, trigger: 'auto', custom_instructions: null })
    const start = records.find((r) => r.hook_event_name === 'SessionStart')
    expect(start).toMatchObject({ source: 'compact' })
    expect(records.findIndex((r) => r.hook_event_name === 'PreCompact')).toBeLessThan(records.findIndex((r) => r.hook_event_name === 'SessionStart'))

    // The request after the compaction starts from the summary, then the SessionStart context.
    const afterSeq = compactions[0].seq
    const request = buildModelRequest(s.log.events.filter((e) => e.seq <= afterSeq + 5))
    const first = request.messages[0]
    expect(first.role === 'user' && first.content).toMatch(
      new RegExp(`^${escape(compactionText('SUMMARY-1'))}[\\s\\S]*SessionStart hook additional context: context from SessionStart`)
    )

    // Resume: the file on disk gives the same request as the live log.
    await s.log.flush()
    const reopened = await new SessionStore(join(s.dir, 'sessions')).open(s.log.id).catch(async () => {
      await s.log.close()
      return new SessionStore(join(s.dir, 'sessions')).open(s.log.id)
    })
    expect(buildModelRequest(reopened.events)).toEqual(buildModelRequest(s.log.events))
  })

  it('a provider context-length error compacts and retries the step once instead of failing the turn', async () => {
    const s = await setup({ contextWindow: 1500, settings: { maxSteps: 20, compaction: { auto: false } }, script: workScript(3) })
    s.agent.send('read big things')
    await s.agent.whenIdle()
    expect(lastTurnEnd(s.log), JSON.stringify(s.log.events.filter((e) => e.type === 'notice' || e.type === 'turn/end'))).toMatchObject({ reason: 'completed' })
    expect(s.server.requests.length).toBeGreaterThan(s.log.events.filter((e) => e.type === 'usage/step').length)
    expect(s.log.events.some((e) => e.type === 'notice' && /refused the request as too long/.test(e.text))).toBe(true)
    expect(s.log.events.filter((e) => e.type === 'compaction')[0]).toMatchObject({ trigger: 'auto' })
  })

  it('manual compaction passes the instructions to PreCompact (custom_instructions, trigger manual) and to the summary prompt; the UI keeps every replaced event', async () => {
    const s = await setup({ contextWindow: 100_000, settings: {}, script: workScript(1) })
    s.agent.send('one read')
    await s.agent.whenIdle()
    const before = s.log.events.length
    const outcome = await s.agent.compact('keep the file names')
    expect(outcome.compacted).toBe(true)
    const pre = s.records().find((r) => r.hook_event_name === 'PreCompact')
    expect(pre).toMatchObject({ trigger: 'manual', custom_instructions: 'keep the file names' })
    const summaryBody = s.server.requests.map((r) => r.body).find(isSummaryRequest)
    expect(JSON.stringify(summaryBody?.messages.at(-1))).toContain('keep the file names')
    const event = s.log.events.find((e) => e.type === 'compaction')
    expect(event).toMatchObject({ trigger: 'manual', instructions: 'keep the file names', fromSeq: 1 })
    // It replaced everything logged before it (the turn, then the compaction's own hook and usage records).
    expect(event && event.type === 'compaction' && event.toSeq).toBe((event?.seq ?? 0) - 1)
    // Everything before stays in the log; the model's history now starts at the summary.
    expect(s.log.events.length).toBeGreaterThan(before)
    s.agent.send('next')
    await s.agent.whenIdle()
    const last = s.server.requests.at(-1)?.body
    expect(JSON.stringify(last?.messages[1])).toContain('SUMMARY-1')
    expect(JSON.stringify(last?.messages)).not.toContain('one read')
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
