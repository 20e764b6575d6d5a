// The `tools` plugin: provides the tool registry and the approval seam as services.
import { z } from 'zod'
import '../../src-shared/host/agent'
import { definePlugin } from '../../src-shared/kernel'
import { ApprovalServiceImpl } from './approval'
import { ToolRegistryImpl } from './registry'
import './scoped'

export const toolsPlugin = definePlugin({
  name: 'tools',
  schema: z.object({}).strict().prefault({}),
  apply(ctx) {
    const approval = new ApprovalServiceImpl(ctx.kernel)
    ctx.provide('approval', approval)
    ctx.provide('tools', new ToolRegistryImpl(ctx.kernel, ctx))
    // Session grants never outlive their session.
    ctx.on('agent/session-end', (agent) => approval.forgetSession(agent.sessionId))
    ctx.onDispose(() => approval.closeAll('the tools service stopped'))
  }
})
