// The provider kinds and approval modes a setting may hold: part of the UI contract (ipc.ts) and
// read by the host's settings and the CLI, which import them from here without the contract.
import { z } from 'zod'
import { APPROVAL_MODES } from '../host/approval-modes'

export const ProviderKindSchema = z.enum(['deepseek', 'openai', 'anthropic', 'ollama', 'openai-compatible'])
export const ApprovalModeSchema = z.enum(APPROVAL_MODES)
