// The example of README.md, compiled and tested (example-plugin.test.ts): a tool and a policy
// that asks before `git push`, written against the SDK alone.
import { z } from 'zod'
import { definePlugin, defineTool } from '@seam/sdk'

export default definePlugin({
  name: 'my-plugin',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register(
      defineTool({
        name: 'Shout',
        description: 'Upper-cases a text.',
        inputSchema: z.strictObject({ text: z.string() }),
        execute: ({ text }) => ({ content: text.toUpperCase() })
      })
    )
    ctx.on('tools/pre-execute', async (call, next) =>
      call.name === 'Bash' && String(call.args.command).startsWith('git push') ? { action: 'ask', reason: 'pushes to a remote', by: 'my-plugin' } : next()
    )
  }
})
