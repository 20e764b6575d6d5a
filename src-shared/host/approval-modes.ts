// Seam's approval modes: one list for the contract (settings, the UI), the permission policy and
// the ACP agent's session modes. What each mode does is the permission policy's business
// (plugins/permission-policy/modes.ts maps Claude Code's permission modes onto these).
export const APPROVAL_MODES = ['ask-side-effects', 'ask-all', 'never-ask', 'accept-edits', 'dont-ask', 'plan'] as const
export type ApprovalMode = (typeof APPROVAL_MODES)[number]
