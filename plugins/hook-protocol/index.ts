// @seam/hook-protocol: runs Claude Code and Codex shell hooks and interprets their answers.
// A library for the hook bridges, not a plugin: it has no dependency on the kernel.

export { runCommandHook, DEFAULT_HOOK_TIMEOUT_MS, DEFAULT_KILL_GRACE_MS, DEFAULT_PIPE_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES } from './runner'
export type { CommandHookOptions, CommandHookResult, CommandHookFailure } from './runner'
export { runHttpHook } from './http-runner'
export type { HttpHookOptions, HttpHookResult, HttpHookFailure } from './http-runner'
export { HookLimiter, sharedHookLimiter } from './limiter'

export {
  CLAUDE_HOOK_EVENTS,
  CODEX_HOOK_EVENTS,
  CLAUDE_BLOCKING_EVENTS,
  CODEX_BLOCKING_EVENTS,
  PERMISSION_EVENTS,
  isClaudeHookEvent,
  isCodexHookEvent
} from './events'
export type { ClaudeHookEvent, CodexHookEvent } from './events'

export { matchesClaude, matchesCodex, compileMatcher, matcherError } from './matcher'
export type { CompiledMatcher, MatcherErrorReport, MatcherProtocol } from './matcher'
export { claudeMatchTarget, codexMatchTargets, matchTargetFor, groupMatches, CODEX_TOOL_ALIASES } from './match-target'
export type { MatchTargetRequest } from './match-target'
export { matchesPermissionRule, parsePermissionRule, bashPatternMatches, pathPatternMatches, pathPatternMatcher } from './permission-rule'
export type { PermissionRuleContext, ParsedPermissionRule } from './permission-rule'
export { splitBashCommand, splitBashCommandSync, loadBashParser, bashParserLoaded } from './bash-command/index'
export type { BashSplit, SimpleCommand, Alternative, Redirect } from './bash-command/index'
export { suggestRules, ruleText, rulesCover, commandPrefix, splitPlainWords, permissionSuggestions } from './rule-suggestions'
export type { RuleValue, BashSplitter, SuggestionContext } from './rule-suggestions'
export { parsePermissionUpdates } from './permission-updates'
export type { RuleUpdate, RuleUpdateDestination, ParsedUpdates } from './permission-updates'

export { parseClaudeHookOutput, CLAUDE_EMPTY_STDERR_TEXT } from './parse-claude'
export type { ClaudeParseOptions } from './parse-claude'
export { parseCodexHookOutput, CODEX_PERMISSION_DENIED_TEXT } from './parse-codex'
export { applyFailurePolicy } from './outcome'
export type { HookOutcome, HookExecution, HookFailurePolicy, HookFailureKind, HookOutcomeKind, HookPermissionDecision } from './outcome'

export { aggregateOutcomes, dedupeHandlers } from './aggregate'
export type { AggregatedOutcome } from './aggregate'

export { hookInvokedEvent, hookResultEvent } from './session-events'
export type { HookInvocation, UnstampedHookInvokedEvent, UnstampedHookResultEvent } from './session-events'
export { truncateUtf8 } from './output-buffer'
export { anySignal } from './signals'
export { claudePermissionMode, CLAUDE_PERMISSION_MODES } from './permission-mode'
export type { ClaudePermissionMode } from './permission-mode'
