export { Agent, type AgentOptions, type SendResult, type SessionEndReason } from './agent'
export { AgentSettingsSchema, parseAgentSettings, type AgentSettings, type AgentSettingsInput } from './settings'
export {
  promptPlugin,
  PromptConfigSchema,
  SystemPromptSections,
  DEFAULT_BASE_PROMPT,
  renderSystemPrompt,
  type SystemPromptService,
  type PromptSection,
  type ScopedPromptSections
} from './system-prompt'
export { buildModelRequest } from './step'
export { InvalidDecisionError } from './decisions'
export type { AgentState, AgentDelta, AgentToolProgress } from './events'
export { childTurnsPlugin, environmentDetails } from './child'
