// The `tools` plugin: provides the tool registry and the approval seam as services.
import { z } from 'zod'
import '../../src-shared/host/agent'
import { definePlugin } from '../../src-shared/kernel'
import { ApprovalServiceImpl } from './approval'
import { DEFAULT_ABANDON_AFTER_CANCEL_MS } from './pipeline'
import { ToolRegistryImpl } from './registry'
import './scoped'

export const toolsPlugin = definePlugin({
  name: 'tools',
  schema: z
    .object({
      /** After a turn is cancelled, how long a call may take to stop before it gets a CANCELLED result and the turn stops waiting. */
      abandonAfterCancelMs: z.number().int().min(0).default(DEFAULT_ABANDON_AFTER_CANCEL_MS)
    })
    .strict()
    .prefault({}),
  apply(ctx, config) {
    const approval = new ApprovalServiceImpl(ctx.kernel)
    ctx.provide('approval', approval)
    ctx.provide('tools', new ToolRegistryImpl(ctx.kernel, ctx, { abandonAfterCancelMs: config.abandonAfterCancelMs }))
    // Grants live in the session's log: a resumed session (after a restart too) gets them back,
    // and they leave memory with the session.
    ctx.on('agent/session-start', (agent, source) => {
      if (source !== 'startup') approval.restoreGrants(agent.sessionId, agent.events)
    })
    ctx.on('agent/session-end', (agent) => approval.forgetSession(agent.sessionId))
    ctx.onDispose(() => approval.closeAll('the tools service stopped'))
  }
})
