// Aggregation of several handlers on one event: claude-code-hooks.md §7 and codex-hooks.md §6,
// with Seam's deterministic rule (configuration order decides ties and single-valued fields).
import { describe, it, expect } from 'vitest'
import { aggregateOutcomes, dedupeHandlers } from './aggregate'
import { parseClaudeHookOutput } from './parse-claude'
import { parseCodexHookOutput } from './parse-codex'
import type { HookOutcome } from './outcome'
import { exited, json } from './test-fixtures'

const pre = (fields: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } })
const claude = (result: ReturnType<typeof exited>) => parseClaudeHookOutput('PreToolUse', result)
const allow = claude(pre({ permissionDecision: 'allow', permissionDecisionReason: 'fine' }))
const ask = claude(pre({ permissionDecision: 'ask', permissionDecisionReason: 'check with user' }))
const denyA = claude(pre({ permissionDecision: 'deny', permissionDecisionReason: 'A says no' }))
const denyB = claude(pre({ permissionDecision: 'deny', permissionDecisionReason: 'B says no' }))
const defer = claude(pre({ permissionDecision: 'defer', permissionDecisionReason: 'later' }))
const silent = claude(exited(0))

describe('aggregateOutcomes: the §7 combinations, decided by configuration order', () => {
  it.each<[string, HookOutcome[], Partial<ReturnType<typeof aggregateOutcomes>>]>([
    ['allow + deny: deny, the denier reason', [allow, denyA], { blocked: true, decision: 'deny', reason: 'A says no' }],
    ['deny + allow: deny, the denier reason', [denyA, allow], { blocked: true, decision: 'deny', reason: 'A says no' }],
    ['ask + allow: ask, the ask reason', [ask, allow], { blocked: false, decision: 'ask', reason: 'check with user' }],
    ['allow + ask: ask', [allow, ask], { blocked: false, decision: 'ask', reason: 'check with user' }],
    ['ask + deny: deny', [ask, denyA], { blocked: true, decision: 'deny', reason: 'A says no' }],
    ['deny A + deny B: the first in config order wins', [denyA, denyB], { decision: 'deny', reason: 'A says no', blockFeedback: 'A says no\nB says no' }],
    ['deny B + deny A: the first in config order wins', [denyB, denyA], { decision: 'deny', reason: 'B says no', blockFeedback: 'B says no\nA says no' }],
    ['exit 2 + allow JSON: blocked with the exit-2 stderr', [claude(exited(2, '', 'stderr block')), allow], { blocked: true, decision: 'deny', reason: 'stderr block' }],
    ['exit 2 + exit 2: the first in config order', [claude(exited(2, '', 'first')), claude(exited(2, '', 'second'))], { blocked: true, reason: 'first' }],
    ['allow + allow + silent: allow', [allow, allow, silent], { blocked: false, decision: 'allow', reason: 'fine' }],
    ['ask + defer + allow: defer (§5.1: deny > defer > ask > allow)', [ask, defer, allow], { blocked: false, decision: 'defer', reason: 'later' }],
    ['defer + deny: deny', [defer, denyA], { blocked: true, decision: 'deny', reason: 'A says no' }],
    ['nothing decided', [silent, silent], { blocked: false, continue: true, suppressOutput: false, interrupt: false, errors: [] }]
  ])('%s', (_name, outcomes, expected) => {
    expect(aggregateOutcomes(outcomes)).toMatchObject(expected)
  })

  it('no decision at all leaves decision and reason unset', () => {
    const result = aggregateOutcomes([silent])
    expect(result.decision).toBeUndefined()
    expect(result.reason).toBeUndefined()
  })

  it('updatedInput + updatedInput: the first in config order', () => {
    const a = claude(pre({ updatedInput: { command: 'a' } }))
    const b = claude(pre({ permissionDecision: 'allow', updatedInput: { command: 'b' } }))
    expect(aggregateOutcomes([a, b]).updatedInput).toEqual({ command: 'a' })
    expect(aggregateOutcomes([b, a]).updatedInput).toEqual({ command: 'b' })
  })

  it('allow + updatedInput, deny: deny wins, no rewrite', () => {
    const rewrite = claude(pre({ permissionDecision: 'allow', updatedInput: { command: 'x' } }))
    const result = aggregateOutcomes([rewrite, denyA])
    expect(result).toMatchObject({ decision: 'deny', blocked: true })
    expect(result.updatedInput).toBeUndefined()
  })

  it('multi-valued texts are joined with "\\n" in config order', () => {
    const ctx = (text: string) => claude(pre({ additionalContext: text }))
    const withMessage = claude(json({ systemMessage: 'm1' }))
    const result = aggregateOutcomes([ctx('c1'), withMessage, ctx('c2'), claude(json({ systemMessage: 'm2' }))])
    expect(result.additionalContext).toBe('c1\nc2')
    expect(result.systemMessage).toBe('m1\nm2')
  })

  it('UserPromptSubmit plain stdout from several hooks', () => {
    const a = parseClaudeHookOutput('UserPromptSubmit', exited(0, 'one\n'))
    const b = parseClaudeHookOutput('UserPromptSubmit', exited(0, 'two\n'))
    expect(aggregateOutcomes([a, b]).plainStdoutContext).toBe('one\ntwo')
  })

  it('two blocking Stop hooks: both feedbacks delivered, first reason wins', () => {
    const a = parseClaudeHookOutput('Stop', exited(2, '', 'fix tests'))
    const b = parseClaudeHookOutput('Stop', json({ decision: 'block', reason: 'update docs' }))
    expect(aggregateOutcomes([a, b])).toMatchObject({ blocked: true, reason: 'fix tests', blockFeedback: 'fix tests\nupdate docs' })
    expect(aggregateOutcomes([a, b]).decision).toBeUndefined()
  })

  it('continue:false from any hook stops; the first stopReason wins', () => {
    const stopA = parseClaudeHookOutput('PostToolUse', json({ continue: false, stopReason: 'A' }))
    const stopB = parseClaudeHookOutput('PostToolUse', json({ continue: false, stopReason: 'B' }))
    const go = parseClaudeHookOutput('PostToolUse', json({ continue: true }))
    expect(aggregateOutcomes([go, stopB, stopA])).toMatchObject({ continue: false, stopReason: 'B' })
  })

  it('errors are listed by config index and never block', () => {
    const failed = claude(exited(1, '', 'x'))
    const result = aggregateOutcomes([allow, failed])
    expect(result).toMatchObject({ blocked: false, decision: 'allow', errors: [{ index: 1, failureKind: 'nonzero_exit' }] })
  })

  it('Codex §6: any block wins over another hook\'s updatedInput; the first blocker gives the reason', () => {
    const rewrite = parseCodexHookOutput('PreToolUse', pre({ permissionDecision: 'allow', updatedInput: { command: 'x' } }))
    const blockA = parseCodexHookOutput('PreToolUse', exited(2, '', 'first'))
    const blockB = parseCodexHookOutput('PreToolUse', exited(2, '', 'second'))
    const result = aggregateOutcomes([rewrite, blockB, blockA])
    expect(result).toMatchObject({ blocked: true, decision: 'deny', reason: 'second' })
    expect(result.updatedInput).toBeUndefined()
  })

  it('Codex §6: every additionalContext, in configured order', () => {
    const ctx = (text: string) => parseCodexHookOutput('UserPromptSubmit', json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } }))
    expect(aggregateOutcomes([ctx('x'), ctx('y')]).additionalContext).toBe('x\ny')
  })
})

describe('dedupeHandlers (Claude §3)', () => {
  it('runs identical command strings once, keeping the first in config order', () => {
    const handlers = [
      { command: 'check.sh', timeout: 5, from: 'user' },
      { command: 'other.sh', from: 'user' },
      { command: 'check.sh', timeout: 60, from: 'project' },
      { command: 'check.sh ', from: 'local' }
    ]
    expect(dedupeHandlers(handlers).map((h) => `${h.command}@${h.from}`)).toEqual(['check.sh@user', 'other.sh@user', 'check.sh @local'])
  })

  it('never merges handlers without a key; accepts a custom key', () => {
    const handlers = [{ url: 'http://a' }, { url: 'http://a' }, { command: 'x' }]
    expect(dedupeHandlers(handlers)).toHaveLength(3)
    expect(dedupeHandlers(handlers, (h) => ('url' in h ? h.url : h.command))).toHaveLength(2)
  })
})
