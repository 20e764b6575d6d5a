// What the policy applies right now and where each piece came from: its own config, Claude Code's
// settings files, the command line. The decision and the settings page read the same lists.
import type { ClaudeSettingsSnapshot, ClaudeSource, RuleBehavior } from '../claude-settings/read'
import { MODE_FROM_CLAUDE, type ApprovalMode } from './modes'

/** The `file` of rules from the plugin's own config (Seam's patch layers, `cordis.patch.yml`). */
export const SEAM_RULES_FILE = 'permission-policy config'

export interface RuleInForce {
  behavior: RuleBehavior
  rule: string
  /** `seam`: the plugin's config; otherwise the Claude Code settings file's kind. */
  source: 'seam' | ClaudeSource
  /** The settings file, or `permission-policy config`. */
  file: string
  /** Position in its list (`permissions.allow[2]`). */
  index: number
}

export interface ModeInForce {
  mode: ApprovalMode
  /** `command line` (--approve), `seam` (Seam's settings / the plugin config), `session` (a hook's setMode for the session) or the Claude Code settings file's kind. */
  source: 'command line' | 'seam' | 'session' | ClaudeSource
  /** The Claude Code settings file that set `defaultMode`, and the value it set. */
  file?: string
  claudeMode?: string
}

export interface PolicyInForce {
  mode: ModeInForce
  /** Deny, ask and allow rules; precedence is deny > ask > allow whatever the source. */
  rules: RuleInForce[]
  additionalDirectories: ClaudeSettingsSnapshot['additionalDirectories'][number][]
  /** Rules and settings that were ignored, naming file and index. */
  warnings: string[]
}

interface RulesConfig {
  allow: readonly string[]
  ask: readonly string[]
  deny: readonly string[]
  mode: ApprovalMode
  modeFromCommandLine: boolean
}

const BEHAVIORS = ['deny', 'ask', 'allow'] as const

/** The plugin's own rules, then the settings files' (user, project, local), deny first. */
export function rulesInForce(config: RulesConfig, claude: ClaudeSettingsSnapshot | undefined): RuleInForce[] {
  const rules: RuleInForce[] = []
  for (const behavior of BEHAVIORS) {
    config[behavior].forEach((rule, index) => rules.push({ behavior, rule, source: 'seam', file: SEAM_RULES_FILE, index }))
    for (const rule of claude?.rules ?? []) {
      if (rule.behavior === behavior) rules.push({ behavior, rule: rule.rule, source: rule.source, file: rule.file, index: rule.index })
    }
  }
  return rules
}

/**
 * The mode: the command line's wins; otherwise Claude Code's `defaultMode` (local > project >
 * user), mapped onto Seam's modes; otherwise Seam's own setting.
 */
export function modeInForce(config: RulesConfig, claude: ClaudeSettingsSnapshot | undefined): ModeInForce {
  if (config.modeFromCommandLine) return { mode: config.mode, source: 'command line' }
  const claudeMode = claude?.defaultMode
  if (claudeMode) return { mode: MODE_FROM_CLAUDE[claudeMode.mode], source: claudeMode.source, file: claudeMode.file, claudeMode: claudeMode.mode }
  return { mode: config.mode, source: 'seam' }
}
