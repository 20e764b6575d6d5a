// The plugin-tree entries that guard tool calls or provide the tools: switching one off changes
// what the agent may do without asking, so the UI confirms it naming the consequence, and the
// host reports which are off (AppStatus.safetyOff) for the header's warning badge.

export interface SafetyEntry {
  /** What the header badge says while it is off. */
  badge: string
  /** What switching it off does, as the confirmation says it. */
  consequence: string
}

export const SAFETY_ENTRIES: Readonly<Record<string, SafetyEntry>> = {
  'permission-policy': {
    badge: 'Approvals off',
    consequence:
      'Edit, Write and Bash will run without asking you. Your permission rules, the approval mode and the allow/ask/deny rules of Claude Code settings stop applying.'
  },
  approval: {
    badge: 'Approval dialog off',
    consequence: 'Seam can no longer ask you: every tool call that needs your approval is refused, so Edit, Write and Bash stop working.'
  },
  'workspace-guard': {
    badge: 'Workspace guard off',
    consequence: 'File tools may read and write anywhere on this computer, not only inside the workspace.'
  },
  'builtin-tools': {
    badge: 'Built-in tools off',
    consequence: 'Every built-in tool (Read, Write, Edit, Bash, Glob, Grep and the rest) is removed: the agent can only answer, or use MCP and plugin tools.'
  }
}

export function isSafetyEntry(id: string): boolean {
  return Object.hasOwn(SAFETY_ENTRIES, id)
}
