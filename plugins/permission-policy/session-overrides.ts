// What permission updates changed for one session alone: Claude Code's `destination: "session"`
// (a PermissionRequest hook's `updatedPermissions`: `setMode`, `addDirectories`,
// `removeDirectories`, deny and ask rules added, removed or replaced). Allow rules for the session
// are the approval service's grants, not kept here. These last as long as the session runs in this
// host, as in Claude Code, where they last as long as the process.
import path from 'node:path'
import type { PermissionUpdate } from '@seam/sdk'
import { MODE_FROM_CLAUDE, type ApprovalMode } from './modes'
import type { RuleInForce } from './in-force'

export const SESSION_RULES_FILE = 'this session (a hook\'s updatedPermissions)'

export interface SessionOverrides {
  mode?: ApprovalMode
  /** Absolute folders added for the session (beyond the workspace and the settings' ones). */
  directories: string[]
  /** Deny and ask rules of the session, checked with the settings' rules. */
  rules: RuleInForce[]
}

export class SessionPermissions {
  private readonly sessions = new Map<string, SessionOverrides>()

  get(sessionId: string): SessionOverrides | undefined {
    return this.sessions.get(sessionId)
  }

  /**
   * Applies one update to the session; returns what changed, in words for the session's notice.
   * Allow rules are not taken here (the caller grants them): `undefined`.
   */
  apply(sessionId: string, update: PermissionUpdate, cwd: string): string | undefined {
    const state = this.sessions.get(sessionId) ?? { directories: [], rules: [] }
    this.sessions.set(sessionId, state)
    if (update.type === 'setMode') {
      state.mode = MODE_FROM_CLAUDE[update.mode]
      return `permission mode ${update.mode} for this session`
    }
    if ('directories' in update) {
      const dirs = update.directories.map((dir) => path.resolve(cwd, dir))
      if (update.type === 'addDirectories') state.directories = [...new Set([...state.directories, ...dirs])]
      else state.directories = state.directories.filter((dir) => !dirs.includes(dir))
      return `${update.type === 'addDirectories' ? 'added' : 'removed'} ${dirs.join(', ')} ${update.type === 'addDirectories' ? 'to' : 'from'} this session's directories`
    }
    if (update.behavior === 'allow') return undefined
    const given = new Set(update.rules)
    const others = state.rules.filter((rule) => rule.behavior !== update.behavior)
    const mine = state.rules.filter((rule) => rule.behavior === update.behavior).map((rule) => rule.rule)
    const next = update.type === 'removeRules' ? mine.filter((rule) => !given.has(rule)) : update.type === 'replaceRules' ? [...given] : [...new Set([...mine, ...given])]
    state.rules = [...others, ...next.map((rule, index): RuleInForce => ({ behavior: update.behavior, rule, source: 'seam', file: SESSION_RULES_FILE, index }))]
    const verb = update.type === 'removeRules' ? 'removed' : update.type === 'replaceRules' ? 'replaced by' : 'added'
    return `${update.behavior} rules ${verb} ${update.rules.join(', ') || '(none)'} for this session`
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId)
  }
}
