// The tool registry, its pipeline (S9-S18) and the approval seam (S11).
import './scoped'

export { toolsPlugin } from './plugin'
export { ToolRegistryImpl } from './registry'
export { ApprovalServiceImpl, ApprovalAnswerSchema, type ApprovalDecision } from './approval'
export { ScopedToolRegistry } from './scoped'
export { scopeFor } from './grant-scope'
export { materializeJson, normalizeResult } from './normalize'
